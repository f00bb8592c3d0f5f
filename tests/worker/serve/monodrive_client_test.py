#!/usr/bin/env python3
"""A monoDrive client, written from monoDrive's control-channel API alone, drives asg-worker --serve.

The client speaks monoDrive's framing: each message is the magic 0x6d6f6e6f, then the length of
the whole message (header included) as a 32-bit big-endian integer, then the JSON
{"type", "reference", "message"}; a reply has the same framing and the type of its request. It
asks GetVersion, configures a closed loop (the body is the farm's RunScenario request, with an IMU
to sample), drives with EgoControl_ID, steps with ClosedLoopStepCommand_ID, samples the sensors
and sets the weather in monoDrive's profile form; then tells the worker to quit. Standard library
only: no project code.

Usage: monodrive_client_test.py BUILD_BIN_DIR
"""
import base64
import json
import pathlib
import random
import socket
import struct
import subprocess
import sys
import time
import unittest

BIN = pathlib.Path(sys.argv[1]) if __name__ == "__main__" and len(sys.argv) > 1 else None
MAGIC = 0x6D6F6E6F
HEADER = struct.Struct("!II")  # magic, length of the whole message [bytes]
START_TIMEOUT = 20.0  # [s] for the "serving" line
REPLY_TIMEOUT = 10.0  # [s]
EXIT_TIMEOUT = 10.0  # [s] after the quit request

# The closed loop (the farm's RunScenario request): a flat 40 m landscape, the vehicle at (8, 8)
# heading 45 deg to (32, 32), an IMU and an occupancy grid to sample.
VIEWS = ["ortho_aerial", "perspective_aerial", "front_aerial", "left_front_aerial", "left_aerial",
         "left_rear_aerial", "rear_aerial", "right_rear_aerial", "right_aerial",
         "right_front_aerial", "vehicle_start_pov", "vehicle_start_rear_aerial"]
CLOSED_LOOP = {
    "scenario_number": 1,
    "sim_timeout_period": 12,
    "vehicle_idling_timeout_period": 5,
    "vehicle_stuck_timeout_period": 5,
    "max_vehicle_roll": 70,
    "max_vehicle_pitch": 70,
    "allow_collisions": True,
    "vehicle_start_location": {"x": 8, "y": 8, "z": 0},
    "vehicle_start_yaw": 45,
    "vehicle_goal_location": {"x": 32, "y": 32, "z": 0},
    "goal_radius": 4,
    "scene_description": {"landscape": {"nominal_size": 40, "subdivisions": 4},
                          "sunlight_inclination": 30, "sunlight_yaw_angle": 0, "ssa_array": []},
    "take_scene_capture": False,
    "scene_capture_only": False,
    "scene_capture_settings": dict(
        {view: False for view in VIEWS}, image_size=64, draw_annotations=False,
        goal_sphere_thickness=0.5, goal_shere_color={"r": 1, "g": 0, "b": 0, "a": 1},
        aerial_padding=[0]),
    "vehicle_nodes": {"sensors": [
        {"type": "imu", "name": "imu", "rate": 50},
        {"type": "occupancy_grid", "name": "grid", "width": 8, "height": 8, "rate": 20}]},
}

# monoDrive's weather_config: set_profile and a profile as monoDrive's sample configurations give.
SUNSET = {
    "id": "ClearSunset", "SunPolarAngle": 86, "SunAzimuthAngle": 174, "SunBrightness": 1.835,
    "SunDirectionalLightIntensity": 50,
    "SunDirectionalLightColor": {"R": 0.81, "G": 0.34747, "B": 0.1701, "A": 1.0},
    "SunIndirectLightIntensity": 73.394, "CloudOpacity": 27.63, "HorizontFalloff": 0.917,
    "ZenithColor": {"R": 0.046375, "G": 0.0441, "B": 0.105, "A": 1.0},
    "HorizonColor": {"R": 0.745, "G": 0.219006, "B": 0.046649, "A": 1.0},
    "CloudColor": {"R": 1.0, "G": 0.561587, "B": 0.189305, "A": 1.0},
    "OverallSkyColor": {"R": 1.0, "G": 1.0, "B": 1.0, "A": 1.0},
    "SkyLightIntensity": 14, "SkyLightColor": {"R": 0.07622, "G": 0.074724, "B": 0.109375, "A": 0},
    "bPrecipitation": False, "PrecipitationType": "Rain", "PrecipitationAmount": 0,
    "PrecipitationAccumulation": 0, "bWind": False, "WindIntensity": 20, "WindAngle": 0,
    "bOverrideCameraPostProcessParameters": True,
    "CameraPostProcessParameters": {"AutoExposureMethod": "Histogram",
                                    "AutoExposureMinBrightness": 0.27,
                                    "AutoExposureMaxBrightness": 5, "AutoExposureBias": -3.5},
}


