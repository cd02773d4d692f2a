"""`kmrag reembed --tenant T`: every unit (retired ones too: they can come back) and every entity name of a
tenant embedded again with another embedder, in place.

The tenant stays readable throughout: the new vectors are written beside the live ones, batch by batch
(each batch committed, with the hash of the text it was made from), and switched in at the end in one
transaction that also changes the tenant's recorded embedder (kmrag.units.embedders). A run that is killed
resumes from the vectors already written: a batch whose texts all have a new vector of the same text is
skipped without embedding. Writers of the tenant wait meanwhile (the tenant's writer lock). The vector
columns have one dimension for the whole database, so the new embedder must have it too.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from kmrag.errors import ConfigError
from kmrag.ingestion.embed_worker import titled_text
from kmrag.nlp.embed import Embedder
from kmrag.units.lock import tenant_lock

DEFAULT_BATCH = 256
TARGETS = ("units", "names")


class ReembedReport(BaseModel):
    tenant: str
    embedder_from: str | None = Field(description="the tenant's embedder before (None: it held nothing)")
    embedder_to: str
    already: bool = Field(default=False, description="the tenant was this embedder's already: nothing to do")
    switched: bool = False
    total: dict[str, int] = Field(default_factory=dict, description="units / entity names of the tenant")
    embedded: dict[str, int] = Field(default_factory=dict, description="embedded by this run")
    kept: dict[str, int] = Field(default_factory=dict, description="new vectors found from a stopped run, kept")
    batches: int = 0
    embed_s: float = 0.0
    seconds: float = 0.0


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class Reembedder:
    """One run. ``after_batch`` (a test hook): called with the number of batches embedded so far, after each
    one is committed; what it raises stops the run (which a later run resumes)."""

    def __init__(self, stores: Any, tenant: str, embedder: Embedder, batch: int = DEFAULT_BATCH,
                 progress: bool = False, lock_wait_s: float = 3600.0,
                 after_batch: Callable[[int], None] | None = None) -> None:
        if embedder.dim != stores.units.dim:
            raise ConfigError(f"the embedder {embedder.name!r} gives {embedder.dim}-d vectors but the database "
                              f"holds {stores.units.dim}-d ones (one dimension for every tenant): reembed with an "
                              f"embedder of {stores.units.dim} dimensions, or use a fresh database")
        if batch < 1:
            raise ConfigError("--batch must be at least 1")
        self.stores, self.tenant, self.embedder, self.batch = stores, tenant, embedder, batch
        self.progress, self.lock_wait_s, self.after_batch = progress, lock_wait_s, after_batch

    def run(self) -> ReembedReport:
        t0 = time.perf_counter()
        units = self.stores.units
        with tenant_lock(self.stores.pool, self.tenant, self.lock_wait_s):
            before = units.begin_reembed(self.tenant, self.embedder.name, self.embedder.dim)
            report = ReembedReport(tenant=self.tenant, embedder_from=before.embedder if before else None,
                                   embedder_to=self.embedder.name)
            report.total = {t: c["total"] for t, c in units.reembed_counts(self.tenant).items()}
            if before is None or before.embedder == self.embedder.name:
                report.already = True
            else:
                bar = self._bar(sum(report.total.values()))
                try:
                    for target in TARGETS:
                        self._target(target, report, bar)
                finally:
                    if bar is not None:
                        bar.close()
                units.switch_reembed(self.tenant, self.embedder.name, self.embedder.dim)
                report.switched = True
        report.seconds = round(time.perf_counter() - t0, 3)
        return report

    def _bar(self, total: int) -> Any:
        if not self.progress:
            return None
        from tqdm import tqdm

        return tqdm(total=total, desc=f"reembed {self.tenant}", unit="text")

    def _target(self, target: str, report: ReembedReport, bar: Any) -> None:
        """Every row of a target, page by page in key order; only the texts without a current new vector
        are embedded."""
        after = ""
        report.embedded[target] = report.kept[target] = 0
        while True:
            page = self.stores.units.reembed_page(self.tenant, target, after, self.batch)
            if not page:
                return
            after = page[-1][0]
            embedded = self._page(target, page, report)
            report.embedded[target] += embedded
            report.kept[target] += len(page) - embedded
            if bar is not None:
                bar.update(len(page))
            if embedded and self.after_batch is not None:
                self.after_batch(report.batches)

    def _page(self, target: str, page: list[tuple[str, str, str]], report: ReembedReport) -> int:
        """Embed and write the page's texts that need it; returns how many."""
        texts = {k: titled_text(a, b) if target == "units" else a for k, a, b in page}
        hashes = {k: text_hash(t) for k, t in texts.items()}
        have = self.stores.units.reembed_hashes(self.tenant, target, list(texts))
        todo = [k for k in texts if have.get(k) != hashes[k]]
        if not todo:
            return 0
        t = time.perf_counter()
        vectors = self.embedder.embed([texts[k] for k in todo])
        report.embed_s = round(report.embed_s + time.perf_counter() - t, 3)
        self.stores.units.write_reembed(self.tenant, target, [(k, hashes[k]) for k in todo], vectors)
        report.batches += 1
        return len(todo)


def reembed(stores: Any, tenant: str, embedder: Embedder, batch: int = DEFAULT_BATCH, progress: bool = False,
            lock_wait_s: float = 3600.0, after_batch: Callable[[int], None] | None = None) -> ReembedReport:
    return Reembedder(stores, tenant, embedder, batch, progress, lock_wait_s, after_batch).run()
