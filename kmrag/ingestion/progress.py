"""Progress of an ingestion job, per stage (documents, nlp, embed, write):

- on a terminal, one tqdm bar per stage (counts, rate, elapsed);
- when stderr is not a terminal (a log, CI, a pipe), a line every ``interval`` seconds with the counts per
  stage, their rate and the elapsed time, and one at the end;
- nothing with ``--json`` (progress=False), so stdout and stderr stay machine-readable.
"""

from __future__ import annotations

import shutil
import sys
import time
from typing import Any, Literal

STAGES = [("documents", "doc"), ("nlp", "unit"), ("embed", "unit"), ("write", "unit")]
Mode = Literal["bars", "lines", "off"]


def progress_mode(progress: bool | None) -> Mode:
    """None: bars on a terminal, lines otherwise; True: bars; False: nothing."""
    if progress is None:
        return "bars" if sys.stderr.isatty() else "lines"
    return "bars" if progress else "off"


class Progress:
    def __init__(self, mode: Mode | bool, interval: float = 30.0) -> None:
        self.mode: Mode = ("bars" if mode else "off") if isinstance(mode, bool) else mode
        self.bars: dict[str, Any] = {}
        self.counts = {name: 0 for name, _ in STAGES}
        self.interval = interval
        self.started = self.last = time.monotonic()
        if self.mode == "bars":
            from tqdm import tqdm

            for i, (name, unit) in enumerate(STAGES):
                self.bars[name] = tqdm(desc=f"{name:>9}", unit=unit, position=i, leave=True,
                                       ncols=min(120, shutil.get_terminal_size((100, 20)).columns or 100))

    def add(self, name: str, n: int) -> None:
        if not n or name not in self.counts:
            return
        self.counts[name] += n
        if name in self.bars:
            self.bars[name].update(n)
        elif self.mode == "lines" and time.monotonic() - self.last >= self.interval:
            self._line()

    def _line(self, final: bool = False) -> None:
        self.last = now = time.monotonic()
        elapsed = max(now - self.started, 1e-9)
        parts = [f"{name} {self.counts[name]:,} ({self.counts[name] / elapsed:.1f}/s)" for name, _ in STAGES]
        print(f"kmrag: {'done' if final else 'progress'}: {', '.join(parts)}; {elapsed:.0f} s elapsed",
              file=sys.stderr, flush=True)

    def note(self, message: str) -> None:
        """A line above the bars (or on stderr when there are none)."""
        if self.bars:
            from tqdm import tqdm

            tqdm.write(message)
        else:
            print(message, file=sys.stderr)

    def close(self) -> None:
        for b in self.bars.values():
            b.close()
        if self.mode == "lines" and any(self.counts.values()):
            self._line(final=True)
