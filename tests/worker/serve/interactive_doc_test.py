#!/usr/bin/env python3
"""docs/interactive.md documents every service of the interactive worker, and nothing else.

Starts `asg-worker --serve 127.0.0.1:0`, reads "serving HOST:PORT" from its stdout, calls
ListServices over the framed protocol (nodes/python/asg_node/framing.py) and compares the names
with the `### Name` headings of the doc's services part: every level-2 section whose heading
starts with "Services" ("## Services: simulation_interfaces", ...). It fails naming every
service without its `### <name>` heading there, every such heading that names no service, and
every heading given twice. The worker is then told to quit (SetSimulationState
{state: {state: 3}}), and killed if it does not.

It also holds `asg-worker --print-service-schemas` to the decoders the services run: with a
scenario loaded, every service is sent, for each top-level property of its printed request
schema that does not accept anything, a body with that property of another JSON type, and must
refuse it naming that property as a value (not as an unknown field, which a schema of the wrong
type would give); and a body with a key of no schema, which it must refuse as an unknown field.
Nothing may have changed after them (the state, the time, the entities): a body is decoded whole
before a service acts. SetSimulationState comes last, so that no refusal could leave the worker
QUITTING before the others are tried.

Usage: interactive_doc_test.py BUILD_BIN_DIR REPOSITORY_ROOT
"""
import json
import os
import pathlib
import re
import select
import subprocess
import sys
import threading
import time
import unittest

BIN = pathlib.Path(sys.argv[1]) if __name__ == "__main__" and len(sys.argv) > 1 else None
ROOT = (pathlib.Path(sys.argv[2]) if __name__ == "__main__" and len(sys.argv) > 2
        else pathlib.Path(__file__).resolve().parents[3])
sys.path.insert(0, str(ROOT / "nodes" / "python"))
from asg_node import framing  # noqa: E402
from monodrive_client_test import CLOSED_LOOP  # noqa: E402  (the script's own folder)

DOC = "docs/interactive.md"
STATE_PAUSED = 2
STATE_QUITTING = 3
RESULT_OPERATION_FAILED = 4
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
        # What it logs from now on is read and dropped, so that a full pipe never stops it.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

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


# A scenario small enough to load at once: monodrive_client_test's closed loop (the farm's
# RunScenario request) without its sensors; the test needs entities and a clock, not a drive.
SCENARIO = {key: value for key, value in CLOSED_LOOP.items() if key != "vehicle_nodes"}
# A value of each JSON type, in the order tried for a value of another type than a schema's.
VALUES_BY_TYPE = [("string", "not of this type"), ("boolean", True), ("array", ["x"]),
                  ("object", {"x": 1}), ("integer", 7)]
UNKNOWN_KEY = "no_such_field"
# The service that could end the session; tried last.
LAST = "SetSimulationState"


def schema_types(schema, defs):
    """The JSON types `schema` accepts, or None when it accepts any value."""
    if "$ref" in schema:
        return schema_types(defs[schema["$ref"].rsplit("/", 1)[1]], defs)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        return set(types) | ({"integer"} if "number" in types else set())
    for key in ("oneOf", "anyOf"):
        if key in schema:
            parts = [schema_types(part, defs) for part in schema[key]]
            return None if None in parts else set().union(*parts)
    return None


def wrong_value(schema, defs):
    """A value of a JSON type `schema` does not accept, or None when it accepts any."""
    types = schema_types(schema, defs)
    if types is None:
        return None
    return next(value for type_, value in VALUES_BY_TYPE if type_ not in types)


def names_property(reason, name):
    """Whether `reason` names the top-level property `name` (as the head of a path)."""
    return re.search(rf"(?<![\w.\[]){re.escape(name)}(?=[ :.\[])", reason) is not None


