"""A tiny vehicle node: steers straight at the goal from odometry only.

The law is the built-in "straight" driver's: steering = -1.5 deg per deg of heading error
(positive error = goal to the left), clamped to the vehicle's limit, at a constant speed.

    python3 straight_node.py --connect 127.0.0.1:9000 --worker-id 1 --name straight [--token T]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import asg_node  # noqa: E402

GAIN = 1.5  # [deg/deg] steering per heading error


def straight_control(goal: tuple[float, float], position: tuple[float, float], yaw: float,
                     max_steering: float, speed: float, stamp: float) -> dict:
    """The control for a vehicle at position [m] with yaw [deg] heading for goal [m]."""
    bearing = math.atan2(goal[1] - position[1], goal[0] - position[0]) * 180.0 / math.pi
    error = math.remainder(bearing - yaw, 360.0)
    steering = min(max(-GAIN * error, -max_steering), max_steering)
    return asg_node.physx_control(speed, steering, False, stamp)


class StraightNode(asg_node.VehicleNode):
    """Heads for the goal of each run."""

    def __init__(self, speed: float, **kwargs) -> None:
        super().__init__(**kwargs)
        self.speed = speed
        self.goal = (0.0, 0.0)
        self.max_steering = 30.0

    def on_run_start(self, run: dict) -> None:
        """Keeps the goal and the steering limit."""
        goal = run["vehicle_goal_location"]
        self.goal = (goal["x"], goal["y"])
        self.max_steering = run.get("vehicle", {}).get("max_steering_angle", 30.0)

    def on_step(self, step: asg_node.Step) -> Optional[dict]:
        """Steers at the goal."""
        x, y, _ = step.position
        return straight_control(self.goal, (x, y), step.yaw, self.max_steering, self.speed,
                                step.time)


def main() -> int:
    """Parses the command line and runs the node until SIGINT / SIGTERM."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connect", required=True, help="the client's HOST:PORT")
    parser.add_argument("--worker-id", type=int, required=True, help="worker to drive")
    parser.add_argument("--name", default="straight", help="node name")
    parser.add_argument("--token", default=None, help="shared secret (default: ASG_TOKEN)")
    parser.add_argument("--speed", type=float, default=5.0, help="[m/s] target speed")
    args = parser.parse_args()
    node = StraightNode(args.speed, client_endpoint=args.connect, worker_id=args.worker_id,
                        node_name=args.name, token=args.token)
    try:
        node.run()
    except asg_node.NodeError as error:
        print(f"straight_node: {error}", file=sys.stderr)
        return 1
    print(f"straight_node: {node.stop_reason}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
