"""Watching the controllers work: every step they record in a trace can also be told, as it happens, to an
observer of the current context (the HTTP API streams them as server-sent events).

The controllers keep their traces in :class:`TraceLog` lists; :func:`observing` sets the observer for the
block (a context variable, so concurrent questions in other threads never see each other's steps).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

Observer = Callable[[dict[str, Any]], None]
_observer: ContextVar[Observer | None] = ContextVar("kmrag_trace_observer", default=None)


class TraceLog(list[dict[str, Any]]):
    """A trace: a list of step dicts; each step appended is also told to the current observer, tagged with
    the controller that took it as ``phase`` (``retrieval`` or ``answer``)."""

    def __init__(self, controller: str) -> None:
        super().__init__()
        self.controller = controller

    def append(self, step: dict[str, Any]) -> None:
        super().append(step)
        observer = _observer.get()
        if observer is not None:
            try:
                observer({"phase": self.controller, **step})
            except Exception:  # noqa: BLE001 - a failing observer never breaks the answer
                pass


@contextmanager
def observing(observer: Observer | None) -> Iterator[None]:
    """Tell ``observer`` every step the controllers take in this block (None: nobody)."""
    token = _observer.set(observer)
    try:
        yield
    finally:
        _observer.reset(token)
