#!/usr/bin/env python3
"""docs/vehicle-nodes.md against the real farm: conformance_node.py, a vehicle node written from
the documentation alone (standard library, no SDK, no heartbeats), drives asg-client's local
worker through the documented sequences, and the tests check what the client wrote (result.json,
timing.json, the uploaded node files) and what the node saw (its --report).

  a. a full run: two scenarios, every sensor type, uploads (and a refused path), a rerun;
  b. no heartbeats from the node and Steps answered late but within step_deadline;
  c. a node that dies mid-run and is not replaced: the batch ends at vehicle_nodes.ready_timeout;
  d. one of two nodes never attaches: every run is preempted before it starts.

Usage: conformance_test.py BUILD_BIN_DIR REPOSITORY_ROOT
(vehicle_nodes_doc_test.py imports Farm, small_batch and the sensor lists from here.)
"""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = pathlib.Path(__file__).resolve().parent
NODE = HERE / "conformance_node.py"
BIN = pathlib.Path(sys.argv[1]) if __name__ == "__main__" and len(sys.argv) > 1 else None
ROOT = pathlib.Path(sys.argv[2]) if __name__ == "__main__" and len(sys.argv) > 2 else None
TREE = "/Game/Blueprints/BP_SSA_Tree_Juniper_Rocky_Mountain_Field_Desktop"

# Every sensor type, each due at every tick of the default 20 Hz control rate.
ALL_SENSORS = [
    {"type": "camera", "name": "cam", "width": 64, "height": 48, "colour": False, "depth": True,
     "segmentation": True, "rate": 20},
    {"type": "lidar", "name": "lidar", "rate": 20, "horizontal_resolution": 90,
     "vertical_angles": [-10, -5, 0, 5]},
    {"type": "occupancy_grid", "name": "grid", "rate": 20, "width": 40, "height": 40},
    {"type": "imu", "name": "imu", "rate": 20},
    {"type": "detection", "name": "detector", "rate": 20},
]
# The readings of each Step with ALL_SENSORS, as the node's report labels them, in the documented
# order: the other sensors in RunStart's order, then each camera's images (rgb8, 32FC1, mono8;
# depth and segmentation here).
ALL_READINGS = ["lidar", "grid", "imu", "detector", "cam/32FC1", "cam/mono8"]


def small_batch(vehicle_nodes, scenarios=2, max_attempts=3, actors=False, start_yaw=45.0):
    """tests/client/e2e_process.h SmallBatch: a 40 m landscape, start (8, 8), goal (32, 32),
    12 s simulation timeout; the nodes drive (the built-in driver's settings are unused)."""
    ssa = []
    if actors:  # a tree beside the path, in sensor range, for the detector and the grid
        ssa.append({"path_name": TREE, "num_instances": 1, "visible": [True],
                    "cast_shadow": [True], "x": [26.0], "y": [12.0], "yaw": [0.0],
                    "scale": [1.0]})
    defaults = {
        "sim_timeout_period": 12.0,
        "vehicle_idling_timeout_period": 3.0,
        "vehicle_stuck_timeout_period": 3.0,
        "allow_collisions": False,
        "vehicle_start_location": {"x": 8.0, "y": 8.0, "z": 0.0},
        "vehicle_start_yaw": start_yaw,
        "vehicle_goal_location": {"x": 32.0, "y": 32.0, "z": 0.0},
        "goal_radius": 4.0,
        "scene_description": {"landscape": {"nominal_size": 40.0, "subdivisions": 4},
                              "sunlight_inclination": 30.0, "sunlight_yaw_angle": 0.0,
                              "ssa_array": ssa},
        "driver": {"type": "straight", "speed": 5.0},
    }
    return {"name": "conformance", "seed": 5, "max_attempts": max_attempts,
            "scenario_timeout_s": 60.0, "defaults": defaults,
            "scenarios": [{} for _ in range(scenarios)], "vehicle_nodes": vehicle_nodes}


