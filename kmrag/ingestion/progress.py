"""Progress bars for ingestion: one tqdm bar per stage on a terminal, silent otherwise."""

from __future__ import annotations

import shutil
from typing import Any


class Progress:
    def __init__(self, enabled: bool) -> None:
        self.bars: dict[str, Any] = {}
        if enabled:
            from tqdm import tqdm

            for i, (name, unit) in enumerate([("documents", "doc"), ("nlp", "unit"), ("embed", "unit"),
                                              ("write", "unit")]):
                self.bars[name] = tqdm(desc=f"{name:>9}", unit=unit, position=i, leave=True,
                                       ncols=min(120, shutil.get_terminal_size((100, 20)).columns or 100))

    def add(self, name: str, n: int) -> None:
        if name in self.bars and n:
            self.bars[name].update(n)

    def note(self, message: str) -> None:
        """A line above the bars (or on stderr when there are none)."""
        if self.bars:
            from tqdm import tqdm

            tqdm.write(message)
        else:
            import sys

            print(message, file=sys.stderr)

    def close(self) -> None:
        for b in self.bars.values():
            b.close()
