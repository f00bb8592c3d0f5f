"""An external scenario generator: the search strategy "external" (docs/generator-protocol.md).

Subclass ScenarioGenerator, override propose() (and tell(), on_search()), call run(). The
generator registers with the client, learns the search (seed, space, budget, its own settings),
then answers the client's ProposeScenarios with proposals and its ScenarioResults with an
acknowledgement, until SearchEnded or the client closing. The client never drops a registered
generator for silence: propose() and tell() may each take up to the batch's reply_timeout.
"""

from __future__ import annotations

import os
import queue
import sys
import time
from typing import Optional

from . import message_types as types
from .framing import Connection, Frame, stop_signals


def obstacle(path_name: str, x: float, y: float, yaw: float = 0.0, scale: float = 1.0) -> dict:
    """One actor of a proposal: a class of the search space by path_name, at (x, y) [m]."""
    return {"path_name": path_name, "x": float(x), "y": float(y), "yaw": float(yaw),
            "scale": float(scale)}


def proposal(obstacles: list[dict], parents: Optional[list[int]] = None,
             origin: str = "") -> dict:
    """One proposed scenario: its actors, the ids of the candidates it came from, how."""
    return {"obstacles": obstacles, "parents": list(parents or []), "origin": origin}


class ScenarioGenerator:
    """Base class of a scenario generator; override the methods below and call run()."""

    def __init__(self, client_endpoint: str, name: str = "generator",
                 token: Optional[str] = None, connect_timeout: float = 60.0,
                 request_timeout: float = 10.0, retry_period: float = 0.5,
                 handle_signals: bool = True) -> None:
        self.client_endpoint = client_endpoint
        self.name = name
        self.token = token if token else os.environ.get("ASG_TOKEN", "")
        self.connect_timeout = connect_timeout
        self.request_timeout = request_timeout
        self.retry_period = retry_period
        self.handle_signals = handle_signals
        self.search: dict = {}
        self.end_reason = ""
        self._events: queue.Queue = queue.Queue()
        self._client: Optional[Connection] = None
        self._signal = 0

    # Overridable callbacks (run() thread).
    def on_search(self, search: dict) -> None:
        """The search served: seed, budget_scenarios, generation_size, runs_per_scenario,
        space (classes with path_name, max_count, x, y, yaw, scale ranges; min_obstacles;
        start; goal; clearances) and settings (the batch's strategy_settings.generator)."""

    def propose(self, count: int, first_id: int, rejected: list[dict]) -> list[dict]:
        """At most `count` proposals (see proposal()); the accepted ones get ids first_id,
        first_id + 1, ... in order. `rejected` lists the previous round's refusals
        ({"index", "reason"}): propose that many again. An empty list: nothing to propose now
        (the search ends when no proposal awaits its results)."""
        raise NotImplementedError

    def tell(self, results: list[dict]) -> None:
        """Scores of earlier proposals, in ascending id: {"id", "regret", "failure",
        "failure_id", "scenario": the proposal}. failure_id is the distinct failure the
        candidate is a copy of (an int, numbered by the search's clustering so far), or None
        when none of its runs failed."""

    # Public API.
    def stop(self, reason: str = "stopped") -> None:
        """Makes run() close the connection and return; thread-safe."""
        self._events.put(("stop", reason))

    def run(self) -> str:
        """Serves the search until it ends; returns why it ended. Raises NodeError when the
        client cannot be reached or refuses the registration."""
        with stop_signals(lambda n: setattr(self, "_signal", n), self.handle_signals):
            try:
                self._register()
                while not self.end_reason:
                    self._serve_once()
                return self.end_reason
            finally:
                if self._client is not None:
                    self._client.close(self.end_reason or "generator stopped")

    # Internals.
    def _register(self) -> None:
        self._client = Connection.connect_retrying(
            self.client_endpoint, time.monotonic() + self.connect_timeout, self.retry_period,
            min(self.request_timeout, 5.0),
            lambda frame: self._events.put(("frame", frame)),
            lambda reason: self._events.put(("closed", reason)))
        reply = self._client.request(types.REGISTER_GENERATOR,
                                     {"generator_name": self.name, "token": self.token},
                                     b"", self.request_timeout)
        self.search = reply.message["search"]
        self.on_search(self.search)

    def _serve_once(self) -> None:
        try:
            kind, item = self._events.get(timeout=0.1)
        except queue.Empty:
            kind, item = None, None
        if self._signal:
            self.end_reason = f"signal {self._signal}"
        elif kind == "stop":
            self.end_reason = item
        elif kind == "closed":
            self.end_reason = f"client closed the connection: {item}"
        elif kind == "frame":
            self._frame(item)

    def _frame(self, frame: Frame) -> None:
        if frame.type == types.SEARCH_ENDED:
            self.end_reason = frame.message.get("reason", "search ended")
            return
        try:
            if frame.type == types.PROPOSE_SCENARIOS:
                message = frame.message
                scenarios = self.propose(message["count"], message["first_id"],
                                         message.get("rejected", []))
                self._client.reply(frame, {"scenarios": list(scenarios)})
            elif frame.type == types.SCENARIO_RESULTS:
                self.tell(frame.message["results"])
                self._client.reply(frame, {"received": True})
            else:
                self._client.reply_error(frame.reference, f"{frame.type}: not for a generator")
        except Exception as error:  # the client ends the search and says why
            print(f"[generator {self.name}] {frame.type} failed: {error!r}", file=sys.stderr)
            self._client.reply_error(frame.reference, f"{frame.type} failed in generator "
                                     f"'{self.name}': {error!r}")
