"""ASG Farm vehicle nodes in Python, standard library only (docs/vehicle-nodes.md).

Subclass VehicleNode, override the on_* methods, call run(). The node registers with the
client, sends NotifyReady(0), attaches to its worker's data endpoint from the operating info,
answers RunStart and every Step, and at the end of a run calls on_run_end (save files with
save_file, return (rerun, reason)), on_reset, then NotifyReady(scenario). SIGINT / SIGTERM (or
stop()) unregister and close. Frames: b"ASG1", big-endian JSON and attachment lengths, JSON
envelope {"type", "reference", "message"}, attachment bytes; heartbeats every 0.5 s.

Threading: run() calls every on_* method on its own thread, one at a time; socket readers and
heartbeats run on daemon threads. stop(), send_control() and save_file() are thread-safe.
"""

from __future__ import annotations

import array
import json
import math
import os
import queue
import signal
import socket
import struct
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

HEADER = struct.Struct(">4sII")
MAGIC = b"ASG1"
MAX_FRAME_BYTES = 64 << 20
HEARTBEAT_PERIOD = 0.5  # [s]
PEER_TIMEOUT = 3.0  # [s]
LABEL_SKY, LABEL_TRAVERSABLE, LABEL_NON_TRAVERSABLE = 0, 1, 2


class NodeError(Exception):
    """A request was refused, timed out, or the connection is gone."""


class ReadingError(ValueError):
    """A sensor reading whose header does not fit its attachment."""


@dataclass
class Frame:
    """One decoded frame."""

    type: str
    reference: int
    message: dict
    attachment: bytes = b""


