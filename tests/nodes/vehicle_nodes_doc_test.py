#!/usr/bin/env python3
"""docs/vehicle-nodes.md is complete and true.

Complete: every definition of `asg-client schema nodes` has its section (`### Name` or
`### Name: ...`) in docs/vehicle-nodes.md, or in docs/batch-reference.md for the scene and sensor
definitions shared with batch files (linked from vehicle-nodes.md), and that section's table
rows (| `key` | ...) name exactly the definition's properties; every frame type of the schema
is in the Frames table with its message, plane and direction.
True: a real run with every sensor type (tests/nodes/conformance_node.py, a node written from the
doc alone) sends, per sensor type, exactly the reading header keys that the type's section of
"## Sensor readings" documents.

Usage: vehicle_nodes_doc_test.py BUILD_BIN_DIR REPOSITORY_ROOT
"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import conformance_test  # noqa: E402  (Farm, small_batch, ALL_SENSORS)

BIN = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else None
ROOT = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
NODES_DOC = "docs/vehicle-nodes.md"
BATCH_DOC = "docs/batch-reference.md"


def sections(path, level=3, within=None):
    """{heading: [lines]} of the headings of `level` (up to the next heading of that level or
    above); with `within`, only those under the level-2 heading `within`."""
    found = {}
    current = None
    parent = None
    for line in (ROOT / path).read_text().splitlines():
        match = re.match(r"^(#{1,6}) (.*)$", line)
        if match and len(match.group(1)) <= level:
            heading = match.group(2).strip()
            if len(match.group(1)) == 2:
                parent = heading
            current = None
            if len(match.group(1)) == level and (within is None or parent == within):
                current = heading
                if current in found:
                    found[current].append(f"DUPLICATE HEADING {current}")
                found.setdefault(current, [])
            continue
        if current is not None:
            found[current].append(line)
    return found


def section_of(found, name):
    """The lines of `### name` or `### name: ...`, or None."""
    for heading, lines in found.items():
        if heading == name or heading.startswith(name + ":"):
            return lines
    return None


def table_keys(lines):
    """The backticked first cells of the table rows: | `key` | ..."""
    return [m.group(1) for m in (re.match(r"^\|\s*`([^`]+)`\s*\|", line) for line in lines) if m]


def table_rows(lines):
    """Table rows as lists of stripped cells (header and separator rows included)."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in lines if line.startswith("|")]


SCHEMA = None


def schema():
    global SCHEMA
    if SCHEMA is None:
        out = subprocess.run([str(BIN / "asg-client"), "schema", "nodes"], check=True,
                             capture_output=True, text=True)
        SCHEMA = json.loads(out.stdout)
    return SCHEMA


class SchemaDocTest(unittest.TestCase):
    def test_every_definition_has_a_section_with_every_key(self):
        nodes_sections = sections(NODES_DOC)
        batch_sections = sections(BATCH_DOC)
        nodes_text = (ROOT / NODES_DOC).read_text()
        problems = []
        definitions = schema()["$defs"]
        self.assertGreater(len(definitions), 25)
        for name, definition in definitions.items():
            places = [(NODES_DOC, section_of(nodes_sections, name)),
                      (BATCH_DOC, section_of(batch_sections, name))]
            places = [(doc, lines) for doc, lines in places if lines is not None]
            if not places:
                problems.append(f"{name}: no section '### {name}' in {NODES_DOC} or {BATCH_DOC}")
                continue
            if places[0][0] == BATCH_DOC and f"(batch-reference.md#{name.lower()})" not in \
                    nodes_text:
                problems.append(f"{name}: documented in {BATCH_DOC} but {NODES_DOC} does not link"
                                f" there")
            properties = list(definition.get("properties", {}))
            for doc, lines in places:
                documented = table_keys(lines)
                problems += [f"{doc} {name}.{key}: not documented"
                             for key in properties if key not in documented]
                problems += [f"{doc} {name}.{key}: documented, but no such property"
                             for key in documented if key not in properties]
                if len(set(documented)) != len(documented):
                    problems.append(f"{doc} {name}: a key documented twice")
                if any(line.startswith("DUPLICATE HEADING") for line in lines):
                    problems.append(f"{doc}: two sections '### {name}'")
        self.assertEqual(problems, [], "the docs are out of date with asg-client schema nodes")

    def test_every_frame_type_is_documented(self):
        text = (ROOT / NODES_DOC).read_text()
        frames = sections(NODES_DOC, level=2).get("Frames")
        self.assertIsNotNone(frames, f"{NODES_DOC}: no section '## Frames'")
        rows = {}
        for cells in table_rows(frames):
            match = re.fullmatch(r"`([A-Za-z]+)`", cells[0])
            if match:
                rows[match.group(1)] = cells
        problems = []
        types = []
        for branch in schema()["oneOf"]:
            frame = branch["properties"]["type"]["const"]
            types.append(frame)
            if f"`{frame}`" not in text:
                problems.append(f"{frame}: not in backticks anywhere in {NODES_DOC}")
            if frame not in rows:
                problems.append(f"{frame}: no row in the Frames table")
                continue
            _, plane, direction, _, message = rows[frame][:5]
            ref = branch["properties"]["message"].get("$ref", "")
            if ref and f"[{ref.rsplit('/', 1)[1]}]" not in message:
                problems.append(f"{frame}: the Frames table gives {message}, the schema {ref}")
            description = branch.get("description", "")
            if not description.startswith(plane + " plane"):
                problems.append(f"{frame}: plane {plane!r}, the schema says {description!r}")
            match = re.match(r"^\w+ planes?, (\w+) to (\w+)", description)
            if match and direction != f"{match.group(1)} → {match.group(2)}":
                problems.append(f"{frame}: direction {direction!r}, the schema says"
                                f" {description!r}")
        problems += [f"{frame}: in the Frames table, not in asg-client schema nodes"
                     for frame in rows if frame not in types]
        self.assertGreaterEqual(len(types), 20)
        self.assertEqual(problems, [])

    def test_the_error_frame(self):
        branch = [b for b in schema()["oneOf"] if b["properties"]["type"]["const"] == "Error"]
        self.assertEqual(len(branch), 1)
        lines = sections(NODES_DOC).get("Error replies")
        self.assertIsNotNone(lines, f"{NODES_DOC}: no section '### Error replies'")
        self.assertEqual(sorted(table_keys(lines)),
                         sorted(branch[0]["properties"]["message"]["properties"]))


