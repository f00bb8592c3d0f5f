"""The vehicle node: registration, attachment to a worker's data port, and the run loop
(docs/vehicle-nodes.md).
"""

from __future__ import annotations

import os
import queue
import sys
import time
from typing import Optional

from . import message_types as types
from .framing import Connection, Frame, NodeError, stop_signals
from .messages import step_response
from .readings import Step


class VehicleNode:
    """Base class of a vehicle node; override the on_* methods and call run()."""

    def __init__(self, client_endpoint: str, worker_id: int, node_name: str,
                 token: Optional[str] = None, connect_timeout: float = 60.0,
                 request_timeout: float = 10.0, retry_period: float = 0.5,
                 handle_signals: bool = True) -> None:
        self.client_endpoint = client_endpoint
        self.worker_id = worker_id
        self.node_name = node_name
        self.token = token if token else os.environ.get("ASG_TOKEN", "")
        self.connect_timeout = connect_timeout
        self.request_timeout = request_timeout
        self.retry_period = retry_period
        self.handle_signals = handle_signals
        self.stop_reason = ""
        self.save_dir, self.save_minimal = "", False
        self._events: queue.Queue = queue.Queue()
        self._client: Optional[Connection] = None
        self._data: Optional[Connection] = None
        self._generation = 0
        self._wanted, self._attached, self._next_attach = "", "", 0.0
        self._run: Optional[dict] = None  # RunStart of the active run
        self._disabled_at: Optional[float] = None
        self._preempted = False
        self._scenario, self._scenario_preempted = 0, False
        self._signal = 0

    # Overridable callbacks (run() thread).
    def on_operating_info(self, info: dict) -> None:
        """Each VehicleNodeOperatingInfo."""

    def on_run_start(self, run: dict) -> None:
        """RunStart (scenario_number, vehicle_goal_location, control_period, sensors, ...)."""

    def on_step(self, step: Step) -> Optional[dict]:
        """One tick: None, a PhysXControl dict (see physx_control) or an EgoControl dict."""
        return None

    def on_run_end(self, end: dict, preempted: bool) -> tuple[bool, str]:
        """The run ended; save with save_file unless preempted; return (rerun, reason)."""
        return False, ""

    def on_reset(self) -> None:
        """Forget the run before the next one."""

    def on_ready_answer(self, scenario_number: int, answer: dict) -> None:
        """The client's NotifyReadyResponse {received, accepted}."""

    # Public API.
    def stop(self, reason: str = "stopped") -> None:
        """Makes run() shut down and return; thread-safe."""
        self._events.put(("stop", reason, None, 0))

    def save_file(self, relative_path: str, data: bytes) -> str:
        """Uploads a file of the current run; returns the path the client wrote."""
        if self._client is None or self._scenario == 0:
            raise NodeError(f"save_file({relative_path}): no run to save for")
        if self._scenario_preempted:
            raise NodeError(f"save_file({relative_path}): scenario {self._scenario} was "
                            "preempted; its data is not saved")
        reply = self._client.request(types.SAVE_NODE_FILE, {
            "worker_id": self.worker_id, "node_name": self.node_name,
            "scenario_number": self._scenario, "relative_path": relative_path},
            bytes(data), self.request_timeout)
        return reply.message.get("path", "")

    def send_control(self, control: dict) -> bool:
        """Sends a Control message now (asynchronous runs); False without a data connection."""
        data = self._data
        if data is None or not data.is_open:
            return False
        data.send(types.CONTROL, step_response(control, 0.0))
        return True

    def run(self) -> None:
        """The node's life until stop(), a signal or the client closing; raises NodeError."""
        # Only a flag: a signal handler must not take the event queue's lock.
        with stop_signals(lambda n: setattr(self, "_signal", n), self.handle_signals):
            try:
                self._connect_client()
                self._notify_ready(0, False, "")
                while self._loop_once():
                    pass
            finally:
                self._shutdown()

    # Internals.
    def _connect_client(self) -> None:
        self._client = Connection.connect_retrying(
            self.client_endpoint, time.monotonic() + self.connect_timeout, self.retry_period,
            min(self.request_timeout, 5.0),
            lambda f: self._events.put(("client", None, f, 0)),
            lambda r: self._events.put(("client_closed", r, None, 0)))
        self._client.request(types.REGISTER_VEHICLE_NODE, {
            "worker_id": self.worker_id, "node_name": self.node_name, "token": self.token},
            b"", self.request_timeout)

    def _notify_ready(self, scenario: int, rerun: bool, reason: str) -> None:
        reply = self._client.request(types.NOTIFY_READY, {
            "worker_id": self.worker_id, "node_name": self.node_name,
            "last_scenario_number": scenario, "request_rerun": rerun,
            "reason_for_rerun": reason}, b"", self.request_timeout)
        self.on_ready_answer(scenario, reply.message)

    def _loop_once(self) -> bool:
        try:
            kind, reason, frame, generation = self._events.get(timeout=0.1)
        except queue.Empty:
            kind = None
        if self._signal:
            self.stop_reason = f"signal {self._signal}"
            return False
        if kind == "stop":
            self.stop_reason = reason
            return False
        if kind == "client_closed":
            self.stop_reason = f"client closed the connection: {reason}"
            return False
        if kind == "client" and frame.type == types.VEHICLE_NODE_OPERATING_INFO:
            self._operating_info(frame.message)
        elif kind == "data" and generation == self._generation:
            self._data_frame(frame)
        elif kind == "data_closed" and generation == self._generation:
            self._detach(reason, notify=True)
        if self._run is not None and self._disabled_at is not None and \
                time.monotonic() - self._disabled_at > 2.0:
            self._end_run({"scenario_number": self._run["scenario_number"]}, self._preempted)
        if self._wanted and not self._attached and time.monotonic() >= self._next_attach:
            self._attach()
        return True

    def _operating_info(self, info: dict) -> None:
        endpoint = ""
        for i, worker in enumerate(info.get("worker_ids", [])):
            if worker == self.worker_id:
                self.save_dir = info["save_dirs"][i]
                self.save_minimal = info["save_minimal"][i]
                endpoints = info.get("data_endpoints", [])
                endpoint = endpoints[i] if i < len(endpoints) else ""
        self.on_operating_info(info)
        if endpoint and endpoint != self._wanted:
            self._wanted = endpoint
            if self._attached:
                self._detach(f"data endpoint changed to {endpoint}", notify=True)
            self._next_attach = 0.0

    def _attach(self) -> None:
        self._next_attach = time.monotonic() + self.retry_period
        self._generation += 1
        generation = self._generation
        try:
            self._data = Connection.connect(
                self._wanted, min(self.request_timeout, 5.0),
                lambda f: self._events.put(("data", None, f, generation)),
                lambda r: self._events.put(("data_closed", r, None, generation)))
            self._data.request(types.ATTACH_NODE,
                               {"node_name": self.node_name, "token": self.token},
                               b"", self.request_timeout)
        except (OSError, NodeError) as error:
            print(f"[node {self.node_name}] attach failed: {error}", file=sys.stderr)
            if self._data is not None:
                self._data.close("attach failed")
            self._data = None
            return
        self._attached = self._wanted

    def _detach(self, reason: str, notify: bool) -> None:
        data, self._data, self._attached = self._data, None, ""
        self._generation += 1
        self._next_attach = time.monotonic() + self.retry_period
        if data is not None:
            data.close(reason)
        if self._run is not None:
            self._end_run({"scenario_number": self._run["scenario_number"],
                           "reason": f"data connection lost: {reason}"}, True, notify)

    def _data_frame(self, frame: Frame) -> None:
        data = self._data
        if frame.type == types.RUN_START:
            if self._run is not None:
                self._end_run({"scenario_number": self._run["scenario_number"]}, True, False)
            self._run, self._disabled_at, self._preempted = frame.message, None, False
            self._scenario, self._scenario_preempted = frame.message["scenario_number"], False
            try:
                self.on_run_start(frame.message)
            except Exception as error:  # a node failure goes back to the worker
                data.reply_error(frame.reference, f"on_run_start failed: {error}")
                return
            data.reply(frame, {"ready": True})
        elif frame.type == types.STEP:
            sync = self._run is None or self._run.get("sync", True)
            try:
                step = Step(frame.message, frame.attachment)
                control = self.on_step(step) if self._run is not None else None
            except Exception as error:  # a bad reading or a node failure: an Error reply
                if sync:
                    data.reply_error(frame.reference, f"{types.STEP}: {error}")
                return
            response = step_response(control, step.time)
            if sync:
                data.reply(frame, response)
            elif response:
                data.send(types.CONTROL, response)
        elif frame.type == types.VEHICLE_STATUS:
            if not frame.message.get("enabled", False) and self._run is not None:
                self._disabled_at = time.monotonic()
                self._preempted = self._preempted or frame.message.get("preempted", False)
        elif frame.type == types.RUN_END and self._run is not None:
            self._end_run(frame.message,
                          frame.message.get("preempted", False) or self._preempted)
        elif (frame.type == types.RUN_END and frame.message.get("preempted", False)
              and frame.message.get("scenario_number", 0)):
            # Preempted before it started (another node did not attach in time): no RunStart
            # came, but this node must be ready for the scenario again.
            scenario = frame.message["scenario_number"]
            self._scenario, self._scenario_preempted = scenario, True
            self._notify_ready(scenario, False, "")

    def _end_run(self, end: dict, preempted: bool, notify: bool = True) -> None:
        scenario = self._run["scenario_number"]
        self._run, self._disabled_at = None, None
        self._scenario_preempted = preempted
        end = dict(end, preempted=preempted, save_dir=self.save_dir,
                   save_minimal=self.save_minimal)
        rerun, reason = False, ""
        try:
            rerun, reason = self.on_run_end(end, preempted)
        except Exception as error:  # keep the farm going: report and carry on
            print(f"[node {self.node_name}] on_run_end failed: {error}", file=sys.stderr)
        self.on_reset()
        if notify:
            self._notify_ready(scenario, bool(rerun) and not preempted,
                               reason if rerun and not preempted else "")

    def _shutdown(self) -> None:
        if self._data is not None:
            self._detach("node shutting down", notify=False)
        client, self._client = self._client, None
        if client is not None and client.is_open:
            try:
                client.request(types.UNREGISTER_VEHICLE_NODE, {
                    "worker_id": self.worker_id, "node_name": self.node_name}, b"", 2.0)
            except NodeError as error:
                print(f"[node {self.node_name}] unregister failed: {error}", file=sys.stderr)
            client.close("node shutting down")
