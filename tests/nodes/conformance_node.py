#!/usr/bin/env python3
"""A vehicle node written from docs/vehicle-nodes.md alone (no SDK), for the conformance tests.

It plays the documented sequences with the Python standard library only: the frames of "Wire
format", the control plane (RegisterVehicleNode, VehicleNodeOperatingInfo, NotifyReady,
SaveNodeFile, UnregisterVehicleNode) and the data plane (AttachNode, RunStart, VehicleStatus,
Step, StepResponse, RunEnd). It never sends a Heartbeat (the doc makes them optional for nodes).
It drives toward RunStart's goal with a PhysXControl without header: 5 m/s, steering
clamp(-1.5 * wrap(bearing - yaw), -30, 30) [deg], positive = right.

Every frame type received is logged to stderr, one line each; --report FILE gets a JSON summary
at exit: frame counts per plane, the sensor reading header keys per sensor type, the keys of the
detections, the readings of each sensor, uploads and their answers, rerun answers, preempted
runs, every NotifyReady sent.

Usage: conformance_node.py --connect HOST:PORT --worker-id N --name NAME [--report FILE]
         [--token T] [--slow-ticks 3,10 --slow-seconds S] [--exit-at-tick K] [--no-attach]
         [--upload] [--rerun-once]
Exit code: 0 when the client closes the control connection (the end of the batch).
"""
import argparse
import json
import math
import os
import select
import socket
import struct
import sys
import time

MAGIC = b"ASG1"
HEADER = struct.Struct(">4sII")
MAX_FRAME = 64 * 1024 * 1024


class Closed(Exception):
    """The peer closed the connection."""


class Link:
    """One framed TCP connection (a plane): buffered reads, numbered requests."""

    def __init__(self, sock, plane):
        self.sock = sock
        self.plane = plane
        self.buffer = bytearray()
        self.next_reference = 1
        self.closed = False

    def fileno(self):
        return self.sock.fileno()

    def send(self, type_, message, reference=None, attachment=b""):
        """Sends a frame; a request or message without `reference` gets a fresh one."""
        if reference is None:
            reference = self.next_reference
            self.next_reference += 1
        body = json.dumps({"type": type_, "reference": reference, "message": message},
                          allow_nan=False).encode("utf-8")
        self.sock.sendall(HEADER.pack(MAGIC, len(body), len(attachment)) + body + attachment)
        return reference

    def fill(self):
        """Reads what is available; raises Closed at the end of the stream."""
        try:
            chunk = self.sock.recv(1 << 20)
        except (ConnectionResetError, BrokenPipeError):
            chunk = b""
        if not chunk:
            self.closed = True
            raise Closed(self.plane)
        self.buffer += chunk

    def frames(self):
        """Every complete frame buffered: (type, reference, message, attachment)."""
        while len(self.buffer) >= HEADER.size:
            magic, json_length, attachment_length = HEADER.unpack_from(self.buffer)
            if magic != MAGIC or json_length + attachment_length > MAX_FRAME:
                raise RuntimeError(f"{self.plane}: bad frame header {bytes(self.buffer[:12])!r}")
            end = HEADER.size + json_length + attachment_length
            if len(self.buffer) < end:
                return
            envelope = json.loads(bytes(self.buffer[HEADER.size:HEADER.size + json_length]))
            attachment = bytes(self.buffer[HEADER.size + json_length:end])
            del self.buffer[:end]
            if set(envelope) != {"type", "reference", "message"}:
                raise RuntimeError(f"{self.plane}: bad envelope keys {sorted(envelope)}")
            yield envelope["type"], envelope["reference"], envelope["message"], attachment

    def close(self):
        self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass


STARTED = time.monotonic()


def log(*words):
    print(f"conformance_node {time.monotonic() - STARTED:7.3f}:", *words, file=sys.stderr,
          flush=True)


def wrap_degrees(angle):
    """The angle in (-180, 180]."""
    angle = math.fmod(angle, 360.0)
    if angle > 180.0:
        angle -= 360.0
    elif angle <= -180.0:
        angle += 360.0
    return angle


def yaw_degrees(q):
    """Yaw of a quaternion, counter-clockwise from +x, per the doc's Quaternion section."""
    return math.degrees(math.atan2(2.0 * (q["w"] * q["z"] + q["x"] * q["y"]),
                                   1.0 - 2.0 * (q["y"] ** 2 + q["z"] ** 2)))


