#!/usr/bin/env python3
"""Every batch shown in README.md and docs/*.md, run to its documented outcome.

A ```json block of the docs is an example when the line before it is a marker comment:

  <!-- example: NAME.json -->   a whole batch, written to NAME.json. A console block after it
                                that shows `$ ... asg-client check NAME.json` or `run NAME.json`
                                gives the documented outcome: the test runs the same command
                                (from a temporary folder, so `--out out/x` lands there) and
                                expects every line shown, in order (the timing of the first
                                line of `run` aside, `...` standing for lines left out); without
                                one, `check` must accept the batch without a word.
  <!-- example: search section -->
                                a batch's "search" key and value, checked inside a batch with the
                                defaults of the README's batch: `check` must accept it and name
                                the section's strategy and budget.

Every other ```json block (and any other block that is a batch) must be listed in FRAGMENTS with
the reason it cannot run; so a new example is either run or explicitly left out. The shipped
batches that a command of the docs names (configs/...json) must pass `check`.

Usage: docs_examples_test.py BIN_DIR REPOSITORY_ROOT
"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import unittest

BIN = pathlib.Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else None
ROOT = pathlib.Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else None

# (file, the block's first line): why the block is not run.
FRAGMENTS = {
    ("docs/batch-reference.md", "{"):
        "VS Code settings that associate the schema with batch files, not a batch",
    ("docs/development.md", '{"name": "my-batch", "seed": 7,'):
        "the shape of a batch file, with \"...\" standing for any RunScenario field",
}

MARKER = re.compile(r"<!-- example: (.*?) -->")
BATCH_KEYS = {"scenarios", "generate", "search", "defaults"}
TIMING = re.compile(r"^(batch .* \(seed \d+\): \d+ scenarios) in [0-9.]+ s, [0-9.]+ scenarios/s$")


def documents():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def code_blocks(path):
    """(language, first line number, marker or None, body) of every fenced block of `path`."""
    lines = path.read_text().splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        match = re.match(r"^```(\w*)\s*$", lines[i])
        if not match:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        before = lines[i - 1] if i > 0 else ""
        marker = MARKER.fullmatch(before.strip())
        blocks.append((match.group(1), i + 1, marker.group(1) if marker else None,
                       "\n".join(lines[i + 1:end]) + "\n"))
        i = end + 1
    return blocks


def is_batch(body):
    try:
        value = json.loads(body)
    except ValueError:
        return False
    return isinstance(value, dict) and bool(BATCH_KEYS & set(value))


def console_after(blocks, index, name):
    """The commands on `name` and their documented output in the console blocks after block
    `index`, up to the next marked example: [(arguments, [output lines])]."""
    sessions = []
    for language, _, marker, body in blocks[index + 1:]:
        if marker is not None:
            break
        if language not in ("", "sh", "console"):
            continue
        sessions.append((None, []))  # a command's output ends with its block
        for line in body.splitlines():
            command = re.match(r"^\$ (?:\S*/)?asg-client (.*)$", line)
            if command:
                arguments = command.group(1).split()
                sessions.append((arguments, []) if name in arguments else (None, []))
            elif sessions and sessions[-1][0] is not None:
                sessions[-1][1].append(line)
    return [(arguments, output) for arguments, output in sessions if arguments is not None]


def client(arguments, folder):
    return subprocess.run([str(BIN / "asg-client")] + arguments, cwd=folder, capture_output=True,
                          text=True, timeout=120)


class DocsExamplesTest(unittest.TestCase):
    def test_every_json_block_is_an_example_or_a_listed_fragment(self):
        unclassified = []
        examples = 0
        for path in documents():
            relative = str(path.relative_to(ROOT))
            for language, line, marker, body in code_blocks(path):
                if marker is not None:
                    examples += 1
                    continue
                if language != "json" and not is_batch(body):
                    continue
                if (relative, body.splitlines()[0]) not in FRAGMENTS:
                    unclassified.append(f"{relative}:{line}")
        self.assertEqual(unclassified, [], "a JSON block neither marked as an example nor in "
                                           "FRAGMENTS")
        self.assertGreaterEqual(examples, 4)

    def test_every_listed_fragment_is_still_there(self):
        found = set()
        for path in documents():
            for _, _, _, body in code_blocks(path):
                found.add((str(path.relative_to(ROOT)), body.splitlines()[0]))
        self.assertEqual([key for key in FRAGMENTS if key not in found], [])

    def expect_shown(self, shown, printed, where):
        """Every line of `shown` in `printed`, in order; `...` lines skip, a run's first line is
        compared without its timing."""
        actual = printed.splitlines()
        at = 0
        for line in shown:
            if line.strip() in ("...", ""):
                continue
            timing = TIMING.match(line)
            for k in range(at, len(actual)):
                if (timing and actual[k].startswith(timing.group(1) + " in ")) or \
                        actual[k].rstrip() == line.rstrip():
                    at = k + 1
                    break
            else:
                self.fail(f"{where}: documented line not printed (in this order): {line!r}\n"
                          f"printed:\n{printed}")

    def run_batch_example(self, relative, blocks, index, name):
        body = blocks[index][3]
        with tempfile.TemporaryDirectory() as folder:
            (pathlib.Path(folder) / name).write_text(body)
            sessions = console_after(blocks, index, name)
            if not any(arguments[0] == "check" for arguments, _ in sessions):
                checked = client(["check", name], folder)
                self.assertEqual((checked.returncode, checked.stdout),
                                 (0, checked.stdout.splitlines()[-1] + "\n"),
                                 f"{relative}: {name}")
            for arguments, shown in sessions:
                ran = client(arguments, folder)
                where = f"{relative}: asg-client {' '.join(arguments)}"
                self.assertIn(ran.returncode, (0, 1), f"{where}\n{ran.stdout}{ran.stderr}")
                self.expect_shown(shown, ran.stdout + ran.stderr, where)
                if arguments[0] == "check":
                    self.assertEqual(ran.stdout.splitlines(), [s for s in shown if s], where)

    def check_search_section(self, relative, body, defaults):
        section = json.loads("{" + body + "}")
        batch = {"name": "search-example", "seed": 7, "defaults": defaults}
        batch.update(section)
        with tempfile.TemporaryDirectory() as folder:
            (pathlib.Path(folder) / "search.json").write_text(json.dumps(batch))
            checked = client(["check", "search.json"], folder)
        search = section["search"]
        self.assertEqual(
            (checked.returncode, checked.stdout),
            (0, f"search.json: 0 scenarios: 0 valid, 0 invalid; and a {search['strategy']} "
                f"search of {search['budget']['scenarios']} candidates\n"), relative)

    def test_examples_run_to_their_documented_outcome(self):
        readme = code_blocks(ROOT / "README.md")
        defaults = next(json.loads(body)["defaults"] for _, _, marker, body in readme
                        if marker and marker.endswith(".json"))
        ran = []
        for path in documents():
            relative = str(path.relative_to(ROOT))
            blocks = code_blocks(path)
            for index, (_, _, marker, body) in enumerate(blocks):
                if marker is None:
                    continue
                with self.subTest(f"{relative}: {marker}"):
                    if marker == "search section":
                        self.check_search_section(relative, body, defaults)
                    else:
                        self.assertTrue(marker.endswith(".json"), f"{relative}: {marker}")
                        self.run_batch_example(relative, blocks, index, marker)
                    ran.append(relative)
        self.assertIn("README.md", ran)
        self.assertIn("docs/batch-reference.md", ran)

    def test_shipped_batches_named_by_commands_pass_check(self):
        named = set()
        for path in documents():
            named.update(re.findall(r"asg-client (?:run|check) (configs/\S+\.json)",
                                    path.read_text()))
        self.assertGreaterEqual(len(named), 2)
        for name in sorted(named):
            self.assertTrue((ROOT / name).is_file(), name)
            checked = client(["check", str(ROOT / name)], ROOT)
            self.assertEqual(checked.returncode, 0, f"{name}\n{checked.stdout}")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
