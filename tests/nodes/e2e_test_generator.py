"""A scenario generator for the end-to-end tests of the "external" strategy
(tests/client/search/e2e_generator_test.cpp): random search (nodes/python/examples/random_generator.py)
with a misbehaviour chosen by --mode:

  outside-first   round 0 of every ask proposes an actor 1 km outside the space; the refusals
                  are printed ("refused: <reason>") and the next round proposes valid ones
  fail-second-ask the second ProposeScenarios raises (the client must stop the search)
  print-told      every result told is printed ("told: <id> <failure_id or None>")

    python3 e2e_test_generator.py --connect HOST:PORT --mode MODE
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "nodes", "python", "examples"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "nodes", "python"))
import asg_node  # noqa: E402
from random_generator import RandomSearch  # noqa: E402


class TestGenerator(RandomSearch):
    def __init__(self, mode: str, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.mode = mode
        self.asks = 0

    def propose(self, count: int, first_id: int, rejected: list[dict]) -> list[dict]:
        for refusal in rejected:
            print(f"refused: {refusal['index']}: {refusal['reason']}", flush=True)
        if not rejected:
            self.asks += 1
        if self.mode == "fail-second-ask" and self.asks == 2:
            raise RuntimeError("deliberate failure in the second ask")
        proposals = super().propose(count, first_id, rejected)
        if self.mode == "outside-first" and not rejected:
            far = self.space["classes"][0]
            proposals[0]["obstacles"].append(asg_node.obstacle(far["path_name"], 1000.0, 5.0))
        return proposals

    def tell(self, results: list[dict]) -> None:
        if self.mode == "print-told":
            for result in results:
                print(f"told: {result['id']} {result['failure_id']}", flush=True)
        super().tell(results)


def main() -> int:
    parser = argparse.ArgumentParser(description="a misbehaving scenario generator for tests")
    parser.add_argument("--connect", required=True)
    parser.add_argument("--mode", required=True, choices=["outside-first", "fail-second-ask", "print-told"])
    args = parser.parse_args()
    generator = TestGenerator(args.mode, args.connect, "test-" + args.mode)
    print(f"ended: {generator.run()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
