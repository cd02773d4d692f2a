"""Watching the controllers work: every step they record in a trace can also be told, as it happens, to an
observer of the current context (the HTTP API streams them as server-sent events).

The controllers keep their traces in :class:`TraceLog` lists; :func:`observing` sets the observer for the
block (a context variable, so concurrent questions in other threads never see each other's steps).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from kmrag.errors import DeadlinePassed

Observer = Callable[[dict[str, Any]], None]
_observer: ContextVar[Observer | None] = ContextVar("kmrag_trace_observer", default=None)


@dataclass
class Deadline:
    """When the work of this context must stop (``time.monotonic()`` seconds) and the last step it reached."""

    at: float
    seconds: float
    reached: str = "start"
    cancelled: bool = False

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(at=time.monotonic() + seconds, seconds=seconds)

    def check(self) -> None:
        if self.cancelled or time.monotonic() > self.at:
            raise DeadlinePassed(f"no answer within {self.seconds:g} s: stopped after the step {self.reached!r}",
                                 self.reached)


_deadline: ContextVar[Deadline | None] = ContextVar("kmrag_deadline", default=None)


class TraceLog(list[dict[str, Any]]):
    """A trace: a list of step dicts; each step appended is also told to the current observer, tagged with
    the controller that took it as ``phase`` (``retrieval`` or ``answer``)."""

    def __init__(self, controller: str) -> None:
        super().__init__()
        self.controller = controller

    def append(self, step: dict[str, Any]) -> None:
        """Record the step, tell the observer, then stop here if the context's deadline has passed."""
        super().append(step)
        observer = _observer.get()
        if observer is not None:
            try:
                observer({"phase": self.controller, **step})
            except Exception:  # noqa: BLE001 - a failing observer never breaks the answer
                pass
        deadline = _deadline.get()
        if deadline is not None:
            deadline.reached = f"{self.controller}/{step.get('step', '?')}"
            deadline.check()


@contextmanager
def observing(observer: Observer | None) -> Iterator[None]:
    """Tell ``observer`` every step the controllers take in this block (None: nobody)."""
    token = _observer.set(observer)
    try:
        yield
    finally:
        _observer.reset(token)



@contextmanager
def tagging(**tags: Any) -> Iterator[None]:
    """The steps of this block reach the current observer with ``tags`` added (a question's part: part=2)."""
    outer = _observer.get()
    with observing(None if outer is None else (lambda step: outer({**step, **tags}))):
        yield


@contextmanager
def under(d: Deadline) -> Iterator[Deadline]:
    """Stop the controllers of this block at their first step after ``d.at``, or after ``d`` is cancelled
    (the caller gave up waiting): DeadlinePassed, saying the last step reached."""
    token = _deadline.set(d)
    try:
        yield d
    finally:
        _deadline.reset(token)