class SensorReadingsDocTest(unittest.TestCase):
    """One real run with all five sensor types against "## Sensor readings"."""

    report = None

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory(prefix="asg_nodes_doc_")
        batch = conformance_test.small_batch(
            {"count": 1, "sensors": conformance_test.ALL_SENSORS}, scenarios=1, actors=True)
        farm = conformance_test.Farm(BIN, cls.folder.name, batch)
        try:
            farm.start_node("doc_reader")
            code, elapsed = farm.wait(60)
            node_code = farm.wait_node("doc_reader")
            if code != 0 or node_code != 0:
                raise AssertionError(f"the run failed: client {code}, node {node_code} after"
                                     f" {elapsed:.1f} s\n{farm.context()}")
            cls.report = farm.report("doc_reader")
            cls.result = farm.result(1)
        finally:
            farm.stop()

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def documented(self):
        found = sections(NODES_DOC, within="Sensor readings")
        self.assertTrue(found, f"{NODES_DOC}: no '### <type>' sections under '## Sensor readings'")
        return found

    def test_the_run_saw_every_sensor_type(self):
        self.assertEqual(self.result["status"], "done", self.result)
        self.assertEqual(sorted(self.report["reading_keys"]),
                         sorted({s["type"] for s in conformance_test.ALL_SENSORS}))
        self.assertEqual(self.report["step_problems"], [])
        self.assertGreater(len(self.report["detection_object_keys"]), 0,
                           "the tree beside the path was never detected")

    def test_every_header_key_sent_is_documented(self):
        found = self.documented()
        problems = []
        for kind, keys in self.report["reading_keys"].items():
            if kind not in found:
                problems.append(f"{kind}: no section '### {kind}' under '## Sensor readings'")
                continue
            documented = table_keys(found[kind])
            problems += [f"{kind}.{key}: sent by the worker, not documented"
                         for key in keys if key not in documented]
        self.assertEqual(problems, [])

    def test_every_documented_header_key_is_sent(self):
        found = self.documented()
        problems = []
        for kind, keys in self.report["reading_keys"].items():
            if kind in found:
                problems += [f"{kind}.{key}: documented, never sent"
                             for key in table_keys(found[kind]) if key not in keys]
        self.assertEqual(problems, [])

    def test_every_header_has_the_common_keys(self):
        # "Keys common to every header: name, type, stamp and frame_id" (and offset, size).
        for kind, keys in self.report["reading_keys"].items():
            for key in ("name", "type", "stamp", "frame_id", "offset", "size"):
                self.assertIn(key, keys, kind)

    def test_every_detection_key_is_documented(self):
        rows = [line for line in self.documented().get("detection", [])
                if line.startswith("| `detections` |")]
        self.assertEqual(len(rows), 1, "no `detections` row in '### detection'")
        missing = [key for key in self.report["detection_object_keys"]
                   if f"`{key}`" not in rows[0]]
        self.assertEqual(missing, [], "keys of a detection the doc does not name")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
