"""A step-by-step session with an interactive worker (asg-worker --serve, docs/interactive.md).

    python3 interactive_session.py HOST:PORT [--token T] [--open DIR/scenario_NNNN] [--out DIR]

It connects (presenting --token, else ASG_TOKEN, as Hello {token} when one is given), loads the
scenario folder given with --open (LoadScenario {folder}) or uses the one the worker holds (a
fresh run of it, paused, when its run has ended), then: GetSimulationState; StepSimulation
{steps: 20}; a SimulateSteps goal {steps: 20, feedback_every_steps: 5}, counting its feedback
frames and printing its final status; GetEntityState of the vehicle; SetEntityState moving it
2 m forward along its heading; CaptureScene, saving each image as DIR/<name>.png (a note instead
when the worker cannot render); SetSimulationPace 0 and SetSimulationState PLAYING;
GetSimulationState until STOPPED; GetResult, printing "termination reason: <name>".

Exit codes: 0 the session ran; 1 an error result (an Error reply, a result.result other than 1,
"success": false, or no STOPPED within --timeout); 2 usage; 3 connection failure (cannot
connect, the connection closed, no reply within --reply-timeout).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import threading
import time
from typing import Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import asg_node  # noqa: E402

EXIT_OK, EXIT_ERROR, EXIT_CONNECTION = 0, 1, 3
RESULT_OK = 1  # simulation_interfaces Result.RESULT_OK
STATE_STOPPED, STATE_PLAYING, STATE_PAUSED = 0, 1, 2
STATE_NAMES = {0: "STATE_STOPPED", 1: "STATE_PLAYING", 2: "STATE_PAUSED", 3: "STATE_QUITTING"}
STEPS = 20  # physics steps stepped by hand
GOAL_STEPS = 20  # physics steps of the SimulateSteps goal
FEEDBACK_EVERY = 5  # [steps] between the goal's feedback frames (the worker's default is 1)
STATUS_SUCCEEDED = 4  # action_msgs GoalStatus.STATUS_SUCCEEDED
MOVE = 2.0  # [m] the vehicle is moved this far forward
SLOW_PACE = 0.001  # [s/s] simulated per wall second while a fresh run is started and paused
POLL_PERIOD = 0.05  # [s] between GetSimulationState calls while playing


class SessionError(Exception):
    """A service answered with an error (exit 1)."""


class ConnectionFailure(Exception):
    """The worker cannot be reached or stopped answering (exit 3)."""


class Worker:
    """Calls services of one interactive worker over a framed connection."""

    def __init__(self, endpoint: str, reply_timeout: float) -> None:
        self.reply_timeout = reply_timeout
        self.closed_reason: Optional[str] = None
        self._goal_frames: list[asg_node.Frame] = []  # SimulateSteps* frames not yet taken
        self._goal_arrived = threading.Condition()
        try:
            self.connection = asg_node.Connection.connect(
                endpoint, reply_timeout, self._on_frame, self._on_close)
        except (OSError, ValueError) as error:
            raise ConnectionFailure(f"cannot connect to {endpoint}: {error}") from error

    def _on_frame(self, frame: asg_node.Frame) -> None:
        """Frames the worker pushes on its own: a goal's feedback and result are kept for
        simulate_steps (on the connection's reader thread); Events are not used here."""
        if frame.type in ("SimulateStepsFeedback", "SimulateStepsResult"):
            with self._goal_arrived:
                self._goal_frames.append(frame)
                self._goal_arrived.notify_all()

    def _on_close(self, reason: str) -> None:
        self.closed_reason = reason

    def call(self, service: str, body: Optional[dict] = None) -> asg_node.Frame:
        """The reply frame of a service; raises SessionError on an Error reply and
        ConnectionFailure when no reply comes."""
        try:
            return self.connection.request(service, body or {}, timeout=self.reply_timeout)
        except asg_node.NodeError as error:
            # framing.Connection.request words its two failures without a reply like this.
            lost = (f"{service}: connection closed",
                    f"{service}: no reply within {self.reply_timeout:.1f} s")
            if str(error) in lost:
                reason = f" ({self.closed_reason})" if self.closed_reason else ""
                raise ConnectionFailure(f"{error}{reason}") from error
            raise SessionError(str(error)) from error

    def result_call(self, service: str, body: Optional[dict] = None) -> dict:
        """The reply body of a simulation_interfaces service whose result must be RESULT_OK."""
        reply = self.call(service, body).message
        result = reply.get("result", {})
        if result.get("result") != RESULT_OK:
            raise SessionError(f"{service}: result {result.get('result')}: "
                               f"{result.get('error_message', '')}")
        return reply

    def success_call(self, service: str, body: Optional[dict] = None) -> asg_node.Frame:
        """The reply frame of a service whose body must say "success": true."""
        reply = self.call(service, body)
        if reply.message.get("success") is not True:
            raise SessionError(f"{service}: {reply.message.get('description', 'failed')}")
        return reply

    def simulate_steps(self, steps: int, feedback_every: int) -> tuple[list[dict], dict]:
        """Runs a SimulateSteps goal to its end; returns the bodies of its feedback frames and of
        its result. Raises SessionError when the goal is refused or does not succeed."""
        reply = self.call("SimulateSteps",
                          {"steps": steps, "feedback_every_steps": feedback_every}).message
        if reply.get("accepted") is not True:
            result = reply.get("result", {})
            raise SessionError(f"SimulateSteps: not accepted: {result.get('error_message', '')}")
        goal = reply["goal_id"]

        def ended() -> bool:
            return any(f.type == "SimulateStepsResult" and f.message.get("goal_id") == goal
                       for f in self._goal_frames)

        with self._goal_arrived:
            if not self._goal_arrived.wait_for(ended, self.reply_timeout):
                raise ConnectionFailure(f"SimulateSteps: no result of goal {goal} within "
                                        f"{self.reply_timeout:.1f} s")
            frames = [f for f in self._goal_frames if f.message.get("goal_id") == goal]
            self._goal_frames = [f for f in self._goal_frames if f.message.get("goal_id") != goal]
        feedback = [f.message for f in frames if f.type == "SimulateStepsFeedback"]
        result = next(f.message for f in frames if f.type == "SimulateStepsResult")
        if result.get("status") != STATUS_SUCCEEDED:
            raise SessionError(f"SimulateSteps: goal {goal} ended {result.get('status_name')}: "
                               f"{result.get('result', {}).get('error_message', '')}")
        return feedback, result

    def state(self) -> int:
        """GetSimulationState's state."""
        return self.result_call("GetSimulationState")["state"]["state"]

    def close(self) -> None:
        self.connection.close("session done")


def yaw_of(orientation: dict) -> float:
    """[rad] the heading (rotation about z) of a quaternion {x, y, z, w}."""
    x, y, z, w = (orientation[k] for k in ("x", "y", "z", "w"))
    return math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))


