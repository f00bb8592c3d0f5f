"""Tests for nodes/python/asg_node/: the node's life against a minimal client and worker.

The peer below frames with its own struct code (not the module's), over real loopback sockets.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys
import threading
import time
import unittest
from typing import Callable, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "nodes", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "nodes", "python", "examples"))
import asg_node  # noqa: E402
import straight_node  # noqa: E402

WAIT = 10.0  # [s] bound on any wait
TOKEN = "py-secret"


def encode(type_: str, reference: int, message: dict, attachment: bytes = b"") -> bytes:
    body = json.dumps({"type": type_, "reference": reference, "message": message}).encode()
    return b"ASG1" + struct.pack(">II", len(body), len(attachment)) + body + attachment


class PeerConnection:
    """One accepted connection: reads frames, answers requests with handlers, records others."""

    def __init__(self, sock: socket.socket, handlers: dict) -> None:
        self.sock, self.handlers = sock, handlers
        self.lock = threading.Condition()
        self.inbox: list = []
        self.replies: dict = {}
        self.reference = 1000
        self.open = True
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._beat, daemon=True).start()

    def _recv(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def _read(self) -> None:
        try:
            while True:
                magic, json_length, attachment_length = struct.unpack(">4sII", self._recv(12))
                assert magic == b"ASG1"
                envelope = json.loads(self._recv(json_length))
                attachment = self._recv(attachment_length)
                type_, reference = envelope["type"], envelope["reference"]
                if type_ == "Heartbeat":
                    continue
                with self.lock:
                    if type_.endswith("Response") or type_ == "Error":
                        self.replies[reference] = (type_, envelope["message"])
                    else:
                        self.inbox.append((type_, envelope["message"], attachment))
                    self.lock.notify_all()
                if type_ in self.handlers:
                    try:
                        reply = (type_ + "Response", self.handlers[type_](envelope["message"]))
                    except Exception as error:  # the peer's refusal becomes an Error reply
                        reply = ("Error", {"success": False, "description": str(error)})
                    self.send(reply[0], reply[1], reference=reference)
        except (OSError, ConnectionError, struct.error):
            with self.lock:
                self.open = False
                self.lock.notify_all()

    def _beat(self) -> None:
        while self.open:
            self.send("Heartbeat", {}, reference=0)
            time.sleep(0.5)

    def send(self, type_: str, message: dict, attachment: bytes = b"",
             reference: Optional[int] = None) -> int:
        with self.lock:
            if reference is None:
                self.reference += 1
                reference = self.reference
        try:
            self.sock.sendall(encode(type_, reference, message, attachment))
        except OSError:
            pass
        return reference

    def request(self, type_: str, message: dict, attachment: bytes = b"") -> tuple:
        reference = self.send(type_, message, attachment)
        with self.lock:
            self.lock.wait_for(lambda: reference in self.replies, WAIT)
            return self.replies.get(reference, ("Timeout", {}))

    def wait(self, type_: str, count: int = 1) -> list:
        with self.lock:
            self.lock.wait_for(lambda: len(self.of(type_)) >= count, WAIT)
            return self.of(type_)

    def of(self, type_: str) -> list:
        return [(m, a) for t, m, a in self.inbox if t == type_]


class Peer:
    """A listening socket on loopback; each accepted connection gets the handlers."""

    def __init__(self, handlers: dict) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.address = "127.0.0.1:%d" % self.server.getsockname()[1]
        self.connections: list = []
        self.accepted = threading.Event()
        threading.Thread(target=self._accept, args=(handlers,), daemon=True).start()

    def _accept(self, handlers: dict) -> None:
        while True:
            try:
                sock, _ = self.server.accept()
            except OSError:
                return
            self.connections.append(PeerConnection(sock, handlers))
            self.accepted.set()

    def latest(self) -> PeerConnection:
        self.accepted.wait(WAIT)
        return self.connections[-1]

    def close(self) -> None:
        self.server.close()
        for connection in self.connections:
            connection.sock.close()


def client_handlers(reruns: dict) -> dict:
    def register(m: dict) -> dict:
        if m.get("token") != TOKEN:
            raise ValueError("wrong token")
        return {"received": True}

    def ready(m: dict) -> dict:
        accepted = False
        if m["request_rerun"]:
            accepted = reruns.get(m["last_scenario_number"], 0) == 0
            reruns[m["last_scenario_number"]] = reruns.get(m["last_scenario_number"], 0) + 1
        return {"received": True, "accepted": accepted}

    def save(m: dict) -> dict:
        if ".." in m["relative_path"]:
            raise ValueError("relative_path leaves the node's folder")
        return {"received": True, "path": "scenario_%04d/nodes/%s/%s" % (
            m["scenario_number"], m["node_name"], m["relative_path"])}

    return {"RegisterVehicleNode": register, "NotifyReady": ready, "SaveNodeFile": save,
            "UnregisterVehicleNode": lambda m: {"received": True}}


def worker_handlers() -> dict:
    def attach(m: dict) -> dict:
        if m.get("token") != TOKEN:
            raise ValueError("wrong token")
        return {"received": True}
    return {"AttachNode": attach}


class RecordingNode(asg_node.VehicleNode):
    """Controls depend on the tick; saves a file and asks for a rerun at the end of a run."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.points: list = []
        self.ends: list = []
        self.answers: list = []
        self.resets = 0

    def on_step(self, step: asg_node.Step) -> Optional[dict]:
        if step.find("roof"):
            self.points.append(list(step.lidar("roof")))
        if step.tick == 1:
            return {"forward_amount": 0.5, "right_amount": -0.25}
        return asg_node.physx_control(1.0 + step.tick, step.position[0], False, step.time)

    def on_run_end(self, end: dict, preempted: bool) -> tuple:
        self.ends.append((end["scenario_number"], preempted,
                          self.save_file("logs/run.txt", b"run %d" % end["scenario_number"])))
        return True, "flaky run"

    def on_reset(self) -> None:
        self.resets += 1

    def on_ready_answer(self, scenario_number: int, answer: dict) -> None:
        self.answers.append((scenario_number, answer["accepted"]))


