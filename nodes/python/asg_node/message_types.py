"""Every frame type name the SDK sends or expects, in one table (protocol/frame.h, messages.h,
node_messages.h, generator_messages.h).

Each name matches the `kType` of a message struct in protocol/*.h, or a frame-level constant of
protocol/frame.h (Heartbeat, Error); tests/nodes/python_message_types_test.py checks this. A
request's reply is its type + RESPONSE_SUFFIX and carries the request's reference.
"""

from __future__ import annotations

# Frame level (protocol/frame.h).
HEARTBEAT = "Heartbeat"  # liveness frames; never reach a handler
ERROR = "Error"  # the reply to a request that failed: {"success": false, "description": ...}
RESPONSE_SUFFIX = "Response"  # appended to a request's type to form its reply's type

# Control plane, node -> client (requests).
REGISTER_VEHICLE_NODE = "RegisterVehicleNode"
UNREGISTER_VEHICLE_NODE = "UnregisterVehicleNode"
NOTIFY_READY = "NotifyReady"
SAVE_NODE_FILE = "SaveNodeFile"
# Control plane, client -> node (topic).
VEHICLE_NODE_OPERATING_INFO = "VehicleNodeOperatingInfo"

# Data plane, node -> worker: a request, then Control messages of asynchronous runs.
ATTACH_NODE = "AttachNode"
CONTROL = "Control"
# Data plane, worker -> node: requests (RunStart, Step) and topics (VehicleStatus, RunEnd).
RUN_START = "RunStart"
STEP = "Step"
VEHICLE_STATUS = "VehicleStatus"
RUN_END = "RunEnd"

# Scenario generators (docs/generator-protocol.md): generator -> client (a request), then
# client -> generator requests and a last topic.
REGISTER_GENERATOR = "RegisterGenerator"
PROPOSE_SCENARIOS = "ProposeScenarios"
SCENARIO_RESULTS = "ScenarioResults"
SEARCH_ENDED = "SearchEnded"

# The table: constant name -> frame type name, for every type above except the suffix.
MESSAGE_TYPES: dict[str, str] = {
    "HEARTBEAT": HEARTBEAT,
    "ERROR": ERROR,
    "REGISTER_VEHICLE_NODE": REGISTER_VEHICLE_NODE,
    "UNREGISTER_VEHICLE_NODE": UNREGISTER_VEHICLE_NODE,
    "NOTIFY_READY": NOTIFY_READY,
    "SAVE_NODE_FILE": SAVE_NODE_FILE,
    "VEHICLE_NODE_OPERATING_INFO": VEHICLE_NODE_OPERATING_INFO,
    "ATTACH_NODE": ATTACH_NODE,
    "CONTROL": CONTROL,
    "RUN_START": RUN_START,
    "STEP": STEP,
    "VEHICLE_STATUS": VEHICLE_STATUS,
    "RUN_END": RUN_END,
    "REGISTER_GENERATOR": REGISTER_GENERATOR,
    "PROPOSE_SCENARIOS": PROPOSE_SCENARIOS,
    "SCENARIO_RESULTS": SCENARIO_RESULTS,
    "SEARCH_ENDED": SEARCH_ENDED,
}

# Frame-level names defined by protocol/frame.h rather than by a message struct.
FRAME_LEVEL_TYPES: frozenset[str] = frozenset({HEARTBEAT, ERROR})

# Requests whose replies the SDK sends or expects (their replies are REQUEST + RESPONSE_SUFFIX).
REQUEST_TYPES: frozenset[str] = frozenset({
    REGISTER_VEHICLE_NODE, UNREGISTER_VEHICLE_NODE, NOTIFY_READY, SAVE_NODE_FILE, ATTACH_NODE,
    RUN_START, STEP, REGISTER_GENERATOR, PROPOSE_SCENARIOS, SCENARIO_RESULTS})


def response_type(request_type: str) -> str:
    """The reply type of a request: response_type("NotifyReady") == "NotifyReadyResponse"."""
    return request_type + RESPONSE_SUFFIX


def is_reply_type(type_: str) -> bool:
    """True for Error and for any type ending in RESPONSE_SUFFIX."""
    return type_ == ERROR or type_.endswith(RESPONSE_SUFFIX)
