"""ASG Farm vehicle nodes and scenario generators in Python, standard library only
(docs/vehicle-nodes.md, docs/generator-protocol.md).

Subclass VehicleNode, override the on_* methods, call run(). The node registers with the
client, sends NotifyReady(0), attaches to its worker's data endpoint from the operating info,
answers RunStart and every Step, and at the end of a run calls on_run_end (save files with
save_file, return (rerun, reason)), on_reset, then NotifyReady(scenario). SIGINT / SIGTERM (or
stop()) unregister and close. Frames: b"ASG1", big-endian JSON and attachment lengths, JSON
envelope {"type", "reference", "message"}, attachment bytes; heartbeats every 0.5 s.

Threading: run() calls every on_* method on its own thread, one at a time; socket readers and
heartbeats run on daemon threads. stop(), send_control() and save_file() are thread-safe.

Modules: message_types (every frame type name), framing (Frame, Connection), readings (Step and
the sensor decoders), messages (control bodies), node (VehicleNode), generator
(ScenarioGenerator: the "external" search strategy's side of the protocol).
"""

from __future__ import annotations

from . import message_types
from .framing import (HEADER, HEARTBEAT_PERIOD, MAGIC, MAX_FRAME_BYTES, PEER_TIMEOUT,
                      Connection, Frame, NodeError)
from .messages import physx_control
from .messages import step_response as _step_response
from .generator import ScenarioGenerator, obstacle, proposal
from .node import VehicleNode
from .readings import (LABEL_NON_TRAVERSABLE, LABEL_SKY, LABEL_TRAVERSABLE, Image, ReadingError,
                       Step, decode_image, decode_lidar, reading_data)
from .readings import _floats

__all__ = [
    "HEADER", "MAGIC", "MAX_FRAME_BYTES", "HEARTBEAT_PERIOD", "PEER_TIMEOUT",
    "LABEL_SKY", "LABEL_TRAVERSABLE", "LABEL_NON_TRAVERSABLE",
    "NodeError", "ReadingError", "Frame", "Connection",
    "reading_data", "Image", "decode_image", "decode_lidar", "Step",
    "physx_control", "VehicleNode", "message_types",
    "ScenarioGenerator", "obstacle", "proposal",
]