def step_message(tick: int, readings: Optional[list] = None) -> dict:
    return {"scenario_number": 7, "tick": tick, "time": tick * 0.05,
            "odometry": {"pose": {"position": {"x": 10.0 + tick, "y": 2.0, "z": 0.0},
                                  "orientation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0}}},
            "readings": readings or []}


def start_recording_node(client: Peer) -> tuple:
    """A RecordingNode of worker 3 named "py" for `client`, running on a thread of its own."""
    node = RecordingNode(client_endpoint=client.address, worker_id=3, node_name="py",
                         token=TOKEN, handle_signals=False)
    thread = threading.Thread(target=node.run)
    thread.start()
    return node, thread


class PythonNodeTest(unittest.TestCase):
    def test_whole_life(self) -> None:
        client, worker = Peer(client_handlers({})), Peer(worker_handlers())
        node, thread = start_recording_node(client)
        try:
            control = client.latest()
            self.assertEqual(len(control.wait("NotifyReady")), 1)
            self.assertEqual(control.of("RegisterVehicleNode")[0][0],
                             {"worker_id": 3, "node_name": "py", "token": TOKEN})
            control.send("VehicleNodeOperatingInfo", {
                "worker_ids": [3], "scenario_numbers": [7], "ok_to_run": [True],
                "save_dirs": ["/out"], "save_minimal": [False],
                "data_endpoints": [worker.address]})
            data = worker.latest()
            self.assertEqual(data.wait("AttachNode")[0][0], {"node_name": "py", "token": TOKEN})
            self.assertEqual(data.request("RunStart", {
                "scenario_number": 7, "sync": True, "control_period": 0.05,
                "vehicle_goal_location": {"x": 50.0, "y": 50.0, "z": 0.0}}),
                ("RunStartResponse", {"ready": True}))
            points = struct.pack("<6f", 1.0, 2.0, 3.0, -4.5, 0.25, 7.0)
            lidar = {"name": "roof", "type": "lidar", "encoding": "xyz32f", "count": 2,
                     "offset": 0, "size": 24}
            kind, reply = data.request("Step", step_message(0, [lidar]), points)
            self.assertEqual(kind, "StepResponse")
            self.assertEqual(reply["control"]["longitudinal_velocity"], 1.0)
            self.assertEqual(reply["control"]["steering_angle"], 10.0)
            self.assertEqual(data.request("Step", step_message(1))[1],
                             {"ego_control": {"forward_amount": 0.5, "right_amount": -0.25}})
            bad = dict(lidar, offset=8)
            kind, reply = data.request("Step", step_message(2, [bad]), points)
            self.assertEqual(kind, "Error")
            self.assertIn("offset 8 + size 24 reaches past the attachment of 24 bytes",
                          reply["description"])
            self.assertEqual(node.points, [[1.0, 2.0, 3.0, -4.5, 0.25, 7.0]])

            data.send("VehicleStatus", {"enabled": False, "preempted": False})
            data.send("RunEnd", {"scenario_number": 7, "termination_reason": 0,
                                 "termination_reason_name": "REASON_SUCCESS",
                                 "vehicle_sim_time": 0.1})
            saves = control.wait("SaveNodeFile")
            self.assertEqual(saves[0], ({"worker_id": 3, "node_name": "py", "scenario_number": 7,
                                         "relative_path": "logs/run.txt"}, b"run 7"))
            readies = control.wait("NotifyReady", 2)
            self.assertEqual(readies[1][0], {"worker_id": 3, "node_name": "py",
                                             "last_scenario_number": 7, "request_rerun": True,
                                             "reason_for_rerun": "flaky run"})
        finally:
            node.stop()
            thread.join(WAIT)
        self.assertFalse(thread.is_alive())
        self.assertEqual(node.stop_reason, "stopped")
        self.assertEqual(len(control.wait("UnregisterVehicleNode")), 1)
        self.assertEqual(node.ends, [(7, False, "scenario_0007/nodes/py/logs/run.txt")])
        self.assertEqual(node.answers, [(0, False), (7, True)])
        self.assertEqual(node.resets, 1)
        client.close()
        worker.close()

    def test_a_run_preempted_before_it_started_still_gets_the_node_ready(self) -> None:
        """docs/vehicle-nodes.md, A preemption: fewer nodes attached than the batch needs, so
        no RunStart; the attached node gets VehicleStatus and RunEnd {preempted} and answers
        NotifyReady with that scenario (else the ready gate would stay closed)."""
        client, worker = Peer(client_handlers({})), Peer(worker_handlers())
        node, thread = start_recording_node(client)
        try:
            control = client.latest()
            control.wait("NotifyReady")
            control.send("VehicleNodeOperatingInfo", {
                "worker_ids": [3], "scenario_numbers": [9], "ok_to_run": [True],
                "save_dirs": ["/out"], "save_minimal": [False],
                "data_endpoints": [worker.address]})
            data = worker.latest()
            data.wait("AttachNode")
            data.send("VehicleStatus", {"enabled": False, "preempted": True})
            data.send("RunEnd", {"scenario_number": 9, "termination_reason": 0,
                                 "termination_reason_name": "", "vehicle_sim_time": 0.0,
                                 "preempted": True,
                                 "reason": "1 of 2 vehicle nodes attached within the step "
                                           "deadline"})
            readies = control.wait("NotifyReady", 2)
            self.assertEqual(readies[1][0], {"worker_id": 3, "node_name": "py",
                                             "last_scenario_number": 9, "request_rerun": False,
                                             "reason_for_rerun": ""})
        finally:
            node.stop()
            thread.join(WAIT)
        self.assertEqual(node.ends, [])  # no run, so no on_run_end and no upload
        self.assertEqual(control.of("SaveNodeFile"), [])
        client.close()
        worker.close()

    def test_sigterm_unregisters_and_returns(self) -> None:
        client = Peer(client_handlers({}))
        node = RecordingNode(client_endpoint=client.address, worker_id=1, node_name="py",
                             token=TOKEN)
        timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGTERM))
        timer.start()
        node.run()  # on the main thread, so it installs its signal handlers
        timer.join()
        self.assertEqual(node.stop_reason, "signal %d" % signal.SIGTERM)
        self.assertEqual(len(client.latest().wait("UnregisterVehicleNode")), 1)
        client.close()

    def test_wrong_token_is_refused(self) -> None:
        client = Peer(client_handlers({}))
        node = RecordingNode(client_endpoint=client.address, worker_id=1, node_name="py",
                             token="nope", handle_signals=False)
        with self.assertRaisesRegex(asg_node.NodeError, "wrong token"):
            node.run()
        client.close()


