"""Progress of an ingestion job, per stage (documents, nlp, embed, write):

- on a terminal, one tqdm bar per stage (counts, rate, elapsed; the total and the time left once known);
- when stderr is not a terminal (a log, CI, a pipe), a line every ``interval`` seconds with the counts per
  stage (``documents 12/40`` once the total is known), their rate, the elapsed time and, for the
  documents, about how long is left; and one line at the end;
- nothing with ``--json`` (progress=False), so stdout and stderr stay machine-readable.

Totals: the documents' total is known once the paths are walked (one per file; a record file adds its
records as they are read); the units' totals per stage grow as documents are parsed.
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


def eta_text(done: int, total: int | None, elapsed: float) -> str:
    """About how long is left at the rate so far: "about 2 min left"; "" when it cannot be told yet."""
    if not total or done <= 0 or done >= total or elapsed <= 0:
        return ""
    left = (total - done) * elapsed / done
    if left < 60:
        return f"about {max(5, round(left / 5) * 5)} s left"
    if left < 3600:
        return f"about {round(left / 60)} min left"
    hours, minutes = divmod(round(left / 60), 60)
    return f"about {hours} h {minutes} min left" if minutes else f"about {hours} h left"


class Progress:
    def __init__(self, mode: Mode | bool, interval: float = 30.0) -> None:
        self.mode: Mode = ("bars" if mode else "off") if isinstance(mode, bool) else mode
        self.bars: dict[str, Any] = {}
        self.counts = {name: 0 for name, _ in STAGES}
        self.totals: dict[str, int | None] = {name: None for name, _ in STAGES}
        self._record_files: set[str] = set()
        self.interval = interval
        self.started = self.last = time.monotonic()
        if self.mode == "bars":
            from tqdm import tqdm

            for i, (name, unit) in enumerate(STAGES):
                self.bars[name] = tqdm(desc=f"{name:>9}", unit=unit, position=i, leave=True,
                                       ncols=min(120, shutil.get_terminal_size((100, 20)).columns or 100))

    def _set_total(self, name: str, total: int) -> None:
        self.totals[name] = total
        if name in self.bars:
            self.bars[name].total = total
            self.bars[name].refresh()

    def found(self, files: int) -> None:
        """The walk is done: ``files`` files to read, one document each (a record file: one per record)."""
        self._set_total("documents", files)

    def record(self, file_id: str) -> None:
        """A record of a record file was read: its first record is the file's document, the others add one."""
        if file_id in self._record_files:
            self._set_total("documents", (self.totals["documents"] or 0) + 1)
        else:
            self._record_files.add(file_id)

    def expect(self, name: str, n: int) -> None:
        """``n`` more units will pass through stage ``name`` (known as each document is parsed)."""
        if n and name in self.totals:
            self._set_total(name, (self.totals[name] or 0) + n)

    def add(self, name: str, n: int) -> None:
        if not n or name not in self.counts:
            return
        self.counts[name] += n
        if name in self.bars:
            self.bars[name].update(n)
        elif self.mode == "lines" and time.monotonic() - self.last >= self.interval:
            self._line()

    def stage_text(self, name: str, elapsed: float, final: bool = False) -> str:
        """``documents 12/40 (1.2/s, about 2 min left)``; without a total, ``nlp 300 (25.0/s)``."""
        done, total = self.counts[name], self.totals[name]
        shown = f"{done:,}/{total:,}" if total is not None and not (final and done == total) else f"{done:,}"
        rate = done / elapsed
        details = [f"{rate:.1f}/s" if rate >= 1 else f"{rate:.2f}/s" if done else "0/s"]
        if name == "documents" and not final and (eta := eta_text(done, total, elapsed)):
            details.append(eta)
        return f"{name} {shown} ({', '.join(details)})"

    def _line(self, final: bool = False) -> None:
        self.last = now = time.monotonic()
        elapsed = max(now - self.started, 1e-9)
        parts = [self.stage_text(name, elapsed, final) for name, _ in STAGES]
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
