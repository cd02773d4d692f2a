"""What a thing does or is for ("What does Millstone do?", "What is the Ledger used for?", "What does Self-RAG do
if the answer is not well-supported?"), read from a span that describes it:

- a glossed term: a list item, a line or a definition that opens with the thing's name, an optional gloss in
  brackets, then a dash or a colon ("- **Millstone** (compactor) — Merges small segment files into larger ones");
  the description is what follows;
- else a sentence whose subject is the thing ("Scythe deletes blocks ...") or stands for it under a heading that
  names it ("the system re-retrieves ..." under "Self-RAG"); the description is the sentence's predicate.

What the question adds ("if the generated answer is not well-supported", "in a cluster") must be said by the span
or the headings it sits under, a condition word for word and with the same polarity. The description is the span's
own words, so it is a quote of what is cited."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from kmrag.answer.spans import Span
from kmrag.answer.support import terms
from kmrag.nlp.glossed import MAX_DESCRIPTION, glossed, thing_names
from kmrag.retrieval.analysis import thing_described

# subjects that stand for the thing a heading names ("If ..., the system re-retrieves ...")
STANDS_FOR = frozenset({"it", "this", "they", "system", "component", "service", "tool", "process", "module", "loop",
                        "pipeline", "pattern", "method", "approach", "technique", "feature"})
CONDITION = re.compile(r"(?i)^(?:if|when|whenever|once|after|before|unless|while|during|until)\b")
NEGATION = re.compile(r"(?i)\b(?:not|no|never|n't|cannot|without|fails?\s+to)\b")
# words of what the question adds that neither the span nor its headings say: one of a setting ("in a Tallyhouse
# cluster"), none of anything else ("with rejected writes")
MAX_UNSAID = 1
SETTING = re.compile(r"(?i)^(?:in|within|inside|at|on|across)\b")
# verbs that say what a thing is or has, not what it does ("Millstone uses about 4 GB", "Dana Pryce lives in ...")
STATIVE = frozenset("""be have use live weigh cost need require remain stay seem appear contain consist include own belong
like love want know hold measure""".split())
# a description opens with what the thing does ("Merges ...", "Assign stable IDs ...") or what it is ("A web UI ...");
# not a status ("no change since last week", "still blocked", "faster deletes")
_NOT_DESCRIBING = frozenset({"no", "none", "not", "any", "all", "some", "this", "that", "these", "those"})
_FIELD = re.compile(r"(?:^|\s)(?:\*\*)?[A-Z][\w'’-]*(?:\s+[\w'’-]+){0,3}(?:\*\*)?:\s")  # "Owner: Team Keel"


def _clean(text: str) -> str | None:
    text = text.strip().rstrip(".;:!?").strip()
    return text if 3 <= len(text) <= MAX_DESCRIPTION and re.search(r"[a-z]{3}", text) else None


def _describes(desc: str, parse: Callable[[str], Any]) -> bool:
    """Does ``desc`` read as a description: a verb or a determined noun phrase first, and not a list of fields run
    on ("the write-ahead log Owner: Team Keel")?"""
    if _FIELD.search(desc):
        return False
    words = desc.split()
    if not words or words[0].lower().strip("*_") in _NOT_DESCRIBING:
        return False
    low = words[0].lower().strip("*_") + " " + " ".join(words[1:6])
    if parse(low)[0].tag_ in {"DT", "PRP$"}:  # "A web UI for ...", "our volunteer programme"
        return True
    # a verb, as a tagger reads it after a subject ("It merges ...", "They build links"): a fragment's first word alone
    # is tagged at random ("Merges" an adjective, "Build" a noun)
    return parse(f"It {low}")[1].tag_ == "VBZ" or parse(f"They {low}")[1].tag_ == "VBP"


def _defined(sent: Any, root: Any) -> str | None:
    """What a copula says the subject is, a determined noun phrase to the verb's end ("Tallyhouse is a self-hosted
    metrics database." → "a self-hosted metrics database"); None for any other sentence or a negated one."""
    attr = next((c for c in root.children if c.dep_ == "attr" and c.i > root.i), None)
    if attr is None or any(c.dep_ == "neg" for c in root.children) or attr.left_edge.tag_ not in {"DT", "PRP$"}:
        return None
    end = root.right_edge.i + 1
    while end > attr.i + 1 and sent.doc[end - 1].text in {".", ",", ";", ":", "!", "?", "—", "–"}:
        end -= 1
    return _clean(sent.doc[attr.left_edge.i:end].text)