def tail(path, lines=40):
    try:
        return "\n".join(pathlib.Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(none)"


class Farm:
    """asg-client run BATCH --out DIR --workers 1 --listen 127.0.0.1:0 -q, and its nodes, in
    `folder`."""

    def __init__(self, bin_dir, folder, batch):
        self.folder = pathlib.Path(folder)
        self.out = self.folder / "out"
        batch_path = self.folder / "batch.json"
        batch_path.write_text(json.dumps(batch, indent=1))
        self.client_output = self.folder / "client.txt"
        self.nodes = {}
        self.started = time.monotonic()
        with open(self.client_output, "w") as output:
            self.client = subprocess.Popen(
                [str(pathlib.Path(bin_dir) / "asg-client"), "run", str(batch_path), "--out",
                 str(self.out), "--workers", "1", "--listen", "127.0.0.1:0", "-q"],
                stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.endpoint = self.listening_endpoint()

    def listening_endpoint(self, timeout=20.0):
        """127.0.0.1:PORT from DIR/asg_log.txt ("listening on 127.0.0.1:PORT")."""
        deadline = time.monotonic() + timeout
        log = self.out / "asg_log.txt"
        while time.monotonic() < deadline:
            try:
                match = re.search(r"listening on 127\.0\.0\.1:([0-9]+)", log.read_text())
            except OSError:
                match = None
            if match:
                return "127.0.0.1:" + match.group(1)
            if self.client.poll() is not None:
                break
            time.sleep(0.02)
        self.stop()
        raise AssertionError(f"the client did not say where it listens\n{self.context()}")

    def start_node(self, name, *switches, worker_id=1):
        report = self.folder / f"node_{name}.json"
        stderr = self.folder / f"node_{name}.txt"
        with open(stderr, "w") as output:
            process = subprocess.Popen(
                [sys.executable, str(NODE), "--connect", self.endpoint, "--worker-id",
                 str(worker_id), "--name", name, "--report", str(report), *switches],
                stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.nodes[name] = (process, report, stderr)
        return process

    def wait(self, timeout):
        """The client's exit code (None when it still runs after `timeout` s: it is killed) and
        the wall time since it started."""
        try:
            code = self.client.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.client.kill()
            self.client.wait()
            code = None
        return code, time.monotonic() - self.started

    def wait_node(self, name, timeout=15.0):
        """The node's exit code, None when it still runs after `timeout` s (it is killed)."""
        process = self.nodes[name][0]
        try:
            return process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            return None

    def report(self, name):
        path = self.nodes[name][1]
        if not path.exists():
            raise AssertionError(f"node {name} wrote no report\n{self.context()}")
        return json.loads(path.read_text())

    def stop(self):
        """Kills what is still running of the processes this Farm started."""
        for process in [self.client] + [node[0] for node in self.nodes.values()]:
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                process.wait()

    def context(self):
        """What the client and the nodes printed, for failure messages."""
        parts = [f"--- client:\n{tail(self.client_output)}",
                 f"--- asg_log.txt:\n{tail(self.out / 'asg_log.txt', 30)}"]
        for name, (_, _, stderr) in self.nodes.items():
            lines = [line for line in tail(stderr, 2000).splitlines()
                     if "<- Step " not in line and "<- Heartbeat" not in line]
            parts.append(f"--- node {name}:\n" + "\n".join(lines[-25:]))
        return "\n".join(parts)

    def scenario_dir(self, number):
        return self.out / f"scenario_{number:04d}"

    def result(self, number):
        return json.loads((self.scenario_dir(number) / "result.json").read_text())

    def timing(self, number):
        return json.loads((self.scenario_dir(number) / "timing.json").read_text())

    def outcomes(self, number):
        return [attempt["outcome"] for attempt in self.timing(number)["attempts"]]


class FarmTest(unittest.TestCase):
    """Runs each test's farm in a temporary folder, removed at the end unless the environment
    has ASG_KEEP_TEST_OUTPUT=1; failure messages carry what the processes printed."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="asg_conformance_")
        self.farm = None

    def tearDown(self):
        if self.farm is not None:
            self.farm.stop()
        if os.environ.get("ASG_KEEP_TEST_OUTPUT") == "1":
            print(f"\n{self.id()}: kept {self.folder}", file=sys.stderr)
        else:
            shutil.rmtree(self.folder, ignore_errors=True)

    def start(self, batch):
        self.farm = Farm(BIN, self.folder, batch)
        return self.farm

    def check(self, condition, message):
        """assertTrue with what the processes printed."""
        self.assertTrue(condition, f"{message}\n{self.farm.context()}")


class ConformanceTest(FarmTest):
    def test_a_full_run_per_the_doc(self):
        name = "conformer"
        # Started facing north (yaw 0), the goal 45 degrees to the left: the node's steering,
        # negative = left per the doc, must turn it toward the goal to succeed.
        farm = self.start(small_batch({"count": 1, "sensors": ALL_SENSORS}, scenarios=2,
                                      start_yaw=0.0))
        # One late (1.2 s, well within the default 10 s step_deadline) Step: the worker's
        # heartbeats (every 0.5 s) keep coming during a run; the node never sends any.
        farm.start_node(name, "--upload", "--rerun-once", "--slow-ticks", "2",
                        "--slow-seconds", "1.2")
        code, elapsed = farm.wait(60)
        node_code = farm.wait_node(name)
        self.check(code == 0, f"client exit code {code} after {elapsed:.1f} s")
        self.check(node_code == 0, f"node exit code {node_code}")
        report = farm.report(name)

        for number in (1, 2):
            result = farm.result(number)
            self.check(result["status"] == "done", f"scenario {number}: {result}")
            self.assertEqual(result["termination_reason_name"], "REASON_SUCCESS")
        reruns = farm.result(1)["reruns"]
        self.assertEqual(len(reruns), 1, reruns)
        self.assertEqual((reruns[0]["attempt"], reruns[0]["node_name"]), (1, name))
        self.assertEqual(reruns[0]["reason"], "conformance test: run it again")
        self.assertEqual(farm.result(2)["reruns"], [])
        self.assertEqual(farm.outcomes(1), ["rerun requested", "done"])
        self.assertEqual(farm.outcomes(2), ["done"])
        self.assertEqual([(r["scenario"], r["message"]) for r in report["reruns"]],
                         [(1, {"received": True, "accepted": True})])

        # The operating info: each scenario handed out with its absolute nodes folder.
        handed = [(info["scenario"], info["save_dir"]) for info in report["operating_info"]
                  if info["ok_to_run"]]
        self.assertEqual(sorted({n for n, _ in handed}), [1, 2], report["operating_info"])
        for number, save_dir in handed:
            self.assertEqual(pathlib.Path(save_dir), farm.scenario_dir(number).resolve() / "nodes")

        # Every NotifyReady was answered, none refused: 0, 1 (rerun), 1, 2.
        self.assertEqual([(n["scenario"], n["request_rerun"]) for n in report["notify_ready"]],
                         [(0, False), (1, True), (1, False), (2, False)])
        for entry in report["notify_ready"]:
            self.assertEqual(entry["answer"]["received"], True, entry)

        # Uploads without worker_id and node_name: the last one of each path is on disk, the
        # reply names it; "../escape.txt" is refused with an Error and written nowhere.
        uploads = report["uploads"]
        self.assertEqual(len(uploads), 6, uploads)  # 3 runs x (run_N.txt, ../escape.txt)
        for upload in uploads:
            self.check(upload["as_expected"], f"upload {upload}")
        last = {}
        for upload in uploads:
            if upload["relative_path"] != "../escape.txt":
                self.assertEqual(upload["reply"], "SaveNodeFileResponse", upload)
                self.assertEqual(upload["message"]["path"],
                                 f"scenario_{upload['scenario']:04d}/nodes/{name}/"
                                 f"{upload['relative_path']}")
                last[(upload["scenario"], upload["relative_path"])] = upload["content"]
            else:
                self.assertEqual(upload["reply"], "Error", upload)
                self.assertFalse(upload["message"]["success"])
        self.assertEqual(sorted(last), [(1, "run_1.txt"), (2, "run_2.txt")])
        for (number, path), content in last.items():
            landed = farm.scenario_dir(number) / "nodes" / name / path
            self.assertEqual(landed.read_bytes(), content.encode(), landed)
        self.assertIn("run 2:", last[(1, "run_1.txt")])  # the rerun's upload replaced the first
        self.assertEqual(list(farm.out.rglob("escape.txt")), [])

        # Heartbeats on both planes received, none sent.
        for plane in ("control", "data"):
            self.check(report["received"][plane].get("Heartbeat", 0) >= 1,
                       f"no Heartbeat received on the {plane} plane: {report['received']}")
            self.assertNotIn("Heartbeat", report["sent"][plane])

        # The data plane of three runs (scenario 1 twice, scenario 2): RunStart, VehicleStatus
        # enabled, Steps 0..k-1, VehicleStatus disabled, RunEnd with vehicle_sim_time = k ticks.
        self.assertEqual(report["received"]["data"].get("RunStart"), 3, report["received"])
        self.assertEqual([r["scenario"] for r in report["run_starts"]], [1, 1, 2])
        self.assertEqual([(s["enabled"], s["preempted"]) for s in report["vehicle_status"]],
                         [(True, False), (False, False)] * 3)
        self.assertEqual(report["preempted_runs"], [])
        self.assertEqual(report["step_problems"], [])
        for end, start in zip(report["run_ends"], report["run_starts"]):
            self.assertEqual(end["termination_reason_name"], "REASON_SUCCESS", end)
            self.assertFalse(end["preempted"], end)
            self.assertAlmostEqual(end["vehicle_sim_time"],
                                   end["steps"] * start["control_period"], places=6, msg=end)
        steps = report["steps"]
        self.assertEqual(steps, sum(report["steps_per_run"]))
        self.assertGreater(steps, 60)
        self.assertEqual(farm.result(1)["counters"]["control_messages"],
                         report["steps_per_run"][1])

        # Every sensor due at every Step (rates at the control rate), every type's header seen.
        self.assertEqual(report["readings_per_sensor"], {label: steps for label in ALL_READINGS})
        self.assertEqual(report["reading_orders"], [ALL_READINGS])
        self.assertEqual(sorted(report["reading_keys"]),
                         ["camera", "detection", "imu", "lidar", "occupancy_grid"])
        self.assertEqual([s["name"] for s in report["sensors"]],
                         [s["name"] for s in ALL_SENSORS])
        # The node's only errors: the three refused escapes.
        unexpected = [e for e in report["errors"]
                      if not (isinstance(e, dict) and e.get("request") == "SaveNodeFile")]
        self.assertEqual(unexpected, [])
        self.assertEqual(len(report["errors"]), 3, report["errors"])

        # docs/vehicle-nodes.md, Operating info: every scenario a RunStart starts is handed out
        # in an operating info too (ok_to_run true); the info is sent first, but on the other
        # connection, so the doc does not promise that it arrives first.
        handed = {i["scenario"] for i in report["operating_info"] if i["ok_to_run"]}
        self.check(all(r["scenario"] in handed for r in report["run_starts"]),
                   f"a RunStart's scenario was never handed out in an operating info: "
                   f"{report['run_starts']} {report['operating_info']}")

    def test_b_no_heartbeats_and_slow_steps(self):
        name = "slowpoke"
        # step_deadline 2.5 s; ticks 3 and 10 answered after 1.5 s (= step_deadline - 1 s) of
        # silence on both planes.
        farm = self.start(small_batch({"count": 1, "step_deadline": 2.5}, scenarios=1))
        farm.start_node(name, "--slow-ticks", "3,10", "--slow-seconds", "1.5")
        code, elapsed = farm.wait(60)
        node_code = farm.wait_node(name)
        self.check(code == 0, f"client exit code {code} after {elapsed:.1f} s")
        self.check(node_code == 0, f"node exit code {node_code}")
        result = farm.result(1)
        self.check(result["status"] == "done", f"result {result}")
        self.assertEqual(result["termination_reason_name"], "REASON_SUCCESS")
        self.assertEqual(farm.outcomes(1), ["done"])
        report = farm.report(name)
        self.assertEqual(report["preempted_runs"], [])
        self.assertNotIn("Heartbeat", report["sent"]["control"])
        self.assertNotIn("Heartbeat", report["sent"]["data"])
        self.assertGreater(report["steps"], 10)
        self.assertEqual(report["sent"]["data"]["StepResponse"], report["steps"])

    def test_c_a_node_that_dies_mid_run(self):
        name = "mortal"
        ready_timeout = 2.0
        farm = self.start(small_batch({"count": 1, "ready_timeout": ready_timeout},
                                      scenarios=2))
        farm.start_node(name, "--exit-at-tick", "5")
        code, elapsed = farm.wait(ready_timeout + 15)
        farm.wait_node(name)
        self.check(code == 1, f"client exit code {code} after {elapsed:.1f} s")
        self.check(elapsed < ready_timeout + 15, f"took {elapsed:.1f} s")
        self.assertEqual(farm.report(name)["exit"], "os._exit at tick 5")
        for number in (1, 2):
            result = farm.result(number)
            self.check(result["status"] == "failed", f"scenario {number}: {result}")
            self.assertEqual(result.get("error"), "no vehicle nodes ready within"
                             " vehicle_nodes.ready_timeout 2 s: worker 1 (0 of 1 registered)")
        attempts = farm.timing(1)["attempts"]
        self.assertEqual([a["outcome"] for a in attempts], ["preempted"], attempts)
        self.assertTrue(attempts[0]["detail"].startswith(
            f"preempted: node '{name}': connection to 127.0.0.1:"), attempts[0])
        self.assertIn("closed before the reply to reference", attempts[0]["detail"])

    def test_d_a_node_that_never_attaches(self):
        live, absent = "a_live", "b_absent"
        step_deadline = 2.0
        farm = self.start(small_batch({"count": 2, "ready_timeout": 20,
                                       "step_deadline": step_deadline},
                                      scenarios=1, max_attempts=2))
        farm.start_node(live)
        farm.start_node(absent, "--no-attach")
        code, elapsed = farm.wait(40)
        self.assertEqual(farm.wait_node(live), 0)
        self.assertEqual(farm.wait_node(absent), 0)
        self.check(code == 1, f"client exit code {code} after {elapsed:.1f} s")
        self.check(elapsed < 15, f"took {elapsed:.1f} s: waited for ready_timeout 20 s?")

        reason = "1 of 2 vehicle nodes attached within the step deadline"
        result = farm.result(1)
        self.check(result["status"] == "failed", f"result {result}")
        self.assertIn("attached within the step deadline", result["error"])
        self.assertNotIn("ready_timeout", result["error"])
        attempts = farm.timing(1)["attempts"]
        self.assertEqual([a["outcome"] for a in attempts], ["preempted", "preempted"], attempts)
        for attempt in attempts:
            self.assertEqual(attempt["detail"], "preempted: " + reason)

        # The attached node: per attempt, VehicleStatus {enabled: false, preempted: true} and
        # RunEnd {preempted: true} without a RunStart before them, answered by NotifyReady(1).
        report = farm.report(live)
        self.assertNotIn("RunStart", report["received"]["data"], report["received"])
        self.assertNotIn("Step", report["received"]["data"], report["received"])
        self.assertEqual([(s["enabled"], s["preempted"], s["after_run_start"])
                          for s in report["vehicle_status"]], [(False, True, False)] * 2)
        ends = report["run_ends"]
        self.assertEqual(len(ends), 2, ends)
        for end in ends:
            self.assertEqual((end["scenario_number"], end["preempted"], end["reason"],
                              end["after_run_start"]), (1, True, reason, False))
            self.assertEqual((end["termination_reason"], end["termination_reason_name"],
                              end["vehicle_sim_time"]), (0, "", 0))
        # NotifyReady after registering, and after each RunEnd. Whether the control plane's
        # release (ok_to_run false) or the data plane's RunEnd reaches the node first is not
        # ordered by the protocol: a release read first may also be answered at once (a second
        # NotifyReady for n is harmless), so only what the protocol promises is asserted.
        triggers = [(n["scenario"], n["trigger"]) for n in report["notify_ready"]]
        self.assertEqual(triggers[0], (0, "registered"), triggers)
        self.assertEqual(triggers.count((1, "preempted RunEnd")), 2, triggers)
        self.assertEqual(set(triggers[1:]) - {(1, "preempted RunEnd"),
                                              (1, "released without RunEnd")}, set(), triggers)
        self.assertEqual(report["uploads"], [])
        # The node that never attached saw ok_to_run fall without a run and got ready anyway.
        other = farm.report(absent)
        self.assertEqual(other["received"]["data"], {})
        self.assertEqual([(n["scenario"], n["trigger"]) for n in other["notify_ready"]],
                         [(0, "registered"), (1, "released without RunEnd"),
                          (1, "released without RunEnd")])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