def vehicle_pose(worker: Worker) -> dict:
    """The vehicle's pose {position, orientation} in the world frame."""
    return worker.result_call("GetEntityState", {"entity": "vehicle"})["state"]["pose"]


def safe_name(name: str) -> str:
    """A file name of an image's name: characters other than A-Z a-z 0-9 . _ - become _."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name) or "image"


def save_captures(frame: asg_node.Frame, out: str) -> list[str]:
    """Saves each image of a CaptureScene reply as out/<name>.png; returns the paths."""
    os.makedirs(out, exist_ok=True)
    saved = []
    for image in frame.message.get("images", []):
        offset, size = image["offset"], image["size"]
        if offset + size > len(frame.attachment):
            raise SessionError(f"CaptureScene: image {image['name']} lies beyond the attachment")
        path = os.path.join(out, safe_name(image["name"]) + ".png")
        with open(path, "wb") as file:
            file.write(frame.attachment[offset:offset + size])
        saved.append(path)
    return saved


def run_session(worker: Worker, args: argparse.Namespace) -> int:
    """The session's steps, printed as they happen; the exit code."""
    token = args.token if args.token is not None else os.environ.get("ASG_TOKEN")
    if token:
        worker.success_call("Hello", {"token": token})
        print("hello: the token was accepted")
    if args.open:
        loaded = worker.success_call("LoadScenario", {"folder": os.path.abspath(args.open)})
        print(f"loaded {args.open}: scenario {loaded.message['scenario_number']}, "
              f"{loaded.message['entities']} entities")
    status = worker.success_call("GetSimulationStatus").message
    if not status.get("loaded"):
        print("no scenario is loaded: give --open DIR/scenario_NNNN", file=sys.stderr)
        return EXIT_ERROR
    state = worker.state()
    print(f"state: {STATE_NAMES.get(state, state)}")
    if state == STATE_STOPPED:
        # STOPPED -> PAUSED is refused: start a fresh run so slowly that it has taken one step
        # when the pause arrives (the pace is set again below).
        worker.success_call("SetSimulationPace", {"simulation_pace": SLOW_PACE})
        worker.result_call("SetSimulationState", {"state": {"state": STATE_PLAYING}})
        worker.result_call("SetSimulationState", {"state": {"state": STATE_PAUSED}})
        print("started a fresh run and paused it")
    elif state == STATE_PLAYING:
        worker.result_call("SetSimulationState", {"state": {"state": STATE_PAUSED}})
        print("paused")

    worker.result_call("StepSimulation", {"steps": STEPS})
    time_now = worker.success_call("GetSimulationTime").message["simulation_time"]
    print(f"stepped {STEPS} steps: simulation time {time_now:.2f} s")

    feedback, result = worker.simulate_steps(GOAL_STEPS, FEEDBACK_EVERY)
    print(f"simulated {result['completed_steps']} steps as a SimulateSteps goal: "
          f"{len(feedback)} feedback frames, {result['status_name']}")

    pose = vehicle_pose(worker)
    position = pose["position"]
    yaw = yaw_of(pose["orientation"])
    print(f"vehicle at ({position['x']:.2f}, {position['y']:.2f}, {position['z']:.2f}) m, "
          f"heading {math.degrees(yaw):.1f} deg")
    target = {"x": position["x"] + MOVE * math.cos(yaw),
              "y": position["y"] + MOVE * math.sin(yaw), "z": position["z"]}
    worker.result_call("SetEntityState", {
        "entity": "vehicle",
        "state": {"header": {"frame_id": "world"},
                  "pose": {"position": target, "orientation": pose["orientation"]}},
        "set_pose": True})
    moved = vehicle_pose(worker)["position"]
    distance = math.hypot(moved["x"] - position["x"], moved["y"] - position["y"])
    print(f"moved the vehicle {distance:.2f} m forward to ({moved['x']:.2f}, {moved['y']:.2f}) m")

    capture = worker.call("CaptureScene")
    if capture.message.get("success") is True:
        for path in save_captures(capture, args.out):
            print(f"saved {path}")
    else:
        print(f"no captures: {capture.message.get('description', 'capture failed')}")

    worker.success_call("SetSimulationPace", {"simulation_pace": 0})
    worker.result_call("SetSimulationState", {"state": {"state": STATE_PLAYING}})
    print("playing as fast as possible")
    deadline = time.monotonic() + args.timeout
    while worker.state() != STATE_STOPPED:
        if time.monotonic() > deadline:
            print(f"the run did not stop within {args.timeout:g} s", file=sys.stderr)
            return EXIT_ERROR
        time.sleep(POLL_PERIOD)
    print(f"state: {STATE_NAMES[STATE_STOPPED]}")

    result = worker.call("GetResult").message
    if result.get("available") is not True:
        raise SessionError(f"GetResult: {result.get('description', 'no result')}")
    analysis = result["analysis"]
    if analysis.get("aborted"):
        raise SessionError(f"the run was aborted: {analysis.get('reason')}")
    print(f"termination reason: {analysis['termination_reason_name']} "
          f"(simulation time {analysis['vehicle_sim_time']:.2f} s)")
    if "folder" in result:
        print(f"result folder: {result['folder']}")
    return EXIT_OK