class Connection:
    """A framed TCP connection with heartbeats and request/reply by reference; thread-safe."""

    def __init__(self, sock: socket.socket, on_frame: Callable[[Frame], None],
                 on_close: Callable[[str], None]) -> None:
        self._sock = sock
        self._on_frame = on_frame
        self._on_close = on_close
        self._send_lock = threading.Lock()
        self._lock = threading.Lock()
        self._next_reference = 1
        self._pending: dict[int, list] = {}  # reference -> [event, frame or None]
        self._open = True
        self._last_received = time.monotonic()
        threading.Thread(target=self._read_loop, daemon=True).start()
        threading.Thread(target=self._heartbeat_loop, daemon=True).start()

    @classmethod
    def connect(cls, endpoint: str, timeout: float, on_frame: Callable[[Frame], None],
                on_close: Callable[[str], None]) -> "Connection":
        """Connects to "HOST:PORT"; raises OSError when it cannot."""
        host, _, port = endpoint.rpartition(":")
        sock = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(sock, on_frame, on_close)

    @property
    def is_open(self) -> bool:
        """True until the connection closes."""
        return self._open

    def send(self, type_: str, message: dict, attachment: bytes = b"",
             reference: Optional[int] = None) -> int:
        """Sends a frame (a fresh reference unless given); returns its reference."""
        with self._lock:
            if reference is None:
                reference = self._next_reference
                self._next_reference += 1
        body = json.dumps({"type": type_, "reference": reference, "message": message},
                          allow_nan=False).encode()
        if len(body) + len(attachment) > MAX_FRAME_BYTES:
            raise ValueError(f"{type_} frame of {len(body) + len(attachment)} bytes is too long")
        data = HEADER.pack(MAGIC, len(body), len(attachment)) + body + attachment
        try:
            with self._send_lock:
                self._sock.sendall(data)
        except OSError as error:
            self.close(f"send failed: {error}")
        return reference

    def reply(self, request: Frame, message: dict, attachment: bytes = b"") -> None:
        """Sends the reply to a request: its type + "Response", its reference."""
        self.send(request.type + "Response", message, attachment, request.reference)

    def reply_error(self, reference: int, description: str) -> None:
        """Sends an Error reply."""
        self.send("Error", {"success": False, "description": description}, b"", reference)

    def request(self, type_: str, message: dict, attachment: bytes = b"",
                timeout: float = 10.0) -> Frame:
        """Sends a request and waits for its reply; raises NodeError on Error, timeout, close."""
        event = threading.Event()
        with self._lock:
            reference = self._next_reference
            self._next_reference += 1
            self._pending[reference] = [event, None]
        self.send(type_, message, attachment, reference)
        event.wait(timeout)
        with self._lock:
            reply = self._pending.pop(reference)[1]
        if reply is None:
            state = "no reply within %.1f s" % timeout if self._open else "connection closed"
            raise NodeError(f"{type_}: {state}")
        if reply.type == "Error":
            raise NodeError(f"{type_}: {reply.message.get('description', 'error')}")
        return reply

    def close(self, reason: str) -> None:
        """Closes the socket; pending requests fail; on_close runs once."""
        with self._lock:
            if not self._open:
                return
            self._open = False
            for entry in self._pending.values():
                entry[0].set()
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
        self._on_close(reason)

    def _read_exact(self, count: int) -> bytes:
        chunks, left = [], count
        while left > 0:
            chunk = self._sock.recv(min(left, 1 << 20))
            if not chunk:
                raise ConnectionError("peer closed the connection")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def _read_loop(self) -> None:
        try:
            while self._open:
                magic, json_length, attachment_length = HEADER.unpack(self._read_exact(12))
                if magic != MAGIC or json_length + attachment_length > MAX_FRAME_BYTES:
                    raise ConnectionError(f"bad frame header {magic!r} {json_length}")
                envelope = json.loads(self._read_exact(json_length))
                attachment = self._read_exact(attachment_length) if attachment_length else b""
                self._last_received = time.monotonic()
                frame = Frame(envelope["type"], envelope["reference"], envelope["message"],
                              attachment)
                if frame.type == "Heartbeat":
                    continue
                if frame.type == "Error" or frame.type.endswith("Response"):
                    with self._lock:
                        entry = self._pending.get(frame.reference)
                        if entry is not None:
                            entry[1] = frame
                            entry[0].set()
                    continue
                self._on_frame(frame)
        except (OSError, ValueError, KeyError, ConnectionError) as error:
            self.close(str(error) or type(error).__name__)

    def _heartbeat_loop(self) -> None:
        while self._open:
            if time.monotonic() - self._last_received > PEER_TIMEOUT:
                self.close(f"peer silent for more than {PEER_TIMEOUT} s")
                return
            self.send("Heartbeat", {}, b"", 0)
            time.sleep(HEARTBEAT_PERIOD)


# ------------------------------------------------------------------------- readings