class DecodeTest(unittest.TestCase):
    def test_depth_image_with_padded_rows(self) -> None:
        rows = struct.pack("<2f", 1.5, 2.5) + b"\0" * 4 + struct.pack("<2f", float("inf"), 40.0)
        header = {"name": "front", "type": "camera", "encoding": "32FC1", "width": 2,
                  "height": 2, "step": 12, "offset": 3, "size": 20}
        image = asg_node.decode_image(header, b"xyz" + rows)
        self.assertEqual(list(image.depth), [1.5, 2.5, float("inf"), 40.0])
        with self.assertRaisesRegex(asg_node.ReadingError, "does not fit 2 x 2 32FC1"):
            asg_node.decode_image(dict(header, size=16), b"xyz" + rows)
        with self.assertRaisesRegex(asg_node.ReadingError, '"offset" is -1'):
            asg_node.decode_image(dict(header, offset=-1), rows)

    def test_straight_example_steers_like_the_builtin_driver(self) -> None:
        # Goal at 45 deg, heading 40 deg: 5 deg to the left, 7.5 deg of left (negative) steering.
        control = straight_node.straight_control((10.0, 10.0), (0.0, 0.0), 40.0, 30.0, 5.0, 1.25)
        self.assertAlmostEqual(control["steering_angle"], -7.5, places=12)
        self.assertEqual(control["header"]["stamp"], {"sec": 1, "nanosec": 250000000})
        self.assertEqual(straight_node.straight_control(
            (10.0, 10.0), (0.0, 0.0), 150.0, 30.0, 5.0, 0.0)["steering_angle"], 30.0)


if __name__ == "__main__":
    unittest.main()
