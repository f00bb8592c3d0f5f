#!/usr/bin/env python3
"""Every file, column and key the docs name exists in a real run's outputs.

Real runs into a temporary folder: the README's example batch (variants, a failure and its
reproduction runs), configs/batches/mixed.json with --allow-invalid (an invalid scenario), one
scenario with every capture view and a regret setting, a small map-elites search, a replay with
captures of the first batch, `asg-client failures` over it, one scenario of the stack demo driven
by the example stack node, and an interactive session played over one scenario folder. Then, in
README.md and the docs below:

- each section `### \\`FILE\\`` of docs/batch-reference.md's "Output files": every key of its table
  (`a.b`, `a[].b` for nested ones) is a column of the real FILE, a tag of it, or a key path of it;
- every path in DIR a doc names (`DIR/scenario_NNNN/...`) is a file or folder of a run;
- every file a doc names (a backticked `name.csv`, `.json`, `.jsonl`, `.html`, `.png`, `.txt`,
  `.xml`, or a `DIR/...` path) is a file of the outputs;
- every backticked name in a paragraph that names an output file is a key or column of some
  output file, or a key of the batch file or the vehicle-node frames (the schemas).

What no run here writes is listed below with the reason; anything else the docs name must exist.

Usage: docs_outputs_test.py BIN_DIR REPOSITORY_ROOT
"""
import csv
import json
import pathlib
import re
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ElementTree

BIN = pathlib.Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else None
ROOT = pathlib.Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else None

DOCS = ["README.md", "docs/batch-reference.md", "docs/failures.md", "docs/regret.md",
        "docs/search-strategies.md", "docs/generator-protocol.md", "docs/interactive.md",
        "docs/vehicle-nodes.md"]

# Files the docs name that are no output of these runs: name -> why.
NOT_WRITTEN_HERE = {
    "actors.json": "the actor catalog, an input (configs/actors.json)",
    "batch.json": "a batch file, an input",
    "batch.schema.json": "the schema saved by the user from `asg-client schema`",
    "settings.json": "VS Code's settings, an input",
    "my-batch.json": "the README's batch file, an input",
    "demo.json": "a shipped batch, an input",
    "search_hill.json": "a shipped batch, an input",
    "search_demo.json": "a shipped batch, an input",
    "stack_demo.json": "a shipped batch, an input",
    "mixed.json": "a shipped batch, an input",
    "_45.png": "the suffix of the 60-degree capture named before it (its 45-degree twin)",
    "report_index.png": "a screenshot in docs/gallery/",
    "report_scenario.png": "a screenshot in docs/gallery/",
    "run.txt": "an example of a file a vehicle node uploads",
    "generation_experiment.json": "a file of docs/: the measured experiment",
}

# Paths in DIR that the docs name and no run leaves: path -> why.
NOT_LEFT_IN_DIR = {
    ".nodes": "early node uploads are staged there and moved into the scenario folder",
    "<name>.png": "asg-ctl's --out folder (CaptureScene), not a batch folder",
    "<name>.bin": "asg-ctl's --out folder (SampleSensorsCommand_ID), not a batch folder",
}

# Keys of batch-reference.md's output tables that these runs do not write: (file, key) -> why.
CONDITIONAL_KEYS = {
    ("result.json", "capture_error"): "only when a capture fails",
    ("result.json", "reruns[].attempt"): "only when a vehicle node asks for a rerun",
    ("result.json", "reruns[].node_name"): "only when a vehicle node asks for a rerun",
    ("result.json", "reruns[].reason"): "only when a vehicle node asks for a rerun",
    ("result.json", "reason_for_rerun"): "only when a vehicle node asks for a rerun",
    ("results.junit.xml", "error"): "only for a scenario that failed (no result within "
                                    "max_attempts: a worker crashed or hung each time)",
}

# Backticked names beside an output file's name that are values or names of something else:
# name -> why.
NOT_KEYS = {
    **dict.fromkeys(["true", "false", "null", "none"], "JSON values"),
    **dict.fromkeys(["collision", "flip", "stuck", "out_of_bounds", "timeout", "high_regret",
                     "contact"], "failure kinds: values of failures.csv's kind"),
    **dict.fromkeys(["done", "failed", "invalid", "interactive"],
                    "scenario statuses and attempt outcomes: values"),
    **dict.fromkeys(["run", "replay", "check", "failures", "report"], "asg-client commands"),
    **dict.fromkeys(["analysis", "description", "entities", "folder", "note", "request", "state",
                     "success"],
                    "keys of the interactive services' requests and replies (docs/interactive.md)"),
    **dict.fromkeys(["a_fast", "b_slow"], "node names of an example"),
    "capture_error": "written to result.json only when a capture fails",
    "landscape_min": "a bound of the landscape grid in a formula, not a key",
}