def reading_data(header: dict, attachment: bytes) -> bytes:
    """The attachment bytes a header's "offset" and "size" point to; ReadingError when outside."""
    name = f"reading '{header.get('name', '?')}' ({header.get('type', '?')})"
    offset, size = header.get("offset"), header.get("size")
    for key, value in (("offset", offset), ("size", size)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ReadingError(f"{name}: \"{key}\" is {value!r}, not an integer >= 0")
    if offset > len(attachment) or size > len(attachment) - offset:
        raise ReadingError(f"{name}: offset {offset} + size {size} reaches past the "
                           f"attachment of {len(attachment)} bytes")
    return attachment[offset:offset + size]


def _floats(data: bytes) -> array.array:
    values = array.array("f")
    values.frombytes(data)
    if sys.byteorder != "little":
        values.byteswap()
    return values


@dataclass
class Image:
    """A camera image or occupancy grid, rows packed: pixels in data (bytes) or depth (floats)."""

    encoding: str
    width: int
    height: int
    data: bytes = b""
    depth: array.array = field(default_factory=lambda: array.array("f"))
    header: dict = field(default_factory=dict)


def decode_image(header: dict, attachment: bytes) -> Image:
    """Decodes an "rgb8", "32FC1" or "mono8" reading (camera image or occupancy grid)."""
    name = f"reading '{header.get('name', '?')}' ({header.get('type', '?')})"
    pixel = {"rgb8": 3, "32FC1": 4, "mono8": 1}.get(header.get("encoding"))
    width, height = header.get("width"), header.get("height")
    if pixel is None or not isinstance(width, int) or not isinstance(height, int) \
            or width <= 0 or height <= 0:
        raise ReadingError(f"{name}: needs an rgb8/32FC1/mono8 encoding and width, height > 0")
    row = width * pixel
    step = header.get("step", row)
    data = reading_data(header, attachment)
    if not isinstance(step, int) or step < row or not \
            step * (height - 1) + row <= len(data) <= step * height:
        raise ReadingError(f"{name}: size {len(data)} bytes does not fit {width} x {height} "
                           f"{header['encoding']} pixels with step {step}")
    packed = b"".join(data[r * step:r * step + row] for r in range(height))
    if pixel == 4:
        return Image("32FC1", width, height, b"", _floats(packed), header)
    return Image(header["encoding"], width, height, packed, array.array("f"), header)


def decode_lidar(header: dict, attachment: bytes) -> array.array:
    """The points of an "xyz32f" reading as floats x0, y0, z0, x1, ... [m], sensor frame."""
    data = reading_data(header, attachment)
    count = header.get("count")
    if header.get("encoding") != "xyz32f" or not isinstance(count, int) or \
            len(data) != 12 * count:
        raise ReadingError(f"reading '{header.get('name', '?')}' (lidar): size {len(data)} "
                           f"bytes does not hold count {count} xyz32f points")
    return _floats(data)


class Step:
    """One tick: scenario_number, tick, time [s], odometry (dict), readings and attachment."""

    def __init__(self, message: dict, attachment: bytes) -> None:
        self.message = message
        self.scenario_number: int = message["scenario_number"]
        self.tick: int = message["tick"]
        self.time: float = message["time"]
        self.odometry: dict = message["odometry"]
        self.readings: list = message.get("readings", [])
        self.attachment = attachment

    @property
    def position(self) -> tuple[float, float, float]:
        """[m] the vehicle's world position."""
        p = self.odometry["pose"]["position"]
        return p["x"], p["y"], p["z"]

    @property
    def yaw(self) -> float:
        """[deg] the vehicle's yaw, counter-clockwise from +x (the simulator's formula)."""
        q = self.odometry["pose"]["orientation"]
        w, x, y, z = q["w"], q["x"], q["y"], q["z"]
        return math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z)) / (math.pi / 180)

    def find(self, name: str, encoding: Optional[str] = None) -> Optional[dict]:
        """The first reading header of that sensor (and encoding), or None."""
        for header in self.readings:
            if header.get("name") == name and encoding in (None, header.get("encoding")):
                return header
        return None

    def _require(self, name: str, encoding: Optional[str] = None) -> dict:
        header = self.find(name, encoding)
        if header is None:
            raise ReadingError(f"step {self.tick} has no {encoding or ''} reading named '{name}'")
        return header

    def lidar(self, name: str) -> array.array:
        """A lidar's points, x y z floats [m]."""
        return decode_lidar(self._require(name), self.attachment)

    def occupancy(self, name: str) -> Image:
        """An occupancy grid (mono8: 0 free, 100 occupied); resolution, origin in .header."""
        return decode_image(self._require(name), self.attachment)

    def rgb(self, camera: str) -> Image:
        """A camera's colour image."""
        return decode_image(self._require(camera, "rgb8"), self.attachment)

    def depth(self, camera: str) -> Image:
        """A camera's depth image [m] in .depth."""
        return decode_image(self._require(camera, "32FC1"), self.attachment)

    def segmentation(self, camera: str) -> Image:
        """A camera's segmentation labels (LABEL_*)."""
        return decode_image(self._require(camera, "mono8"), self.attachment)

    def header(self, name: str) -> dict:
        """A header-only reading (imu, detection) as sent."""
        return self._require(name)


