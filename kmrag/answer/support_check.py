"""Checking statements against what they cite, in batches: the logic of ``kmrag support check`` and
``POST /v1/support`` (both are faces over this module; the verdicts are :func:`kmrag.answer.support.judge`'s).

An item is one statement and its evidence, given as text or named by unit ids::

    {"statement": "...", "spans": ["...", ...], "titles": ["...", ...]}   titles optional (the spans' units' titles)
    {"statement": "...", "unit_ids": ["u_…", ...]}                          the tenant's units: contents and titles

Each item gets a verdict or an error that names what is wrong and where (``line 3: ...``, ``items[2]: ...``);
a bad item never stops the others, and the results keep the items' order. Unit ids are looked up once per
batch, in the tenant's unit store (retired units included: a past answer's evidence can still be checked).
Nothing is stored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, model_validator
from pydantic_core import PydanticCustomError

from kmrag.answer.judge import Verdict, judge
from kmrag.errors import BadInput
from kmrag.schema.ids import UNIT_ID_RE

if TYPE_CHECKING:
    from kmrag.config import Settings

BATCH = 500  # items parsed, looked up (one query for all their unit ids) and judged at a time
MAX_ERRORS_SHOWN = 3  # of one item's validation errors, in its message


class SupportLimits(BaseModel):
    """What one item may hold; over a limit, the item is refused with the limit and its setting named."""

    max_statement_chars: int = Field(default=5000, ge=1)
    max_span_chars: int = Field(default=20000, ge=1)
    max_spans: int = Field(default=50, ge=1)

    @classmethod
    def from_settings(cls, settings: Settings) -> SupportLimits:
        return cls(max_statement_chars=settings.support_max_statement_chars,
                   max_span_chars=settings.support_max_span_chars, max_spans=settings.support_max_spans)


def _refuse(reason: str) -> PydanticCustomError:
    return PydanticCustomError("bad_item", "{reason}", {"reason": reason})


class SupportItem(BaseModel):
    """One statement to check, with either the spans it cites (and optionally their units' titles) or the ids
    of the units it cites."""

    model_config = ConfigDict(extra="forbid", strict=True)

    statement: str = Field(description="the statement to check")
    spans: list[str] | None = Field(default=None, description="the cited text: quotes or whole unit texts")
    titles: list[str] | None = Field(default=None, description="with spans: the titles of the spans' units "
                                                               "(a name in a title counts as cited)")
    unit_ids: list[str] | None = Field(default=None, description="instead of spans: the cited units of the "
                                                                 "tenant (u_…); their texts and titles are used")

    @model_validator(mode="after")
    def _usable(self, info: ValidationInfo) -> SupportItem:
        limits: SupportLimits = (info.context or {}).get("limits") or SupportLimits()
        if not self.statement.strip():
            raise _refuse("statement is empty")
        if len(self.statement) > limits.max_statement_chars:
            raise _refuse(f"statement is {len(self.statement):,} characters, over the limit of "
                          f"{limits.max_statement_chars:,} (KMRAG_SUPPORT_MAX_STATEMENT_CHARS)")
        if self.spans is not None and self.unit_ids is not None:
            raise _refuse("give spans or unit_ids, not both")
        if not self.spans and not self.unit_ids:
            raise _refuse("no evidence: give spans (the cited text) or unit_ids (the cited units)")
        if self.titles is not None and self.unit_ids is not None:
            raise _refuse("titles go with spans; with unit_ids the units' own titles are used")
        for field, values in (("spans", self.spans), ("titles", self.titles), ("unit_ids", self.unit_ids)):
            if values is not None and len(values) > limits.max_spans:
                raise _refuse(f"{len(values)} {field}, over the limit of {limits.max_spans} per statement "
                              "(KMRAG_SUPPORT_MAX_SPANS)")
        for field, values in (("spans", self.spans), ("titles", self.titles)):
            for i, text in enumerate(values or ()):
                if len(text) > limits.max_span_chars:
                    raise _refuse(f"{field}[{i}] is {len(text):,} characters, over the limit of "
                                  f"{limits.max_span_chars:,} per span (KMRAG_SUPPORT_MAX_SPAN_CHARS)")
        for i, text in enumerate(self.spans or ()):
            if not text.strip():
                raise _refuse(f"spans[{i}] is empty")
        for i, uid in enumerate(self.unit_ids or ()):
            if not UNIT_ID_RE.fullmatch(uid):
                raise _refuse(f"unit_ids[{i}]: {uid[:40]!r} is not a unit id (u_ and 16 hex digits)")
        return self


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    names: dict[type, str] = {str: "string", list: "array", dict: "object"}
    return names.get(type(value), type(value).__name__)


def _where(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _reason(e: ValidationError) -> str:
    reasons = []
    for err in e.errors(include_url=False):
        loc, kind, value = _where(err["loc"]), err["type"], err.get("input")
        if kind == "bad_item":
            reasons.append(str(err["ctx"]["reason"]))
        elif kind == "missing":
            reasons.append(f"{loc} is missing")
        elif kind == "extra_forbidden":
            reasons.append(f"unknown field {loc!r} (an item has statement, and spans (with titles) or unit_ids)")
        elif kind == "string_type":
            reasons.append(f"{loc} must be a string, not {json_type(value)}")
        elif kind == "list_type":
            reasons.append(f"{loc} must be an array of strings, not {json_type(value)}")
        else:
            reasons.append(f"{loc}: {err['msg']}")
    more = len(reasons) - MAX_ERRORS_SHOWN
    return "; ".join(reasons[:MAX_ERRORS_SHOWN]) + (f" (and {more} more)" if more > 0 else "")


def parse_item(obj: Any, limits: SupportLimits) -> SupportItem:
    """A parsed JSON value as an item; BadInput saying what is wrong with it (not where: the caller knows)."""
    if not isinstance(obj, dict):
        raise BadInput(f"not a JSON object (got {json_type(obj)}): an item is "
                       '{"statement": ..., "spans": [...]} or {"statement": ..., "unit_ids": [...]}')
    try:
        return SupportItem.model_validate(obj, context={"limits": limits})
    except ValidationError as e:
        raise BadInput(_reason(e)) from None


# -- checking -------------------------------------------------------------------------------------------


class UnitText(Protocol):
    id: str
    title: str
    content: str


UnitFetch = Callable[[Sequence[str]], Iterable[UnitText]]  # the tenant's units by id; unknown ids left out


@dataclass(frozen=True)
class Parsed:
    position: int  # a file's line (1-based) or a request's item index (0-based)
    where: str  # "line 3", "items[2]": how messages name the item
    item: SupportItem | None = None
    error: str | None = None


@dataclass(frozen=True)
class Checked:
    """One item's outcome: a verdict, or why it could not be checked (the message names the item)."""

    position: int
    where: str
    statement: str | None = None
    verdict: Verdict | None = None
    error: str | None = None

    def as_dict(self, key: str = "line") -> dict[str, Any]:
        if self.verdict is None:
            return {key: self.position, "error": self.error}
        return {key: self.position, **self.verdict.as_dict(), "score": round(self.verdict.score, 4)}


def check_batch(parsed: Sequence[Parsed], fetch: UnitFetch, tenant: str) -> list[Checked]:
    """Judge every parsed item, looking its unit ids up in one call; in the given order."""
    wanted = list(dict.fromkeys(u for p in parsed if p.item and p.item.unit_ids for u in p.item.unit_ids))
    found = {u.id: u for u in fetch(wanted)} if wanted else {}
    out: list[Checked] = []
    for p in parsed:
        if p.item is None:
            out.append(Checked(p.position, p.where, error=f"{p.where}: {p.error}"))
            continue
        item = p.item
        if item.unit_ids:
            ids = list(dict.fromkeys(item.unit_ids))
            unknown = [u for u in ids if u not in found]
            if unknown:
                out.append(Checked(p.position, p.where, item.statement, error=(
                    f"{p.where}: unknown unit id{'s' if len(unknown) > 1 else ''} in tenant {tenant!r}: "
                    + ", ".join(unknown))))
                continue
            spans, titles = [found[u].content for u in ids], [found[u].title for u in ids]
        else:
            spans, titles = list(item.spans or ()), list(item.titles or ())
        out.append(Checked(p.position, p.where, item.statement, judge(item.statement, spans, titles)))
    return out


def parse_line(raw: bytes, limits: SupportLimits) -> SupportItem:
    """One JSON line as an item; BadInput naming what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadInput(f"not UTF-8 text (byte {e.start + 1} of the line)") from None
    try:
        obj = json.loads(text.rstrip())  # without the line break: an error at the end has its column
    except json.JSONDecodeError as e:
        raise BadInput(f"not JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise BadInput("not JSON this checker can read (nested too deeply)") from None
    return parse_item(obj, limits)


def read_lines(stream: BinaryIO, limits: SupportLimits) -> Iterator[Parsed]:
    """The items of a JSON-lines stream, numbered by line; blank lines are skipped (their numbers kept)."""
    for n, raw in enumerate(stream, start=1):
        if n == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark
        if not raw.strip():
            continue
        try:
            yield Parsed(n, f"line {n}", item=parse_line(raw, limits))
        except BadInput as e:
            yield Parsed(n, f"line {n}", error=str(e))


def check_lines(stream: BinaryIO, limits: SupportLimits, fetch: UnitFetch, tenant: str) -> Iterator[Checked]:
    """Every line of a JSON-lines stream checked, in order, ``BATCH`` lines at a time."""
    batch: list[Parsed] = []
    for p in read_lines(stream, limits):
        batch.append(p)
        if len(batch) >= BATCH:
            yield from check_batch(batch, fetch, tenant)
            batch = []
    if batch:
        yield from check_batch(batch, fetch, tenant)


def check_items(items: Sequence[Any], limits: SupportLimits, fetch: UnitFetch, tenant: str) -> list[Checked]:
    """Every item of a request (parsed JSON values) checked, in order; positions are 0-based indexes."""
    parsed: list[Parsed] = []
    for i, obj in enumerate(items):
        try:
            parsed.append(Parsed(i, f"items[{i}]", item=parse_item(obj, limits)))
        except BadInput as e:
            parsed.append(Parsed(i, f"items[{i}]", error=str(e)))
    return check_batch(parsed, fetch, tenant)
