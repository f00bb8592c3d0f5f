"""A scenario generator for the end-to-end tests of the "external" strategy
(tests/client/search/e2e_generator_test.cpp): random search (nodes/python/examples/random_generator.py)
with a misbehaviour chosen by --mode:

  outside-first   round 0 of every ask proposes an actor 1 km outside the space; the refusals
                  are printed ("refused: <reason>") and the next round proposes valid ones
  fail-second-ask the second ProposeScenarios raises (the client must stop the search)
  exit-third-round in the first ask, rounds 0 and 1 propose 4 valid scenarios each (a tree in
                  a corner of the space, far from start, goal and path; the rest 1 km outside
                  it) and the generator exits in round 2: the 8 accepted candidates must run
  print-told      every result told is printed ("told: <id> <failure_id or None>")
  propose-nothing every ask is answered with no scenario

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
        self.round = 0

    def propose(self, count: int, first_id: int, rejected: list[dict]) -> list[dict]:
        for refusal in rejected:
            print(f"refused: {refusal['index']}: {refusal['reason']}", flush=True)
        if not rejected:
            self.asks += 1
        self.round = self.round + 1 if rejected else 0
        if self.mode == "propose-nothing":
            return []
        if self.mode == "fail-second-ask" and self.asks == 2:
            raise RuntimeError("deliberate failure in the second ask")
        if self.mode == "exit-third-round" and self.asks == 1 and self.round == 2:
            print("exiting in round 2", flush=True)
            os._exit(3)
        if self.mode == "exit-third-round" and self.asks == 1:
            tree = self.space["classes"][0]["path_name"]
            return [asg_node.proposal([asg_node.obstacle(tree, 36.0 if i < 4 else 1000.0,
                                                         2.0 + self.round + i)],
                                      origin="corner") for i in range(count)]
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
    parser.add_argument("--mode", required=True,
                        choices=["outside-first", "fail-second-ask", "exit-third-round",
                                 "print-told", "propose-nothing"])
    args = parser.parse_args()
    generator = TestGenerator(args.mode, args.connect, "test-" + args.mode)
    print(f"ended: {generator.run()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
