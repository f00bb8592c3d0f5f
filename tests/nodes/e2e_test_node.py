"""A test vehicle node for the end-to-end tests (tests/client/nodes/e2e_nodes_test.cpp).

The example straight node plus test behaviours: a delay per Step (so a run lasts long enough to
be killed), one rerun request per scenario, and node-file uploads after each finished run. Each
upload's outcome is printed to stderr as "upload <relative_path>: <path written>" or
"upload <relative_path> refused: <reason>".

    python3 e2e_test_node.py --connect HOST:PORT --worker-id 1 --name NAME
        [--step-delay S] [--request-rerun-once] [--upload RELATIVE_PATH ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "nodes", "python"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "nodes", "python", "examples"))
import asg_node  # noqa: E402
import straight_node  # noqa: E402


class TestNode(straight_node.StraightNode):
    """The straight node with the test behaviours of the command line."""

    def __init__(self, step_delay: float, rerun_once: bool, uploads: list[str],
                 **kwargs) -> None:
        super().__init__(5.0, **kwargs)
        self.step_delay = step_delay
        self.rerun_once = rerun_once
        self.uploads = uploads
        self.rerun_asked: set[int] = set()

    def on_step(self, step: asg_node.Step) -> Optional[dict]:
        """Steers at the goal, slowly when asked."""
        if self.step_delay > 0:
            time.sleep(self.step_delay)
        return super().on_step(step)

    def on_run_end(self, end: dict, preempted: bool) -> tuple[bool, str]:
        """Uploads the files and asks for one rerun per scenario when told to."""
        if preempted:
            return False, ""
        scenario = end["scenario_number"]
        for relative_path in self.uploads:
            try:
                written = self.save_file(relative_path, f"scenario {scenario}\n".encode())
                print(f"upload {relative_path}: {written}", file=sys.stderr, flush=True)
            except asg_node.NodeError as error:
                print(f"upload {relative_path} refused: {error}", file=sys.stderr, flush=True)
        if self.rerun_once and scenario not in self.rerun_asked:
            self.rerun_asked.add(scenario)
            return True, f"test rerun of scenario {scenario}"
        return False, ""


def main() -> int:
    """Parses the command line and runs the node until SIGINT / SIGTERM."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connect", required=True, help="the client's HOST:PORT")
    parser.add_argument("--worker-id", type=int, required=True, help="worker to drive")
    parser.add_argument("--name", default="test", help="node name")
    parser.add_argument("--step-delay", type=float, default=0.0, help="[s] sleep per Step")
    parser.add_argument("--request-rerun-once", action="store_true",
                        help="ask for one rerun of every scenario")
    parser.add_argument("--upload", action="append", default=[],
                        help="relative path to upload after each run (repeatable)")
    args = parser.parse_args()
    node = TestNode(args.step_delay, args.request_rerun_once, args.upload,
                    client_endpoint=args.connect, worker_id=args.worker_id, node_name=args.name)
    try:
        node.run()
    except asg_node.NodeError as error:
        print(f"e2e_test_node: {error}", file=sys.stderr, flush=True)
        return 1
    print(f"e2e_test_node: {node.stop_reason}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
