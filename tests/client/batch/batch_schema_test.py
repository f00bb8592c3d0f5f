#!/usr/bin/env python3
"""The batch file's JSON Schema and its reference, checked against the real decoders.

`asg-client schema` must be a valid draft 2020-12 schema (Python's jsonschema, Debian's
python3-jsonschema) that accepts every shipped batch and rejects what `asg-client check`
rejects; docs/batch-reference.md must document every key of every schema definition, every
column and key of the files a real run writes, and its example batches must pass both.

Usage: batch_schema_test.py ASG_CLIENT REPOSITORY_ROOT
"""
import copy
import csv
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

import jsonschema

CLIENT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else None
ROOT = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
REFERENCE = "docs/batch-reference.md"


def load_schema():
    out = subprocess.run([str(CLIENT), "schema"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


SCHEMA = None


def schema():
    global SCHEMA
    if SCHEMA is None:
        SCHEMA = load_schema()
    return SCHEMA


def validator():
    return jsonschema.Draft202012Validator(schema())


def check_exit(batch, folder):
    """asg-client check's exit code and output for `batch` written into `folder`."""
    path = pathlib.Path(folder) / "batch.json"
    path.write_text(json.dumps(batch))
    run = subprocess.run([str(CLIENT), "check", str(path)], capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


def reference_sections():
    """{heading text: [lines]} of the reference, split at headings of levels 1-3."""
    sections = {}
    current = None
    for line in (ROOT / REFERENCE).read_text().splitlines():
        match = re.match(r"^(#{1,3}) (.*)$", line)
        if match:
            current = match.group(2).strip()
            sections.setdefault(current, [])
            continue
        if current is not None:
            sections[current].append(line)
    return sections


def table_keys(lines):
    """The backticked first cells of the section's table rows: | `key` | ..."""
    keys = []
    for line in lines:
        match = re.match(r"^\|\s*`([^`]+)`\s*\|", line)
        if match:
            keys.append(match.group(1))
    return keys


def section_of(sections, name):
    """The lines of the section whose heading is `name`, or `name: ...`, or None."""
    for heading, lines in sections.items():
        if heading == name or heading.startswith(name + ":") or heading.startswith(name + " "):
            if heading.startswith(name + ":") and name.startswith("StrategySettings"):
                # "StrategySettings:bacre" must not match "StrategySettings:bacre-novelty".
                rest = heading[len(name):]
                if not (rest == "" or rest.startswith(": ")):
                    continue
            return lines
    return None


def json_blocks(text):
    return re.findall(r"```json\n(.*?)```", text, flags=re.S)


# Batches the decoder rejects (asg-client check exits 2), each with what makes it invalid.
class Cases(dict):
    """Named copies of a batch, each changed by an edit function."""

    def __init__(self, batch):
        super().__init__()
        self.batch = batch

    def __call__(self, name, edit):
        changed = copy.deepcopy(self.batch)
        edit(changed)
        self[name] = changed


def rejected_batches(demo):
    case = Cases(demo)
    case("typo in defaults", lambda b: b["defaults"].update({"goal_radious": 5}))
    case("unknown top-level key", lambda b: b.update({"scenario": []}))
    case("image_size past 4096", lambda b: b["defaults"].setdefault(
        "scene_capture_settings", {}).update({"image_size": 100000}))
    case("negative goal_radius type", lambda b: b["defaults"].update({"goal_radius": "five"}))
    case("a field of another driver type", lambda b: b["defaults"].update(
        {"driver": {"type": "straight", "sensor_range": 30}}))
    case("unknown driver type", lambda b: b["defaults"].update({"driver": {"type": "teleport"}}))
    case("scenario number 0", lambda b: b.update({"scenarios": [{"scenario_number": 0}]}))
    case("seed in defaults", lambda b: b["defaults"].update({"seed": 3}))
    case("variants and search", lambda b: b.update({
        "variants": [{"name": "a"}],
        "search": {"strategy": "random", "budget": {"scenarios": 5},
                   "space": {"classes": [{"path_name": "tree"}]}}}))
    case("variant without a name", lambda b: b.update({"variants": [{"driver": {"type": "idle"}}]}))
    case("variant name with a space", lambda b: b.update({"variants": [{"name": "a b"}]}))
    case("generate actor without x", lambda b: b.update(
        {"generate": {"count": 2, "actors": [{"path_name": "tree", "count": 1, "y": [5, 10]}]}}))
    case("generate range of three numbers", lambda b: b.update(
        {"generate": {"count": 2, "goal_radius": [1, 2, 3]}}))
    case("strategy setting of another strategy", lambda b: b.update({"search": {
        "strategy": "random", "strategy_settings": {"curation_ratio": 0.1},
        "budget": {"scenarios": 5}, "space": {"classes": [{"path_name": "tree"}]}}}))
    case("relief feature missing its radius", lambda b: b["defaults"].setdefault(
        "scene_description", {}).setdefault("landscape", {}).update(
            {"relief": [{"type": "hill", "x": 30, "y": 30, "height": 2}]}))
    case("sensor without a name", lambda b: b.update({"vehicle_nodes": {
        "sensors": [{"type": "imu"}]}}))
    case("max_attempts 0", lambda b: b.update({"max_attempts": 0}))
    case("seed of a scenario a string", lambda b: b.update({"scenarios": [{"seed": "x"}]}))
    case("$schema a number", lambda b: b.update({"$schema": 3}))
    case("vehicle mass -1", lambda b: b["defaults"].update({"vehicle": {"mass": -1}}))
    case("max_steering_angle 90", lambda b: b["defaults"].update(
        {"vehicle": {"max_steering_angle": 90}}))
    case("planner sensor_range 0", lambda b: b["defaults"].update(
        {"driver": {"type": "planner", "sensor_range": 0}}))
    case("planner sensor_fov 400", lambda b: b["defaults"].update(
        {"driver": {"sensor_fov": 400}}))
    case("goal_radius -1", lambda b: b["defaults"].update({"goal_radius": -1}))
    case("unknown regret failure_time", lambda b: b.update(
        {"regret": {"failure_time": "end"}}))
    case("unknown key in regret", lambda b: b.update({"regret": {"failure": "end_of_run"}}))
    case("regret failure_time of a request a number", lambda b: b["defaults"].update(
        {"regret": {"failure_time": 1}}))
    case("octaves past 12", lambda b: b["defaults"].setdefault(
        "scene_description", {}).setdefault("landscape", {}).update(
            {"relief": [{"type": "noise", "amplitude": 1, "wavelength": 10, "octaves": 13}]}))
    return case


# Batches both accept: every kind of section and tagged object.
def accepted_batches(demo):
    case = Cases(demo)
    case("variants", lambda b: b.update({"variants": [
        {"name": "planner"}, {"name": "straight", "driver": {"type": "straight", "speed": 3}}]}))
    case("scripted driver", lambda b: b["defaults"].update({"driver": {
        "type": "scripted", "commands": [{"t": 0, "longitudinal_velocity": 2},
                                         {"t": 3, "steering_angle": 10, "handbrake": False}]}}))
    case("relief", lambda b: b["defaults"].setdefault("scene_description", {}).setdefault(
        "landscape", {}).update({"relief": [
            {"type": "hill", "x": 30, "y": 30, "radius": 8, "height": 2},
            {"type": "ramp", "height": 1, "x0": 10, "y0": 10, "x1": 20, "y1": 10, "width": 4},
            {"type": "noise", "amplitude": 0.3, "wavelength": 12, "octaves": 3, "seed": 7}]}))
    case("sensors", lambda b: b.update({"vehicle_nodes": {"count": 0, "max_reruns": 2, "sensors": [
        {"type": "camera", "name": "front", "width": 64, "height": 48,
         "mount": {"offset": {"x": 1, "y": 0, "z": 1.5}, "pitch": -5}},
        {"type": "lidar", "name": "roof", "vertical_angles": [-5, 0, 5]},
        {"type": "imu", "name": "imu", "seed": 4}]}}))
    case("generate", lambda b: b.update({"generate": {
        "count": 3, "actors": [{"path_name": "tree", "count": [1, 3], "x": [10, 50],
                                "y": [10, 50], "yaw": [0, 360]}],
        "goal": {"x": [50, 55]}, "sim_timeout_period": 60}}))
    case("search", lambda b: b.update({"search": {
        "strategy": "bacre", "strategy_settings": {"curation_ratio": 0.1, "seed_count": 4},
        "budget": {"scenarios": 8}, "generation_size": 4,
        "space": {"classes": [{"path_name": "tree", "max_count": 3}]}}}))
    case("regret", lambda b: b.update({"regret": {"failure_time": "end_of_run"}, "variants": [
        {"name": "moment", "regret": {"failure_time": "failure_moment"}}, {"name": "end"}]}))
    case("$schema for editors", lambda b: b.update({"$schema": "./batch.schema.json"}))
    case("vehicle and simulation", lambda b: b["defaults"].update({
        "vehicle": {"mass": 900, "max_speed": 8}, "simulation": {"physics_rate": 120,
                                                                 "control_rate": 20}}))
    return case


class SchemaTest(unittest.TestCase):
    def test_is_a_valid_draft_2020_12_schema(self):
        self.assertEqual(schema()["$schema"], "https://json-schema.org/draft/2020-12/schema")
        jsonschema.Draft202012Validator.check_schema(schema())

    def test_every_reference_resolves(self):
        defs = schema()["$defs"]
        refs = re.findall(r'"\$ref": "#/\$defs/([^"]+)"', json.dumps(schema()))
        self.assertGreater(len(refs), 20)
        for name in refs:
            self.assertIn(name, defs)

    def test_validates_the_shipped_batches(self):
        files = sorted((ROOT / "configs" / "batches").glob("*.json")) + [ROOT / "configs/demo.json"]
        self.assertGreaterEqual(len(files), 5)
        for path in files:
            errors = [e.message for e in validator().iter_errors(json.loads(path.read_text()))]
            self.assertEqual(errors, [], path)

    def test_rejects_what_check_rejects(self):
        demo = json.loads((ROOT / "configs/demo.json").read_text())
        with tempfile.TemporaryDirectory() as folder:
            for name, batch in rejected_batches(demo).items():
                code, output = check_exit(batch, folder)
                self.assertEqual(code, 2, f"{name}: asg-client check accepted it\n{output}")
                self.assertFalse(validator().is_valid(batch), f"{name}: the schema accepted it")

    def test_accepts_what_check_accepts(self):
        demo = json.loads((ROOT / "configs/demo.json").read_text())
        with tempfile.TemporaryDirectory() as folder:
            for name, batch in accepted_batches(demo).items():
                code, output = check_exit(batch, folder)
                self.assertEqual(code, 0, f"{name}: asg-client check refused it\n{output}")
                errors = [f"{list(e.absolute_path)}: {e.message}"
                          for e in validator().iter_errors(batch)]
                self.assertEqual(errors, [], name)


class ReferenceTest(unittest.TestCase):
    def test_documents_every_key_of_every_definition(self):
        sections = reference_sections()
        problems = []
        for name, definition in schema()["$defs"].items():
            lines = section_of(sections, name)
            if lines is None:
                problems.append(f"{name}: no section '### {name}'")
                continue
            documented = table_keys(lines)
            properties = list(definition.get("properties", {}))
            for key in properties:
                if key not in documented:
                    problems.append(f"{name}.{key}: not documented")
            for key in documented:
                if key not in properties:
                    problems.append(f"{name}.{key}: documented, but no such key")
            if len(set(documented)) != len(documented):
                problems.append(f"{name}: a key documented twice")
        self.assertEqual(problems, [], f"{REFERENCE} is out of date")

    def test_examples_are_valid_batches(self):
        examples = 0
        with tempfile.TemporaryDirectory() as folder:
            for block in json_blocks((ROOT / REFERENCE).read_text()):
                batch = json.loads(block)
                if not isinstance(batch, dict) or not {"scenarios", "generate",
                                                       "search"} & set(batch):
                    continue
                examples += 1
                errors = [e.message for e in validator().iter_errors(batch)]
                self.assertEqual(errors, [], block)
                code, output = check_exit(batch, folder)
                self.assertEqual(code, 0, output)
        self.assertGreaterEqual(examples, 1)

    def test_documents_every_output_column_and_key(self):
        sections = reference_sections()

        def documented(file_name):
            lines = sections.get(f"`{file_name}`")
            self.assertIsNotNone(lines, f"no section '### `{file_name}`'")
            return table_keys(lines)

        def check(file_name, keys):
            rows = documented(file_name)
            missing = [k for k in keys
                       if not any(r == k or r.startswith(k + ".") or r.startswith(k + "[")
                                  for r in rows)]
            self.assertEqual(missing, [], f"{REFERENCE}: {file_name}")

        with tempfile.TemporaryDirectory() as folder:
            out = pathlib.Path(folder) / "out"
            subprocess.run([str(CLIENT), "run", str(ROOT / "configs/demo.json"), "--out",
                            str(out), "--workers", "2", "-q"], check=True, capture_output=True)
            search = pathlib.Path(folder) / "search"
            batch = json.loads((ROOT / "configs/batches/search_demo.json").read_text())
            batch["search"]["strategy"] = "map-elites"  # search.csv and archive.csv
            batch["search"]["budget"]["scenarios"] = 20
            batch["search"]["generation_size"] = 10
            (pathlib.Path(folder) / "search.json").write_text(json.dumps(batch))
            subprocess.run([str(CLIENT), "run", str(pathlib.Path(folder) / "search.json"),
                            "--out", str(search), "--workers", "2", "-q"], check=True,
                           capture_output=True)
            with open(out / "summary.csv", newline="") as f:
                check("summary.csv", next(csv.reader(f)))
            with open(out / "scenario_0001" / "trajectory.csv", newline="") as f:
                check("trajectory.csv", next(csv.reader(f)))
            with open(search / "search.csv", newline="") as f:
                check("search.csv", next(csv.reader(f)))
            with open(search / "archive.csv", newline="") as f:
                check("archive.csv", next(csv.reader(f)))
            with open(out / "failures.csv", newline="") as f:
                check("failures.csv", next(csv.reader(f)))
            check("failures.json", list(json.loads((out / "failures.json").read_text())))
            for name in ("result.json", "timing.json", "request.json"):
                check(name, list(json.loads((out / "scenario_0001" / name).read_text())))
            for name in ("summary.json", "batch_identity.json"):
                check(name, list(json.loads((out / name).read_text())))
            check("search.json", list(json.loads((search / "search.json").read_text())))
            tags = {element.tag for element in
                    ElementTree.parse(out / "results.junit.xml").getroot().iter()}
            check("results.junit.xml", sorted(tags))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