# Report pages, and the files whose data they show (a paragraph about a page names their keys).
PAGES = {"failures.html": ["failures.json"], "index.html": ["summary.json", "result.json"]}

FILE = re.compile(r"^(?:[\w<>/.-]*/)?([\w<>.-]+\.(?:csv|json|jsonl|html|png|pgm|txt|xml))$")
DIR_PATH = re.compile(r"\b(?:NEW_)?DIR/([\w<>./-]+)")
NAME = re.compile(r"[a-z][a-z0-9_]*(?:(?:\.|\[\]\.)[a-z0-9_]+)*")


def wait_for(condition, what, seconds=30.0):
    """Polls `condition` until it returns a true value; fails naming `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds} s")


def read(path):
    return path.read_text() if path.exists() else ""


def client(arguments, **kwargs):
    return subprocess.run([str(BIN / "asg-client")] + [str(a) for a in arguments],
                          capture_output=True, text=True, timeout=120, **kwargs)


def readme_batch():
    text = (ROOT / "README.md").read_text()
    return json.loads(re.search(r"<!-- example: my-batch\.json -->\n```json\n(.*?)```", text,
                                flags=re.S).group(1))


def make_runs(folder):
    """Runs the batches into `folder`/out/*; returns their folders."""
    out = folder / "out"
    batch = readme_batch()
    (folder / "my-batch.json").write_text(json.dumps(batch))
    client(["run", folder / "my-batch.json", "--out", out / "batch", "--workers", "2", "-q"])
    # A run resumed with nothing left to do: summary.json's resumed_run.
    client(["run", folder / "my-batch.json", "--out", out / "batch", "--resume", "-q"])
    # The mixed batch with its recordings: DIR/scenario_NNNN/run.mcap.
    mixed = json.loads((ROOT / "configs/batches/mixed.json").read_text())
    mixed["record"] = {"mcap": True}
    (folder / "mixed.json").write_text(json.dumps(mixed))
    client(["run", folder / "mixed.json", "--out", out / "mixed", "--workers", "2", "-q",
            "--allow-invalid"])
    views = {"image_size": 32, "draw_annotations": True, "aerial_padding": [5],
             "ortho_aerial": True, "perspective_aerial": True, "front_aerial": True,
             "left_front_aerial": True, "left_aerial": True, "left_rear_aerial": True,
             "rear_aerial": True, "right_rear_aerial": True, "right_aerial": True,
             "right_front_aerial": True, "vehicle_start_pov": True,
             "vehicle_start_rear_aerial": True}
    captures = {"name": "captures", "defaults": batch["defaults"],
                "regret": {"failure_time": "end_of_run"},
                "scenarios": [{"take_scene_capture": True, "scene_capture_only": True,
                               "scene_capture_settings": views}]}
    (folder / "captures.json").write_text(json.dumps(captures))
    client(["run", folder / "captures.json", "--out", out / "captures", "--workers", "1", "-q"])
    search = json.loads((ROOT / "configs/batches/search_demo.json").read_text())
    search["search"]["strategy"] = "map-elites"
    search["search"]["budget"]["scenarios"] = 20
    search["search"]["generation_size"] = 10
    (folder / "search.json").write_text(json.dumps(search))
    client(["run", folder / "search.json", "--out", out / "search", "--workers", "2", "-q"])
    client(["replay", out / "batch", "--top", "2", "--runs", "2", "--captures", "--out",
            out / "replay", "--workers", "2", "-q"])
    client(["failures", out / "batch"])
    run_stack_node(folder, out / "stack")
    play_interactively(folder, out / "batch" / "scenario_0001_planner")
    return [out / name for name in ("batch", "mixed", "captures", "search", "replay", "stack")]


def run_stack_node(folder, out):
    """One scenario of configs/batches/stack_demo.json driven by the example stack node, which
    uploads its files into the scenario folder's nodes/stack/."""
    batch = json.loads((ROOT / "configs/batches/stack_demo.json").read_text())
    batch["generate"]["count"] = 1
    (folder / "stack.json").write_text(json.dumps(batch))
    with open(folder / "stack.txt", "w") as log:
        run = subprocess.Popen([str(BIN / "asg-client"), "run", str(folder / "stack.json"), "--out",
                                str(out), "--workers", "1", "--listen", "127.0.0.1:0", "-q"],
                               stdout=log, stderr=subprocess.STDOUT)
        node = None
        try:
            port = wait_for(lambda: re.search(r"listening on 127\.0\.0\.1:(\d+)",
                                              read(out / "asg_log.txt")), "the client's port")
            node = subprocess.Popen([str(BIN / "asg-node-stack"), "--connect",
                                     f"127.0.0.1:{port.group(1)}", "--worker-id", "1", "--name",
                                     "stack"], stdout=log, stderr=subprocess.STDOUT)
            run.wait(timeout=60)
        finally:
            for process in (run, node):
                if process is not None and process.poll() is None:
                    process.kill()
                    process.wait()


def play_interactively(folder, scenario):
    """An interactive session over `scenario` played to its end: its logs and result folder go
    to `scenario`/interactive/."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        endpoint = f"127.0.0.1:{probe.getsockname()[1]}"
    log_path = folder / "serve.txt"
    with open(log_path, "w") as log:
        worker = subprocess.Popen([str(BIN / "asg-worker"), "--serve", endpoint, "--open",
                                   str(scenario)], stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for(lambda: "serving" in read(log_path), "asg-worker --serve")

            def ctl(*arguments):
                """The reply of a service, or None when the call failed (asg-ctl exits 1)."""
                called = subprocess.run([str(BIN / "asg-ctl"), endpoint, *arguments],
                                        capture_output=True, text=True, timeout=30)
                return json.loads(called.stdout) if called.returncode == 0 else None

            ctl("SetSimulationPace", '{"simulation_pace": 0}')
            # A few steps, then a person moves the vehicle (result.json's interventions).
            ctl("StepSimulation", '{"steps": 20}')
            ctl("SetEntityState", '{"entity": "vehicle", "state": {"pose": {"position": '
                '{"x": 5, "y": 5, "z": 0}, "yaw_deg": 45, "snap_to_ground": true}}, '
                '"set_pose": true}')
            ctl("SetSimulationState", '{"state": {"state": 1}}')
            wait_for(lambda: (ctl("GetResult") or {}).get("available"), "the session's end")
            wait_for(lambda: (scenario / "interactive" / "diagnostic_log.jsonl").exists(),
                     "the session's files")
        finally:
            worker.terminate()
            worker.wait(timeout=30)


def add_paths(value, prefix, paths):
    """Every key path of a JSON value: "a", "a.b", "a[].b"."""
    if isinstance(value, dict):
        for key, child in value.items():
            path = f"{prefix}.{key}" if prefix else key
            paths.add(path)
            add_paths(child, path, paths)
    elif isinstance(value, list):
        for child in value:
            add_paths(child, prefix + "[]", paths)


def inventory(folders):
    """(file names, {file name: names in it}, paths relative to their batch folder) of every
    file and folder under `folders`."""
    names, keys, paths = set(), {}, set()
    for root in folders:
        for path in root.rglob("*"):
            paths.add(str(path.relative_to(root)))
            if not path.is_file():
                continue
            names.add(path.name)
            found = keys.setdefault(path.name, set())
            if path.suffix == ".csv":
                with open(path, newline="") as f:
                    found.update(next(csv.reader(f), []))
            elif path.suffix == ".json":
                add_paths(json.loads(path.read_text()), "", found)
            elif path.suffix == ".jsonl":
                for line in path.read_text().splitlines():
                    add_paths(json.loads(line), "", found)
            elif path.suffix == ".xml":
                found.update(e.tag for e in ElementTree.parse(path).getroot().iter())
                for element in ElementTree.parse(path).getroot().iter():
                    found.update(element.attrib)
    return names, keys, paths


def schema_names():
    names = set()
    for which in ("batch", "nodes"):
        schema = json.loads(client(["schema", which], check=True).stdout)
        names.update(re.findall(r'"([a-z][a-z0-9_]*)": \{', json.dumps(schema)))
    return names


def prose(text):
    """`text` without its fenced blocks."""
    return re.sub(r"```.*?```", "", text, flags=re.S)


def paragraphs(text):
    """The paragraphs of `text`'s prose, tables left out (the reference's output tables are
    checked whole, and other tables list settings or messages)."""
    lines = [line for line in prose(text).splitlines() if not line.startswith("|")]
    return re.split(r"\n\s*\n", "\n".join(lines))


def file_pattern(name):
    """A regex for a documented file name or path: NNNN (or an example's 0042) four digits,
    optionally followed by a variant, `_<variant>` optional, <x> any word."""
    pattern = re.escape(re.sub(r"scenario_(?:NNNN|\d{4})", "scenario_NNNN", name))
    pattern = pattern.replace("_<variant>", "<variant>").replace("<variant>", "(?:_[\\w-]+)?")
    pattern = pattern.replace("scenario_NNNN", r"scenario_\d{4}(?:_[a-z][\w-]*)?")
    return re.compile("^" + re.sub(r"<[^>]*>", r"[\\w.-]+", pattern) + "$")


class DocsOutputsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        folders = make_runs(pathlib.Path(cls.folder.name))
        cls.names, cls.keys, cls.paths = inventory(folders)
        cls.schema = schema_names()

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_every_key_of_the_reference_output_tables_is_written(self):
        text = (ROOT / "docs/batch-reference.md").read_text()
        outputs = text[text.index("## Output files"):]
        missing = []
        tables = 0
        for section in re.split(r"^### ", outputs, flags=re.M)[1:]:
            heading = re.match(r"`([^`]+)`", section)
            if not heading or not FILE.match(heading.group(1)):
                continue
            file_name = heading.group(1)
            self.assertIn(file_name, self.names, "no run writes it")
            written = self.keys[file_name]
            tables += 1
            for key in re.findall(r"^\|\s*`([^`]+)`\s*\|", section, flags=re.M):
                if key not in written and (file_name, key) not in CONDITIONAL_KEYS:
                    missing.append(f"{file_name}: {key}")
        written_anyway = [key for key in CONDITIONAL_KEYS if key[1] in self.keys[key[0]]]
        self.assertEqual(written_anyway, [], "listed as not written, but written")
        self.assertGreaterEqual(tables, 12)
        self.assertEqual(missing, [], "docs/batch-reference.md names what no run writes")

    def test_every_path_in_dir_the_docs_name_is_written(self):
        missing = []
        for doc in DOCS:
            for path in set(DIR_PATH.findall((ROOT / doc).read_text())):
                path = re.sub(r"(/\.\.\.|/<relative_path>)$", "", path.rstrip("/."))
                if path in NOT_LEFT_IN_DIR:
                    continue
                if not any(file_pattern(path).match(p) for p in self.paths):
                    missing.append(f"{doc}: DIR/{path}")
        self.assertEqual(sorted(missing), [], "paths in DIR that no run writes")

    def test_every_file_the_docs_name_is_written(self):
        missing = []
        for doc in DOCS:
            text = (ROOT / doc).read_text()
            named = [FILE.match(t).group(1) for t in re.findall(r"`([^`\n]+)`", prose(text))
                     if FILE.match(t)]
            named += [pathlib.PurePosixPath(p.rstrip("/.")).name for p in DIR_PATH.findall(text)]
            for name in sorted(set(named)):
                if not FILE.match(name) or name in NOT_WRITTEN_HERE:
                    continue
                if not any(file_pattern(name).match(n) for n in self.names):
                    missing.append(f"{doc}: {name}")
        self.assertEqual(missing, [], "files the docs name that no run writes")
        self.assertEqual([n for n in NOT_WRITTEN_HERE if n in self.names], [],
                         "listed as not written, but written")

    def test_every_name_beside_an_output_file_is_written(self):
        missing = []
        for doc in DOCS:
            for paragraph in paragraphs((ROOT / doc).read_text()):
                quoted = re.findall(r"`([^`]+)`", paragraph.replace("\n", " "))
                files = {FILE.match(t).group(1) for t in quoted if FILE.match(t)}
                files |= {shown for page in files & PAGES.keys() for shown in PAGES[page]}
                files = [name for name in files if self.keys.get(name)]
                if not files:
                    continue
                # The names of the files the paragraph names, and those of the batch file and
                # the vehicle-node frames (a paragraph may name settings beside an output).
                names = set().union(*(self.keys[name] for name in files))
                names |= {part for key in names for part in re.split(r"\.|\[\]\.?", key)}
                for name in quoted:
                    if FILE.match(name) or not NAME.fullmatch(name) or name in NOT_KEYS:
                        continue
                    parts = re.split(r"\.|\[\]\.", name)
                    if name in names or all(p in names or p in self.schema for p in parts):
                        continue
                    missing.append(f"{doc}: {name} (beside {', '.join(sorted(files))})")
        self.maxDiff = None
        self.assertEqual(sorted(set(missing)), [], "names beside output files that they lack")

if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
