#!/usr/bin/env python3
"""docs/interactive.md documents every service of the interactive worker, and nothing else.

Starts `asg-worker --serve 127.0.0.1:0`, reads "serving HOST:PORT" from its stdout, calls
ListServices over the framed protocol (nodes/python/asg_node/framing.py) and compares the names
with the `### Name` headings of the doc's services part: every level-2 section whose heading
starts with "Services" ("## Services: simulation_interfaces", ...). It fails naming every
service without its `### <name>` heading there, every such heading that names no service, and
every heading given twice. The worker is then told to quit (SetSimulationState
{state: {state: 3}}), and killed if it does not.

Usage: interactive_doc_test.py BUILD_BIN_DIR REPOSITORY_ROOT
"""
import os
import pathlib
import re
import select
import subprocess
import sys
import time
import unittest

BIN = pathlib.Path(sys.argv[1]) if __name__ == "__main__" and len(sys.argv) > 1 else None
ROOT = (pathlib.Path(sys.argv[2]) if __name__ == "__main__" and len(sys.argv) > 2
        else pathlib.Path(__file__).resolve().parents[3])
sys.path.insert(0, str(ROOT / "nodes" / "python"))
from asg_node import framing  # noqa: E402

DOC = "docs/interactive.md"
STATE_QUITTING = 3
START_TIMEOUT = 20.0  # [s] for the "serving" line
REPLY_TIMEOUT = 10.0  # [s]
EXIT_TIMEOUT = 10.0  # [s] after QUITTING


def service_headings(text):
    """The `### ` headings inside the level-2 sections whose heading starts with "Services",
    in order (repeats kept), and whether any such section exists."""
    headings = []
    inside = False
    found_part = False
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        match = re.match(r"^(#{1,6}) +(.*?) *#* *$", line)
        if not match:
            continue
        level, title = len(match.group(1)), match.group(2).strip()
        if level <= 2:
            inside = level == 2 and title.startswith("Services")
            found_part = found_part or inside
        elif level == 3 and inside:
            headings.append(title)
    return headings, found_part


class ServedWorker:
    """`asg-worker --serve 127.0.0.1:0` until stop(); `address` is the HOST:PORT it printed."""

    def __init__(self):
        self.process = subprocess.Popen(
            [str(BIN / "asg-worker"), "--serve", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.address = None
        printed = b""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline and self.address is None:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if not ready:
                if self.process.poll() is not None:
                    break
                continue
            chunk = os.read(self.process.stdout.fileno(), 4096)
            if not chunk:
                break
            printed += chunk
            match = re.search(rb"^serving (\S+:[0-9]+)\s*$", printed, re.MULTILINE)
            if match:
                self.address = match.group(1).decode()
        if self.address is None:
            self.kill()
            raise AssertionError("asg-worker printed no \"serving HOST:PORT\" line within "
                                 f"{START_TIMEOUT} s: {printed.decode(errors='replace')!r}")

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def wait(self, timeout):
        """The exit code, or None when still running after timeout seconds."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None


class InteractiveDocTest(unittest.TestCase):
    def test_every_service_has_its_section(self):
        self.assertIsNotNone(BIN, "usage: interactive_doc_test.py BUILD_BIN_DIR REPOSITORY_ROOT")
        headings, found_part = service_headings((ROOT / DOC).read_text())
        self.assertTrue(found_part, f"{DOC} has no \"## Services...\" section")

        worker = ServedWorker()
        try:
            connection = framing.Connection.connect(
                worker.address, REPLY_TIMEOUT, lambda frame: None, lambda reason: None)
            try:
                reply = connection.request("ListServices", {}, timeout=REPLY_TIMEOUT)
                self.assertEqual(reply.type, "ListServicesResponse")
                self.assertIs(reply.message.get("success"), True, reply.message)
                services = [item["name"] for item in reply.message["services"]]
                quit_reply = connection.request(
                    "SetSimulationState", {"state": {"state": STATE_QUITTING}},
                    timeout=REPLY_TIMEOUT)
                self.assertEqual(quit_reply.message["result"]["result"], 1, quit_reply.message)
            finally:
                connection.close("done")
            code = worker.wait(EXIT_TIMEOUT)
            self.assertEqual(code, 0, "asg-worker did not exit 0 after STATE_QUITTING")
        finally:
            worker.kill()

        self.assertTrue(services, "ListServices listed no service")
        undocumented = sorted(set(services) - set(headings))
        unknown = [title for title in headings if title not in services]
        repeated = sorted({title for title in headings if headings.count(title) > 1})
        problems = []
        if undocumented:
            problems.append(f"services without a `### <name>` section in the services part of "
                            f"{DOC}: {', '.join(undocumented)}")
        if unknown:
            problems.append(f"`### ` headings in the services part of {DOC} that name no "
                            f"service: {', '.join(unknown)}")
        if repeated:
            problems.append(f"services with more than one section in {DOC}: "
                            f"{', '.join(repeated)}")
        self.assertFalse(problems, "\n".join(problems))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
