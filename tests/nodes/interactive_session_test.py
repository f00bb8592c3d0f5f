#!/usr/bin/env python3
"""nodes/python/examples/interactive_session.py against the real interactive worker.

A scenario folder is made with `asg-worker --run-scenario` (a small request: a 40 m landscape,
the straight driver from (8, 8) to (32, 32), one orthographic capture); `asg-worker --serve
127.0.0.1:0 --open` holds it, and the example drives it through its session: it must exit 0 and
print the termination reason of the result the worker wrote. Also: the session run again with
--open (LoadScenario), a wrong and a right token, an unreachable worker (exit 3), --help.

Usage: interactive_session_test.py BUILD_BIN_DIR REPOSITORY_ROOT
"""
import json
import os
import pathlib
import re
import select
import socket
import subprocess
import sys
import tempfile
import time
import unittest

BIN = pathlib.Path(sys.argv[1]) if __name__ == "__main__" and len(sys.argv) > 1 else None
ROOT = pathlib.Path(sys.argv[2]) if __name__ == "__main__" and len(sys.argv) > 2 else None
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

CAPTURE_SETTINGS = {
    "image_size": 64, "draw_annotations": False, "goal_sphere_thickness": 0.5,
    "goal_sphere_color": {"r": 1.0, "g": 0.0, "b": 0.0, "a": 1.0}, "ortho_aerial": True,
    "perspective_aerial": False, "aerial_padding": [5], "front_aerial": False,
    "left_front_aerial": False, "left_aerial": False, "left_rear_aerial": False,
    "rear_aerial": False, "right_rear_aerial": False, "right_aerial": False,
    "right_front_aerial": False, "vehicle_start_pov": False, "vehicle_start_rear_aerial": False,
}
# tests/worker/small_request.h's scenario, number 3, with a capture.
SMALL_REQUEST = {
    "scenario_number": 3, "seed": 11, "sim_timeout_period": 12.0,
    "vehicle_idling_timeout_period": 3.0, "vehicle_stuck_timeout_period": 3.0,
    "max_vehicle_roll": 70.0, "max_vehicle_pitch": 70.0, "allow_collisions": False,
    "vehicle_start_location": {"x": 8.0, "y": 8.0, "z": 0.0}, "vehicle_start_yaw": 45.0,
    "vehicle_goal_location": {"x": 32.0, "y": 32.0, "z": 0.0}, "goal_radius": 4.0,
    "scene_description": {"landscape": {"nominal_size": 40.0, "subdivisions": 4},
                          "sunlight_inclination": 30.0, "sunlight_yaw_angle": 0.0,
                          "ssa_array": []},
    "driver": {"type": "straight", "speed": 5.0}, "take_scene_capture": True,
    "scene_capture_only": False, "scene_capture_settings": CAPTURE_SETTINGS,
}


