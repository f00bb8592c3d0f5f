"""Sensor readings of a Step: headers with "offset" and "size" into the frame attachment
(scene/sensor_reading.h), and their decoders.
"""

from __future__ import annotations

import array
import math
import sys
from dataclasses import dataclass, field
from typing import Optional

LABEL_SKY, LABEL_TRAVERSABLE, LABEL_NON_TRAVERSABLE = 0, 1, 2


class ReadingError(ValueError):
    """A sensor reading whose header does not fit its attachment."""


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