def split_endpoint(endpoint):
    host, port = endpoint.rsplit(":", 1)
    return host.strip("[]"), int(port)


class Node:
    def __init__(self, options):
        self.options = options
        self.slow_ticks = {int(t) for t in options.slow_ticks.split(",") if t.strip()}
        self.control = None
        self.data = None
        self.attached_endpoint = None  # the endpoint of the current (or last) data connection
        self.prev_ok = False
        self.early_run_start = None  # n when RunStart for n came before the info handing n out
        self.handing = None  # the scenario handed out last: {n, run_start, run_end, ready_sent}
        self.pending = {}  # (plane, reference) -> what the request was
        self.continuations = []  # [set of (plane, reference), callback]
        self.run = None  # the current run: RunStart's message and the Step checks
        self.rerun_asked = False
        self.runs_done = 0
        self.report = {
            "name": options.name,
            "worker_id": options.worker_id,
            "received": {"control": {}, "data": {}},
            "sent": {"control": {}, "data": {}},
            "register": None,
            "attach": [],
            "operating_info": [],
            "notify_ready": [],
            "run_starts": [],
            "vehicle_status": [],
            "run_ends": [],
            "preempted_runs": [],
            "steps": 0,
            "step_problems": [],
            "steps_per_run": [],
            "reading_keys": {},
            "detection_object_keys": [],
            "readings_per_sensor": {},
            "reading_orders": [],
            "sensors": [],
            "uploads": [],
            "reruns": [],
            "errors": [],
            "unregister": None,
            "exit": None,
        }

    # Sending and receiving.

    def send(self, link, type_, message, reference=None, attachment=b"", expect=None):
        reference = link.send(type_, message, reference, attachment)
        sent = self.report["sent"][link.plane]
        sent[type_] = sent.get(type_, 0) + 1
        if expect is not None:
            self.pending[(link.plane, reference)] = expect
        return reference

    def links(self):
        return [link for link in (self.control, self.data) if link is not None and not link.closed]

    def pump(self, timeout):
        """Waits up to `timeout` for frames and handles them, the control plane first."""
        ready = select.select(self.links(), [], [], timeout)[0]
        for link in sorted(ready, key=lambda l: l.plane != "control"):
            if link.closed:
                continue
            try:
                link.fill()
            except Closed:
                self.on_closed(link)
                continue
            self.dispatch(link)

    def drain(self, link):
        """Handles whatever `link` has already received, without waiting."""
        while link is not None and not link.closed and select.select([link], [], [], 0)[0]:
            try:
                link.fill()
            except Closed:
                self.on_closed(link)
                return
            self.dispatch(link)

    def dispatch(self, link):
        for type_, reference, message, attachment in link.frames():
            received = self.report["received"][link.plane]
            received[type_] = received.get(type_, 0) + 1
            log(f"{link.plane} <- {type_} reference {reference}")
            handler = getattr(self, "on_" + type_, None)
            if type_ == "Error" or type_.endswith("Response"):
                self.on_reply(link, type_, reference, message)
            elif handler is not None:
                handler(link, reference, message, attachment)
            elif type_ != "Heartbeat":
                log(f"unexpected frame type {type_}")
                self.report["errors"].append(f"unexpected {type_} on {link.plane}")

    def on_reply(self, link, type_, reference, message):
        key = (link.plane, reference)
        what = self.pending.pop(key, None)
        if what is None:
            log(f"dropped {type_} reference {reference}: no such request")
            return
        if type_ == "Error":
            log(f"Error for {what['type']} reference {reference}: {message.get('description')}")
            self.report["errors"].append({"request": what["type"], "error": message})
        elif type_ != what["type"] + "Response":
            self.report["errors"].append(f"{type_} answers a {what['type']}")
        callback = what.get("on_reply")
        if callback is not None:
            callback(type_, message)
        for continuation in list(self.continuations):
            continuation[0].discard(key)
            if not continuation[0]:
                self.continuations.remove(continuation)
                continuation[1]()

    def on_closed(self, link):
        log(f"{link.plane} connection closed by the peer")
        if link is not self.control:
            link.close()  # the control socket stays open for UnregisterVehicleNode
        if link is self.control:
            self.report["control_closed_at"] = time.time()
        elif link is self.data:
            self.report["data_closed"] = self.report.get("data_closed", 0) + 1
            if self.run is not None:
                # The worker went away during a run: no RunEnd will come for it.
                self.run = None
                if self.handing is not None:
                    self.handing["data_lost"] = True
            self.maybe_ready_after_release()

    # Control plane.

    def start(self):
        host, port = split_endpoint(self.options.connect)
        self.control = Link(socket.create_connection((host, port), timeout=10), "control")
        self.control.sock.settimeout(None)
        registration = {"worker_id": self.options.worker_id, "node_name": self.options.name}
        if self.options.token:
            registration["token"] = self.options.token

        def registered(type_, message):
            self.report["register"] = {"type": type_, "message": message}
            if type_ == "Error":
                raise RuntimeError(f"registration refused: {message.get('description')}")

        self.send(self.control, "RegisterVehicleNode", registration,
                  expect={"type": "RegisterVehicleNode", "on_reply": registered})
        self.notify_ready(0, "registered")

    def notify_ready(self, n, trigger, rerun=False, reason=""):
        entry = {"scenario": n, "trigger": trigger, "request_rerun": rerun, "answer": None}
        self.report["notify_ready"].append(entry)

        def answered(type_, message):
            entry["answer"] = message if type_ != "Error" else {"error": message}
            if rerun:
                self.report["reruns"].append({"scenario": n, "reply": type_, "message": message})

        message = {"worker_id": self.options.worker_id, "node_name": self.options.name,
                   "last_scenario_number": n, "request_rerun": rerun,
                   "reason_for_rerun": reason}
        self.send(self.control, "NotifyReady", message,
                  expect={"type": "NotifyReady", "on_reply": answered})
        if self.handing is not None and self.handing["n"] == n:
            self.handing["ready_sent"] = True

    def on_VehicleNodeOperatingInfo(self, link, reference, message, attachment):
        ids = message["worker_ids"]
        if self.options.worker_id not in ids:
            return
        i = ids.index(self.options.worker_id)
        endpoints = message.get("data_endpoints", [])
        endpoint = endpoints[i] if i < len(endpoints) else ""
        ok = message["ok_to_run"][i]
        n = message["scenario_numbers"][i]
        self.report["operating_info"].append(
            {"scenario": n, "ok_to_run": ok, "save_dir": message["save_dirs"][i],
             "save_minimal": message["save_minimal"][i], "data_endpoint": endpoint})
        if endpoint and endpoint != self.attached_endpoint and not self.options.no_attach:
            self.attach(endpoint)
        if ok and (not self.prev_ok or self.handing is None or self.handing["n"] != n):
            # The gate opened: the worker was handed scenario n (again, for a rerun), unless
            # this is the info of a handing whose RunStart came first.
            if self.early_run_start == n:
                self.early_run_start = None
            else:
                self.handing = {"n": n, "run_start": False, "run_end": False,
                                "ready_sent": False, "released": False, "data_lost": False}
        if not ok and self.prev_ok and self.handing is not None and self.handing["n"] == n:
            self.handing["released"] = True
            # A RunEnd sent before the release may still be unread on the data plane.
            self.drain(self.data)
            self.maybe_ready_after_release()
        self.prev_ok = ok

    def maybe_ready_after_release(self):
        """NotifyReady n once scenario n is released without a RunEnd for it."""
        h = self.handing
        if h is None or not h["released"] or h["ready_sent"] or h["run_end"]:
            return
        if h["run_start"] and not h["data_lost"]:
            return  # the RunEnd is still to come on the data plane
        self.notify_ready(h["n"], "released without RunEnd")

    def on_Heartbeat(self, link, reference, message, attachment):
        pass

    def upload(self, n, relative_path, content, expect_error):
        entry = {"scenario": n, "relative_path": relative_path,
                 "content": content.decode("utf-8"), "expect_error": expect_error,
                 "reply": None, "message": None}
        self.report["uploads"].append(entry)

        def answered(type_, message):
            entry["reply"], entry["message"] = type_, message
            refused = type_ == "Error"
            entry["as_expected"] = refused == expect_error
            log(f"upload {relative_path!r}: {type_} {json.dumps(message)}"
                f" ({'as expected' if entry['as_expected'] else 'NOT as expected'})")

        # Left out on purpose: worker_id and node_name (the doc says they may be).
        reference = self.send(self.control, "SaveNodeFile",
                              {"scenario_number": n, "relative_path": relative_path},
                              attachment=content,
                              expect={"type": "SaveNodeFile", "on_reply": answered})
        return ("control", reference)

    # Data plane.

    def attach(self, endpoint):
        if self.data is not None and not self.data.closed:
            self.data.close()
        self.attached_endpoint = endpoint
        try:
            sock = socket.create_connection(split_endpoint(endpoint), timeout=10)
        except OSError as error:
            log(f"cannot connect to {endpoint}: {error}")
            self.report["attach"].append({"endpoint": endpoint, "error": str(error)})
            return
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.data = Link(sock, "data")
        entry = {"endpoint": endpoint, "reply": None}
        self.report["attach"].append(entry)

        def answered(type_, message):
            entry["reply"] = type_

        request = {"node_name": self.options.name}
        if self.options.token:
            request["token"] = self.options.token
        self.send(self.data, "AttachNode", request,
                  expect={"type": "AttachNode", "on_reply": answered})

    def on_RunStart(self, link, reference, message, attachment):
        n = message["scenario_number"]
        # The doc's order (Ready gate; One run, steps 7 and 8): the operating info that hands n
        # out (ok_to_run true) comes before RunStart. Recorded; the node copes either way.
        info_first = (self.handing is not None and self.handing["n"] == n and self.prev_ok
                      and not self.handing["run_start"])
        if not info_first:
            log(f"RunStart for scenario {n} before the operating info that hands it out")
            self.early_run_start = n
            self.handing = {"n": n, "run_start": False, "run_end": False, "ready_sent": False,
                            "released": False, "data_lost": False}
        self.handing["run_start"] = True
        self.run = {"n": n, "start": message, "next_tick": 0}
        self.report["run_starts"].append(
            {"scenario": n, "info_first": info_first, "sync": message["sync"],
             "control_period": message["control_period"],
             "run": message.get("run", 0), "run_seed": message.get("run_seed", 0)})
        self.report["sensors"] = message.get("sensors", [])
        self.send(link, "RunStartResponse", {"ready": True}, reference)

    def on_VehicleStatus(self, link, reference, message, attachment):
        self.report["vehicle_status"].append(
            {"scenario": self.handing["n"] if self.handing else None,
             "after_run_start": self.run is not None, **message})

    def check_readings(self, message, attachment):
        """The Step's readings against the doc's Sensor readings rules."""
        problems = self.report["step_problems"]
        offset = 0
        labels = []
        for header in message.get("readings", []):
            kind = header.get("type")
            keys = self.report["reading_keys"].setdefault(kind, [])
            for key in header:
                if key not in keys:
                    keys.append(key)
            if kind == "detection":
                object_keys = self.report["detection_object_keys"]
                for detection in header.get("detections", []):
                    object_keys.extend(k for k in detection if k not in object_keys)
            label = header.get("name", "?")
            if kind == "camera":
                label += "/" + str(header.get("encoding"))
            labels.append(label)
            counts = self.report["readings_per_sensor"]
            counts[label] = counts.get(label, 0) + 1
            if header.get("offset") != offset and len(problems) < 20:
                problems.append(f"tick {message['tick']}: {label} offset {header.get('offset')}"
                                f" instead of {offset}")
            offset += header.get("size", 0)
        orders = self.report["reading_orders"]
        if labels not in orders:
            orders.append(labels)
        if offset != len(attachment) and len(problems) < 20:
            problems.append(f"tick {message['tick']}: readings cover {offset} bytes, the"
                            f" attachment has {len(attachment)}")

    def control_for(self, odometry):
        goal = self.run["start"]["vehicle_goal_location"]
        position = odometry["pose"]["position"]
        bearing = math.degrees(math.atan2(goal["y"] - position["y"], goal["x"] - position["x"]))
        error = wrap_degrees(bearing - yaw_degrees(odometry["pose"]["orientation"]))
        steering = max(-30.0, min(30.0, -1.5 * error))  # positive = right
        # A PhysXControl without header (the doc: "may be left out").
        return {"longitudinal_velocity": 5.0, "steering_angle": steering, "handbrake": False}

    def on_Step(self, link, reference, message, attachment):
        tick = message["tick"]
        if self.options.exit_at_tick is not None and tick == self.options.exit_at_tick:
            log(f"exiting abruptly at tick {tick}")
            self.report["exit"] = f"os._exit at tick {tick}"
            self.write_report()
            os._exit(3)
        self.report["steps"] += 1
        if self.run is None:
            self.report["errors"].append(f"Step tick {tick} outside a run")
            return
        if tick != self.run["next_tick"] and len(self.report["step_problems"]) < 20:
            self.report["step_problems"].append(f"tick {tick} after {self.run['next_tick'] - 1}")
        self.run["next_tick"] = tick + 1
        expected_time = tick * self.run["start"]["control_period"]
        if abs(message["time"] - expected_time) > 1e-6 and len(self.report["step_problems"]) < 20:
            self.report["step_problems"].append(f"tick {tick}: time {message['time']}")
        self.check_readings(message, attachment)
        if tick in self.slow_ticks:
            log(f"sleeping {self.options.slow_seconds} s before answering tick {tick}")
            time.sleep(self.options.slow_seconds)
        body = {"control": self.control_for(message["odometry"])}
        if self.run["start"]["sync"]:
            self.send(link, "StepResponse", body, reference)
        else:
            self.send(link, "Control", body)

    def on_RunEnd(self, link, reference, message, attachment):
        n = message["scenario_number"]
        ticks = self.run["next_tick"] if self.run is not None else 0
        had_run_start = self.run is not None
        self.run = None
        entry = {"after_run_start": had_run_start, "steps": ticks, **message}
        self.report["run_ends"].append(entry)
        self.report["steps_per_run"].append(ticks)
        if self.handing is not None and self.handing["n"] == n:
            self.handing["run_end"] = True
        if message.get("preempted", False):
            # Discard the run: no uploads, no rerun request (A preemption, step 4).
            self.report["preempted_runs"].append(entry)
            self.notify_ready(n, "preempted RunEnd")
            return
        self.runs_done += 1
        waiting = set()
        if self.options.upload:
            content = (f"node {self.options.name} scenario {n} run {self.runs_done}: {ticks} steps,"
                       f" {message.get('termination_reason_name')}"
                       f" at {message['vehicle_sim_time']} s\n").encode()
            waiting.add(self.upload(n, f"run_{n}.txt", content, expect_error=False))
            waiting.add(self.upload(n, "../escape.txt", b"must not be written\n",
                                    expect_error=True))
        rerun = self.options.rerun_once and not self.rerun_asked
        self.rerun_asked = self.rerun_asked or rerun

        def ready():
            self.notify_ready(n, "RunEnd", rerun=rerun,
                              reason="conformance test: run it again" if rerun else "")

        if waiting:
            # Upload before the NotifyReady for that scenario (Node files).
            self.continuations.append([waiting, ready])
        else:
            ready()

    # The end.

    def unregister(self):
        """UnregisterVehicleNode before leaving, if the socket still takes it: at the end of the
        batch the client has closed its end already, so nothing answers it."""
        try:
            self.send(self.control, "UnregisterVehicleNode",
                      {"worker_id": self.options.worker_id, "node_name": self.options.name})
            self.report["unregister"] = "sent"
        except OSError as error:
            self.report["unregister"] = f"not sent: {error}"

    def write_report(self):
        if not self.options.report:
            return
        temporary = self.options.report + ".tmp"
        with open(temporary, "w") as f:
            json.dump(self.report, f, indent=1)
        os.replace(temporary, self.options.report)

    def main(self):
        self.start()
        while self.control is not None and not self.control.closed:
            self.pump(1.0)
        self.unregister()
        self.control.close()
        if self.data is not None:
            self.data.close()
        self.report["exit"] = "control connection closed"
        self.report["pending_requests"] = [f"{plane} {reference} {what['type']}"
                                           for (plane, reference), what in self.pending.items()]
        self.write_report()
        return 0


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connect", required=True, help="the client's HOST:PORT")
    parser.add_argument("--worker-id", type=int, required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--token", default="")
    parser.add_argument("--report", default="", help="JSON summary written at exit")
    parser.add_argument("--slow-ticks", default="", help="ticks answered late, e.g. 3,10")
    parser.add_argument("--slow-seconds", type=float, default=0.0)
    parser.add_argument("--exit-at-tick", type=int, default=None)
    parser.add_argument("--no-attach", action="store_true")
    parser.add_argument("--upload", action="store_true")
    parser.add_argument("--rerun-once", action="store_true")
    return parser.parse_args(argv)


if __name__ == "__main__":
    node = Node(parse_arguments(sys.argv[1:]))
    try:
        sys.exit(node.main())
    except Exception as error:  # report what happened, then fail
        node.report["exit"] = f"{type(error).__name__}: {error}"
        node.write_report()
        raise