def _subject_predicate(doc: Any, names: Sequence[str], headed: bool, past: bool, what_is: bool = False) -> str | None:
    """The predicate of the sentence's main verb when its subject is one of ``names`` (or stands for it, when
    ``headed``: the span's headings name it); the verb's tense is the question's. For "What is X?" (``what_is``),
    also what a copula says X is ("X is a ...")."""
    for sent in doc.sents:
        root = sent.root
        if root.pos_ not in {"VERB", "AUX"}:
            continue
        # an active subject ("Scythe deletes ..."), or a passive one of "is used to ..." (not "is found stuck")
        subj = next((c for c in root.children if c.dep_ == "nsubj" or c.dep_ == "nsubjpass" and root.lemma_ == "use"),
                    None)
        if subj is None or subj.i > root.i:
            continue
        said = terms(doc[subj.left_edge.i:subj.right_edge.i + 1].text).words
        named = any((nw := terms(n).words) and said == nw for n in names)  # not "Scythe and Millstone"
        stands = headed and said and said <= STANDS_FOR | {subj.lower_}
        if not (named or stands) or (root.tag_ == "VBD") != past and root.tag_ in {"VBD", "VBZ", "VBP"}:
            continue
        if what_is and named and root.lemma_ == "be":
            if (defined := _defined(sent, root)) is not None:
                return defined
            continue
        if root.lemma_ in STATIVE and subj.dep_ == "nsubj" or any(c.dep_ == "neg" for c in root.children) or \
                subj.ent_type_ == "PERSON":
            continue  # what it has or is not, or what a person does with their life: no description of a function
        end = root.right_edge.i + 1
        while end > subj.right_edge.i + 1 and doc[end - 1].text in {".", ",", ";", ":", "!", "?", "—", "–"}:
            end -= 1
        return _clean(doc[subj.right_edge.i + 1:end].text)
    return None


def _adds_said(rest: str, span: Span, thing: str) -> bool:
    """What the question adds is said: a condition word for word with its polarity, else all but MAX_UNSAID words
    (by the span, its title or its headings)."""
    if not rest:
        return True
    have = terms(f"{span.display} {span.title} {span.section}").words
    wanted = terms(rest).words - terms(thing).words
    if CONDITION.match(rest):
        return wanted <= terms(span.display).words and bool(NEGATION.search(rest)) == bool(NEGATION.search(span.display))
    return len(wanted - have) <= (MAX_UNSAID if SETTING.match(rest) else 0)


def read_description(question: str, spans: Sequence[Span], parse: Callable[[str], Any], pool: int = 6
                   ) -> tuple[list[Span], str, dict[str, Any]] | None:
    """(the span, its description of the thing asked, the basis) for a question asking what a thing does or is
    for; a glossed term among all ``spans`` first, else a subject's predicate among the first ``pool``."""
    asked = thing_described(question)
    if asked is None:
        return None
    thing, rest = asked
    names = thing_names(thing)
    past = bool(re.match(r"(?i).*\bwhat\s+did\b", question))
    what_is = bool(re.match(rf"(?i)\s*what(?:\s+(?:is|are)|['’]s)\s+(?:the\s+|an?\s+)?{re.escape(thing)}\s*\??\s*$",
                            question))  # "What is Tallyhouse?": what a copula says it is describes it too
    for span in spans:
        desc = glossed(span.display, names)
        if desc is not None and _adds_said(rest, span, thing) and _describes(desc, parse):
            return [span], desc, {"kind": "described", "how": "glossed", "unit_id": span.unit_id, "quote": span.quote}
    for span in spans[:pool]:
        if span.kind != "sentence" or not _adds_said(rest, span, thing):
            continue
        # a subject standing for the thing ("the system") only where the question's condition pins the sentence
        headed = bool(rest) and any((nw := terms(n).words) and nw <= terms(f"{span.title} {span.section}").words
                                    for n in names)
        desc = _subject_predicate(parse(span.display), names, headed, past, what_is)
        if desc is not None:
            return [span], desc, {"kind": "described", "how": "subject", "unit_id": span.unit_id, "quote": span.quote}
    return None
