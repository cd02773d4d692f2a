"""Request and response bodies of the HTTP API (pydantic at the boundary)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from kmrag.answer.audit import CitationAudit
from kmrag.retrieval.strategies import MAX_QUESTION_CHARS

Strategy = Literal["multihop", "hybrid", "dense", "bm25", "graph", "multihop-rerank", "hybrid-rerank", "dense-rerank",
                   "bm25-rerank", "graph-rerank"]


Generator = Literal["auto", "extractive", "llm"]


def _whole(v: Any) -> Any:
    """A JSON number with no fraction (8.0 is the integer 8, as JSON Schema has it); anything else as given."""
    return int(v) if isinstance(v, float) and v.is_integer() else v


WholeNumber = Annotated[int, BeforeValidator(_whole)]
def _char_class(keep: Callable[[str], bool], negate: bool = False) -> str:
    """A regex class of the Basic Multilingual Plane's characters that ``keep`` holds for, as explicit \\uXXXX
    ranges, so every reader of the spec (Python's re, ECMA-262, Schemathesis's ASCII-\\w reading, Rust) agrees
    on it, which ``\\w`` and ``\\s`` do not."""
    ranges: list[tuple[int, int]] = []
    for c in range(0x10000):
        if keep(chr(c)):
            if ranges and ranges[-1][1] == c - 1:
                ranges[-1] = (ranges[-1][0], c)
            else:
                ranges.append((c, c))
    body = "".join(f"\\u{a:04X}" if a == b else f"\\u{a:04X}-\\u{b:04X}" for a, b in ranges)
    return f"[{'^' if negate else ''}{body}]"


QUESTION_PATTERN = _char_class(str.isalnum)  # a letter or a digit somewhere (the check ask makes)
TEXT_PATTERN = _char_class(str.isspace, negate=True)  # something besides white space


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, regex_engine="python-re")  # JSON types as declared

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS, pattern=QUESTION_PATTERN,
                          description="the question: some letter or digit, at most the server's limit")
    generator: Generator | None = Field(
        default=None, description="default: KMRAG_GENERATOR, else llm when one is configured")
    strategy: Strategy = "multihop"
    k: WholeNumber = Field(default=8, ge=1, le=50, description="units to answer from")
    trace: bool = Field(default=False, description="include every step of both controllers")


class IngestPaths(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    paths: list[str] = Field(min_length=1, max_length=1000,
                             description="files or folders under KMRAG_SERVER_INGEST_ROOT (absolute, or relative "
                                         "to it); source ids are their paths relative to the root")
    force: bool = False
    prune: bool = False


class JobAccepted(BaseModel):
    id: str
    status: str
    href: str


class CitationOut(BaseModel):
    unit_id: str
    source_id: str
    quote: str = Field(description="exactly the unit's content[start:end]")
    start: int | None = None
    end: int | None = None
    kind: str = Field(default="sentence", description="sentence, or row (a table row shown with its header)")


class StatementOut(BaseModel):
    text: str
    unit_ids: list[str] = Field(description="the units it rests on, each cited as [u_…]")


class BasisEntityOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str | None = Field(default=None, description="the entity (a compared one); absent for a band's spans")
    value: float | str | None = Field(default=None, description="the value read for it (a number, a year, a "
                                      "nationality or place), when the rule compares values")
    unit_id: str | None = Field(default=None, description="the unit the value was read from")
    quote: str | None = Field(default=None, description="the cited span it was read from")


class BasisOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    kind: str = Field(description="span: the direct answer is words of a cited span; band: the row of a table "
                      "whose range holds a quantity (the question's or a cited span's); comparison: the entity "
                      "whose value wins; yes_no: a check of every compared entity's span")
    rule: str | None = Field(default=None, description="what was computed, in words (band, comparison, yes_no)")
    winner: str | None = Field(default=None, description="a comparison's winning entity")
    entities: list[BasisEntityOut] = Field(default_factory=list, description="the spans (and, for a comparison "
                                           "or yes / no, the entities and their values) it was computed from")
    unit_id: str | None = Field(default=None, description="the unit whose span holds the direct answer")
    quote: str | None = Field(default=None, description="that span")


class RankedUnitOut(BaseModel):
    rank: int
    id: str
    type: str
    source_id: str
    title: str
    snippet: str
    cited: bool


class PathHopOut(BaseModel):
    subject: str
    predicate: str
    object: str
    unit_ids: list[str] = Field(default_factory=list)


class RelationPathOut(BaseModel):
    hops: list[PathHopOut]


class AnswerOut(BaseModel):
    """What an answer says, as asked and as stored."""

    id: str
    question: str
    found: bool = Field(description="false: the answer is exactly \"Information not found in knowledge map\"")
    text: str = Field(description="the answer as shown: each statement followed by its [u_…] citations")
    direct: str | None = Field(default=None, description="a short direct answer, when one was read or computed")
    statements: list[StatementOut]
    citations: list[CitationOut] = Field(description="the cited spans; of a not-found answer, those of its "
                                         "`evidence`")
    confidence: float = Field(ge=0, le=1, description="the probability that the answer is right, calibrated on "
                              "held-out questions (`kmrag eval calibrate`); below KMRAG_MIN_CONFIDENCE (default "
                              "0.5) the answer is not found; 0 when nothing was found")
    confidence_why: str = Field(default="", description="what raised or lowered the confidence, in words")
    evidence: list[StatementOut] = Field(default_factory=list, description="of a not-found answer: the best "
                                         "evidence found, as cited statements (evidence, never an answer)")
    basis: BasisOut | None = Field(default=None, description="how the direct answer was read or computed from the "
                                   "cited spans; null without one")
    generator: str
    strategy: str
    created_at: Any = None


class AskResponse(AnswerOut):
    units: list[RankedUnitOut] = Field(description="the units retrieval ranked first, best first")
    paths: list[RelationPathOut] = Field(default_factory=list, description="the relation paths retrieval followed "
                                         "(entity names, relation types, the units each hop came from)")
    ms: float
    trace: list[dict[str, Any]] | None = Field(default=None, description="only when asked for (trace: true)")


class StoredAnswerOut(AnswerOut):
    trace: list[dict[str, Any]] | None = Field(default=None, description="GET /v1/answers/{id}?trace=true only")


class BrowserQueryOut(BaseModel):
    params: str = Field(description="`:param` line setting tenant and answer_id in Neo4j Browser")
    query: str = Field(description="the evidence query: the answer, the units it cites, their sources and entities")
    one_statement: str = Field(description="the same query with the values bound by a leading WITH, for a link")


class AnswerAuditOut(BaseModel):
    answer: StoredAnswerOut
    citations: list[CitationAudit] = Field(description="each citation with its unit's full text, source, version "
                                           "and whether it is current, retired (and what replaced it) or missing")
    graph_cites: list[str] = Field(default_factory=list, description="units the (:Answer) node CITES now")
    browser: BrowserQueryOut | None = Field(default=None, description="the evidence query for Neo4j Browser; "
                                            "null on the embedded graph store, which has no Browser")
    all_current: bool = Field(description="every cited unit is still current")
    paths: list[RelationPathOut] = Field(default_factory=list, description="the relation paths retrieval followed")


MAX_SUPPORT_ITEMS = 100  # statements per POST /v1/support

# any JSON value is taken as an item, so a bad one gets its own error in the results (the body is not refused)
_AnyItem = Annotated[Any, WithJsonSchema({
    "description": "a statement and what it cites: {statement, spans: [text], titles?: [text]} or {statement, unit_ids: "
                   "[id]}; any other value is answered with its own error in `results`, the others are checked",
    "examples": [{"statement": "Marie Curie was born in Warsaw.", "spans": ["Marie Curie was born in Warsaw in 1867."]}]})]


class SupportRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    items: list[_AnyItem] = Field(min_length=1, max_length=MAX_SUPPORT_ITEMS, description=(
        f"1 to {MAX_SUPPORT_ITEMS} statements, each with the spans it cites (and optionally their units' titles) "
        "or the ids of the tenant's units it cites"))


class SupportVerdictOut(BaseModel):
    index: int = Field(description="the item's 0-based position in `items`")
    supported: bool
    score: float = Field(ge=0, le=1)
    failed: str | None = Field(description="the part of the statement that did not hold; null when supported")


class SupportErrorOut(BaseModel):
    index: int = Field(description="the item's 0-based position in `items`")
    error: str = Field(description="why the item could not be checked, naming it (`items[2]: ...`)")


class SupportResponse(BaseModel):
    results: list[SupportVerdictOut | SupportErrorOut] = Field(
        description="one per item, in the order of `items`: a verdict, or an error for an item that could not be "
                    "checked (the others are checked all the same)")


class Health(BaseModel):
    ok: bool
    kmrag: str
    tenant_mode: str
    graph: dict[str, Any] = Field(default_factory=dict)
    postgres: dict[str, Any] = Field(default_factory=dict)
    pool: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