class MonoDriveClient:
    """One TCP connection speaking monoDrive's framing; one reply read per command."""

    def __init__(self, host, port):
        self.sock = socket.create_connection((host, port), timeout=REPLY_TIMEOUT)

    def close(self):
        self.sock.close()

    def _read(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise AssertionError(f"connection closed after {len(data)} of {count} bytes")
            data += chunk
        return data

    def command(self, message_type, message):
        """Sends a command and returns its reply's envelope."""
        reference = random.randint(1, sys.maxsize)
        data = json.dumps({"type": message_type, "reference": reference,
                           "message": message}).encode("utf8")
        self.sock.sendall(HEADER.pack(MAGIC, len(data) + HEADER.size) + data)
        magic, size = HEADER.unpack(self._read(HEADER.size))
        if magic != MAGIC:
            raise AssertionError(f"reply magic is {magic:#x}, expected {MAGIC:#x}")
        reply = json.loads(self._read(size - HEADER.size).decode("utf8"))
        if reply["type"] != message_type or reply["reference"] != reference:
            raise AssertionError(f"{message_type} #{reference} answered by {reply}")
        return reply


class ServedWorker:
    """`asg-worker --serve 127.0.0.1:PORT` on a port that was free; `client` is connected."""

    def __init__(self):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process = subprocess.Popen(
            [str(BIN / "asg-worker"), "--serve", f"127.0.0.1:{self.port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                self.client = MonoDriveClient("127.0.0.1", self.port)
                return
            except ConnectionRefusedError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.kill()
                    raise AssertionError(f"asg-worker did not listen on {self.port} within "
                                         f"{START_TIMEOUT} s (exit code {self.process.poll()})")
                time.sleep(0.05)

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class MonoDriveClientTest(unittest.TestCase):
    def setUp(self):
        self.worker = ServedWorker()
        self.addCleanup(self.worker.kill)
        self.client = self.worker.client
        self.addCleanup(self.client.close)

    def message(self, message_type, body):
        return self.client.command(message_type, body)["message"]

    def test_a_closed_loop_driven_by_a_monodrive_client(self):
        version = self.message("GetVersion", {})
        self.assertRegex(version, r"^simulator_version: .*, api_version: 5\.0$")
        self.assertEqual(self.message("EgoControl_ID", {"forward_amount": 1.0}),
                         "no ego vehicle found")
        self.assertEqual(self.message("ClosedLoopConfigCommand_ID", CLOSED_LOOP),
                         "Successfully configured scenario.")
        self.assertEqual(self.message("EgoControl_ID", {"forward_amount": 0.5, "right_amount": 0.0,
                                                        "brake_amount": 0.0, "drive_mode": 1}),
                         "complete")
        self.assertIs(self.message("ClosedLoopStepCommand_ID", {"time_step": 1.0}), True)

        sample = self.message("SampleSensorsCommand_ID", {"timeout": 10000})
        self.assertEqual(sample["message"], "complete")
        readings = {reading["name"]: reading for reading in sample["readings"]}
        self.assertEqual(sorted(readings), ["grid", "imu"], sample["readings"])
        self.assertGreater(readings["imu"]["linear_acceleration"]["z"], 9.0)  # gravity: specific force
        grid = readings["grid"]
        data = base64.b64decode(sample["attachment_base64"])
        self.assertEqual(grid["size"], 8 * 8)
        self.assertLessEqual(grid["offset"] + grid["size"], len(data))

        self.assertEqual(self.message("WeatherConfig", {"set_profile": "ClearSunset",
                                                        "profiles": [SUNSET]}),
                         "Weather configured to ClearSunset")
        self.assertEqual(self.message("WeatherConfig", {"set_profile": "ClearSunset"}),
                         "Weather configured to ClearSunset")
        self.assertEqual(self.message("WeatherConfig", {"set_profile": "Foggy"}),
                         "Weather profile is invalid or missing")

        quitting = self.message("SetSimulationState", {"state": {"state": 3}})
        self.assertEqual(quitting["result"]["result"], 1, quitting)
        self.client.close()
        self.assertEqual(self.worker.process.wait(EXIT_TIMEOUT), 0)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