class ServedWorker:
    """`asg-worker --serve 127.0.0.1:0 [extra...]` until stop(); address is its HOST:PORT."""

    def __init__(self, extra, env=None):
        self.process = subprocess.Popen(
            [str(BIN / "asg-worker"), "--serve", "127.0.0.1:0"] + extra,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        self.address = None
        printed = b""
        deadline = time.monotonic() + 20.0
        while time.monotonic() < deadline and self.address is None:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                if not chunk:
                    break
                printed += chunk
                match = re.search(rb"serving ([0-9.]+:[0-9]+)", printed)
                if match:
                    self.address = match.group(1).decode()
        if self.address is None:
            self.stop()
            raise AssertionError(f"the worker did not start serving: {printed.decode()}")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()


def run_example(*args, env=None):
    """Runs the example; returns (exit code, stdout, stderr)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "nodes/python/examples/interactive_session.py"), *args],
        capture_output=True, text=True, timeout=90, env=env)
    return done.returncode, done.stdout, done.stderr


def environment(**values):
    """This process's environment without ASG_TOKEN, plus values."""
    env = {k: v for k, v in os.environ.items() if k != "ASG_TOKEN"}
    env.update(values)
    return env


class InteractiveSessionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if BIN is None or ROOT is None:
            raise unittest.SkipTest("usage: interactive_session_test.py BUILD_BIN_DIR ROOT")
        cls.temp = tempfile.TemporaryDirectory(prefix="asg_interactive_session_")
        cls.dir = pathlib.Path(cls.temp.name)
        request = cls.dir / "request.json"
        request.write_text(json.dumps(SMALL_REQUEST))
        made = subprocess.run(
            [str(BIN / "asg-worker"), "--run-scenario", str(request), "--out",
             str(cls.dir / "farm")], capture_output=True, text=True, timeout=60)
        if made.returncode != 0:
            raise AssertionError(f"--run-scenario failed: {made.stdout}{made.stderr}")
        cls.folder = cls.dir / "farm" / "scenario_0003"

    @classmethod
    def tearDownClass(cls):
        cls.temp.cleanup()

    def check_session(self, code, out, err, captures):
        """The session ran to its end and printed the reason the worker's result.json holds."""
        self.assertEqual(code, 0, f"stdout:\n{out}\nstderr:\n{err}")
        self.assertIn("stepped 20 steps: simulation time", out)
        # 20 steps with feedback_every_steps 5: 4 feedback frames, then the final status.
        self.assertIn("simulated 20 steps as a SimulateSteps goal: 4 feedback frames, "
                      "STATUS_SUCCEEDED", out)
        self.assertRegex(out, r"moved the vehicle 2\.00 m forward")
        reason = re.search(r"^termination reason: (\S+)", out, re.MULTILINE)
        self.assertIsNotNone(reason, out)
        written = json.loads(
            (self.folder / "interactive" / "scenario_0003" / "result.json").read_text())
        self.assertEqual(reason.group(1), written["termination_reason_name"])
        # Moved 2 m along its way, the straight driver still reaches the goal.
        self.assertEqual(reason.group(1), "REASON_SUCCESS")
        saved = re.findall(r"^saved (.+)$", out, re.MULTILINE)
        if saved:
            self.assertEqual([pathlib.Path(p).name for p in saved], ["ortho_aerial_pad5.png"])
            for path in saved:
                self.assertEqual(pathlib.Path(path).parent, captures)
                self.assertEqual(pathlib.Path(path).read_bytes()[:8], PNG_SIGNATURE)
        else:  # no EGL here: the worker says why
            self.assertRegex(out, r"(?m)^no captures: capture:")

    def test_session_on_an_opened_folder_then_loaded_again(self):
        worker = ServedWorker(["--open", str(self.folder)], environment())
        try:
            captures = self.dir / "captures_1"
            code, out, err = run_example(worker.address, "--out", str(captures),
                                         env=environment())
            self.assertIn("state: STATE_PAUSED", out)  # as --open left it
            self.check_session(code, out, err, captures)
            # The run has ended (STOPPED); --open loads the folder again, PAUSED at time 0.
            captures = self.dir / "captures_2"
            code, out, err = run_example(worker.address, "--open", str(self.folder), "--out",
                                         str(captures), env=environment())
            self.assertIn("loaded ", out)
            self.assertIn("state: STATE_PAUSED", out)
            self.check_session(code, out, err, captures)
        finally:
            worker.stop()

    def test_token_is_presented_as_hello(self):
        worker = ServedWorker(["--token", "s3cret"], environment())
        try:
            code, out, err = run_example(worker.address, "--token", "guess", env=environment())
            self.assertEqual(code, 1, out + err)
            self.assertIn("wrong token", err)
            # ASG_TOKEN is accepted; nothing is loaded, which is an error result.
            code, out, err = run_example(worker.address, env=environment(ASG_TOKEN="s3cret"))
            self.assertIn("hello: the token was accepted", out)
            self.assertEqual(code, 1, out + err)
            self.assertIn("no scenario is loaded", err)
        finally:
            worker.stop()

    def test_unreachable_worker_is_a_connection_failure(self):
        with socket.socket() as sock:  # a port nobody listens on
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        code, out, err = run_example(f"127.0.0.1:{port}", env=environment())
        self.assertEqual(code, 3, out + err)
        self.assertIn("cannot connect", err)

    def test_help(self):
        code, out, _ = run_example("--help")
        self.assertEqual(code, 0)
        self.assertIn("HOST:PORT", out)
        self.assertIn("3 connection failure", out)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
