"""Random search as an external scenario generator (strategy "external",
docs/generator-protocol.md): each proposal holds 0..max_count actors of every class at uniform
positions, yaws and scales within the class's ranges, at least min_obstacles in all. The client
refuses infeasible ones and this generator simply draws again.

    python3 random_generator.py --connect 127.0.0.1:9000 [--name random] [--token T]
"""

from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import asg_node  # noqa: E402


class RandomSearch(asg_node.ScenarioGenerator):
    """Proposes uniformly random scenarios of the search space, seeded by the search's seed."""

    def on_search(self, search: dict) -> None:
        self.space = search["space"]
        self.rng = random.Random(search["seed"])

    def propose(self, count: int, first_id: int, rejected: list[dict]) -> list[dict]:
        return [asg_node.proposal(self.sample(), origin="random") for _ in range(count)]

    def sample(self) -> list[dict]:
        obstacles: list[dict] = []
        while len(obstacles) < max(1, self.space["min_obstacles"]):
            obstacles = [
                asg_node.obstacle(actor["path_name"], self.rng.uniform(*actor["x"]),
                                  self.rng.uniform(*actor["y"]), self.rng.uniform(*actor["yaw"]),
                                  self.rng.uniform(*actor["scale"]))
                for actor in self.space["classes"]
                for _ in range(self.rng.randint(0, actor["max_count"]))]
        return obstacles


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connect", required=True, help="the client's HOST:PORT")
    parser.add_argument("--name", default="random", help="the generator's name in the log")
    parser.add_argument("--token", default=None, help="the client's token (or ASG_TOKEN)")
    parser.add_argument("--connect-timeout", type=float, default=60.0,
                        help="[s] to keep trying to reach the client")
    args = parser.parse_args()
    generator = RandomSearch(args.connect, args.name, args.token, args.connect_timeout)
    try:
        reason = generator.run()
    except asg_node.NodeError as error:
        print(f"random_generator: {error}", file=sys.stderr)
        return 1
    print(f"random_generator: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