def main() -> int:
    """Parses the command line and runs the session."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Exit codes: 0 ok, 1 an error result, 2 usage, 3 connection failure.")
    parser.add_argument("address", metavar="HOST:PORT", help="the interactive worker")
    parser.add_argument("--token", default=None, help="shared secret (default: ASG_TOKEN)")
    parser.add_argument("--open", metavar="DIR/scenario_NNNN", default=None,
                        help="a scenario folder of a result to load first")
    parser.add_argument("--out", metavar="DIR", default=".",
                        help="folder for the captured PNGs (default: the current one)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="[s] wall time the played run may take to stop (default 120)")
    parser.add_argument("--reply-timeout", type=float, default=30.0,
                        help="[s] wall time a reply may take (default 30)")
    args = parser.parse_args()
    if ":" not in args.address:
        parser.error(f"{args.address}: expected HOST:PORT")
    worker = None
    try:
        worker = Worker(args.address, args.reply_timeout)
        return run_session(worker, args)
    except SessionError as error:
        print(f"interactive_session: {error}", file=sys.stderr)
        return EXIT_ERROR
    except ConnectionFailure as error:
        print(f"interactive_session: {error}", file=sys.stderr)
        return EXIT_CONNECTION
    finally:
        if worker is not None:
            worker.close()


if __name__ == "__main__":
    sys.exit(main())