def refusal(connection, service, body):
    """Why the worker refused `body`, or None when it did not: an Error frame's description, a
    Result RESULT_OPERATION_FAILED's error_message, or a reply's `success` false and message."""
    try:
        reply = connection.request(service, body, timeout=REPLY_TIMEOUT)
    except framing.NodeError as error:
        return str(error)
    message = reply.message
    result = message.get("result")
    if isinstance(result, dict) and result.get("result") == RESULT_OPERATION_FAILED:
        return result.get("error_message", "")
    if message.get("success") is False:
        return str(message.get("message") or message.get("description") or "")
    return None


def schema_problems(connection, service, entry, defs):
    """Problems of one service's printed request schema against what the service decodes."""
    problems = []
    request = entry["request"]
    if "$ref" in request:
        request = defs[request["$ref"].rsplit("/", 1)[1]]
    for name, schema in request.get("properties", {}).items():
        value = wrong_value(schema, defs)
        if value is None:
            continue
        body = {name: value}
        reason = refusal(connection, service, body)
        if reason is None:
            problems.append(f"{service} {json.dumps(body)}: accepted, but the schema says "
                            f"{json.dumps(schema)[:80]}")
        elif "unknown field" in reason or not names_property(reason, name):
            problems.append(f"{service} {json.dumps(body)}: refused as {reason!r}, not as a bad "
                            f"value of `{name}`")
    reason = refusal(connection, service, {UNKNOWN_KEY: 1})
    if reason is None or "unknown field" not in reason or UNKNOWN_KEY not in reason:
        problems.append(f"{service} {{\"{UNKNOWN_KEY}\": 1}}: not refused as an unknown field "
                        f"({reason!r})")
    return problems


def observed(connection):
    """What a service acting on a request would change: the state, the time, the entities."""
    state = connection.request("GetSimulationState", {}, timeout=REPLY_TIMEOUT).message
    clock = connection.request("GetSimulationTime", {}, timeout=REPLY_TIMEOUT).message
    entities = connection.request("GetEntities", {}, timeout=REPLY_TIMEOUT).message
    return {"state": state["state"]["state"], "steps": clock.get("steps"),
            "entities": entities["entities"]}


def print_service_schemas():
    done = subprocess.run([str(BIN / "asg-worker"), "--print-service-schemas"],
                          capture_output=True, text=True, timeout=START_TIMEOUT)
    if done.returncode != 0:
        raise AssertionError(f"asg-worker --print-service-schemas exited {done.returncode}: "
                             f"{done.stderr}")
    return json.loads(done.stdout)


class RequestSchemasTest(unittest.TestCase):
    def test_each_printed_request_schema_is_the_one_its_service_decodes(self):
        self.assertIsNotNone(BIN, "usage: interactive_doc_test.py BUILD_BIN_DIR REPOSITORY_ROOT")
        schemas = print_service_schemas()
        defs = schemas["$defs"]
        order = sorted(schemas["services"], key=lambda name: (name == LAST, name))
        worker = ServedWorker()
        try:
            connection = framing.Connection.connect(
                worker.address, REPLY_TIMEOUT, lambda frame: None, lambda reason: None)
            try:
                connection.request("LoadScenario", {"request": SCENARIO}, timeout=START_TIMEOUT)
                before = observed(connection)
                self.assertEqual(before["state"], STATE_PAUSED, before)
                problems = []
                for service in order:
                    if service == LAST:
                        self.assertEqual(observed(connection), before,
                                         "a refused request changed the simulation")
                    problems += schema_problems(connection, service,
                                                schemas["services"][service], defs)
                self.assertEqual(observed(connection)["state"], STATE_PAUSED)
                connection.request("SetSimulationState", {"state": {"state": STATE_QUITTING}},
                                   timeout=REPLY_TIMEOUT)
            finally:
                connection.close("done")
            self.assertEqual(worker.wait(EXIT_TIMEOUT), 0, "asg-worker did not exit 0 after "
                             "STATE_QUITTING")
        finally:
            worker.kill()
        self.assertFalse(problems, "\n".join(problems))


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
