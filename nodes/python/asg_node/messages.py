"""Bodies of the messages a node sends: PhysXControl and the reply to a Step (or a Control).

Units: speed [m/s], steering [deg, positive right], stamps [s].
"""

from __future__ import annotations

from typing import Optional


def physx_control(speed: float, steering: float, handbrake: bool = False,
                  stamp: float = 0.0) -> dict:
    """A PhysXControl: target speed [m/s], steering [deg, positive right], at stamp [s]."""
    nanoseconds = round(stamp * 1e9)
    return {"header": {"stamp": {"sec": nanoseconds // 10**9, "nanosec": nanoseconds % 10**9},
                       "frame_id": ""},
            "longitudinal_velocity": speed, "steering_angle": steering, "handbrake": handbrake}


def step_response(control: Optional[dict], stamp: float) -> dict:
    """The StepResponse (or Control) body of what on_step returned: {} for None, "ego_control"
    for an EgoControl dict, else "control" with the PhysXControl fields not given filled in."""
    if control is None:
        return {}
    if any(key in control for key in ("forward_amount", "right_amount", "brake_amount",
                                      "drive_mode")):
        return {"ego_control": control}
    full = physx_control(0.0, 0.0, False, stamp)
    full.update(control)
    return {"control": full}