def physx_control(speed: float, steering: float, handbrake: bool = False,
                  stamp: float = 0.0) -> dict:
    """A PhysXControl: target speed [m/s], steering [deg, positive right], at stamp [s]."""
    nanoseconds = round(stamp * 1e9)
    return {"header": {"stamp": {"sec": nanoseconds // 10**9, "nanosec": nanoseconds % 10**9},
                       "frame_id": ""},
            "longitudinal_velocity": speed, "steering_angle": steering, "handbrake": handbrake}


def _step_response(control: Optional[dict], stamp: float) -> dict:
    if control is None:
        return {}
    if any(key in control for key in ("forward_amount", "right_amount", "brake_amount",
                                      "drive_mode")):
        return {"ego_control": control}
    full = physx_control(0.0, 0.0, False, stamp)
    full.update(control)
    return {"control": full}



# ------------------------------------------------------------------------- the node


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
        reply = self._client.request("SaveNodeFile", {
            "worker_id": self.worker_id, "node_name": self.node_name,
            "scenario_number": self._scenario, "relative_path": relative_path},
            bytes(data), self.request_timeout)
        return reply.message.get("path", "")

    def send_control(self, control: dict) -> bool:
        """Sends a Control message now (asynchronous runs); False without a data connection."""
        data = self._data
        if data is None or not data.is_open:
            return False
        data.send("Control", _step_response(control, 0.0))
        return True

    def run(self) -> None:
        """The node's life until stop(), a signal or the client closing; raises NodeError."""
        previous = {}
        if self.handle_signals and threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                # Only a flag: a handler must not take the event queue's lock.
                previous[number] = signal.signal(
                    number, lambda n, _frame: setattr(self, "_signal", n))
        try:
            self._connect_client()
            self._notify_ready(0, False, "")
            while self._loop_once():
                pass
        finally:
            self._shutdown()
            for number, handler in previous.items():
                signal.signal(number, handler)

    # Internals.
    def _connect_client(self) -> None:
        deadline = time.monotonic() + self.connect_timeout
        while True:
            try:
                self._client = Connection.connect(
                    self.client_endpoint, min(self.request_timeout, 5.0),
                    lambda f: self._events.put(("client", None, f, 0)),
                    lambda r: self._events.put(("client_closed", r, None, 0)))
                break
            except OSError as error:
                if time.monotonic() + self.retry_period > deadline:
                    raise NodeError(f"cannot reach the client at {self.client_endpoint}: "
                                    f"{error}") from error
                time.sleep(self.retry_period)
        self._client.request("RegisterVehicleNode", {
            "worker_id": self.worker_id, "node_name": self.node_name, "token": self.token},
            b"", self.request_timeout)

    def _notify_ready(self, scenario: int, rerun: bool, reason: str) -> None:
        reply = self._client.request("NotifyReady", {
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
        if kind == "client" and frame.type == "VehicleNodeOperatingInfo":
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
            self._data.request("AttachNode", {"node_name": self.node_name, "token": self.token},
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
        if frame.type == "RunStart":
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
        elif frame.type == "Step":
            sync = self._run is None or self._run.get("sync", True)
            try:
                step = Step(frame.message, frame.attachment)
                control = self.on_step(step) if self._run is not None else None
            except Exception as error:  # a bad reading or a node failure: an Error reply
                if sync:
                    data.reply_error(frame.reference, f"Step: {error}")
                return
            response = _step_response(control, step.time)
            if sync:
                data.reply(frame, response)
            elif response:
                data.send("Control", response)
        elif frame.type == "VehicleStatus":
            if not frame.message.get("enabled", False) and self._run is not None:
                self._disabled_at = time.monotonic()
                self._preempted = self._preempted or frame.message.get("preempted", False)
        elif frame.type == "RunEnd" and self._run is not None:
            self._end_run(frame.message,
                          frame.message.get("preempted", False) or self._preempted)

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
                client.request("UnregisterVehicleNode", {
                    "worker_id": self.worker_id, "node_name": self.node_name}, b"", 2.0)
            except NodeError as error:
                print(f"[node {self.node_name}] unregister failed: {error}", file=sys.stderr)
            client.close("node shutting down")
