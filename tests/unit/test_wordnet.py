"""WordNet synonyms (kmrag.nlp.wordnet) and what the support check makes of them: the dictionary files are
read where Debian's wordnet-base puts them or where KMRAG_WORDNET_DIR says; without them nothing changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from kmrag.answer.judge import judge
from kmrag.nlp import wordnet

pytestmark = pytest.mark.unit

needs_wordnet = pytest.mark.skipif(not wordnet.available(), reason="WordNet is not installed: apt-get install "
                                                                   "wordnet-base (scripts/test.sh does)")


@needs_wordnet
def test_words_of_one_frequent_sense_are_synonyms() -> None:
    assert wordnet.same_sense("hire", "engage", "verb") and wordnet.same_sense("buy", "purchase", "verb")
    assert wordnet.same_sense("film", "movie", "noun")
    assert not wordnet.same_sense("found", "join", "verb") and not wordnet.same_sense("bear", "die", "verb")
    assert not wordnet.same_sense("hire", "engage", "noun")  # no noun sense of "hire" is one of "engage"
    # sharing only lesser senses is not enough for the support check: "defeated" is not "killed"
    assert wordnet.same_sense("defeat", "kill", "verb", top=5) or not wordnet.first_sense_shared("defeat", "kill", "verb")
    assert not wordnet.first_sense_shared("defeat", "kill", "verb")


def _fresh() -> None:
    wordnet.directory.cache_clear()
    wordnet._index.cache_clear()


def test_a_directory_without_the_files_is_no_wordnet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KMRAG_WORDNET_DIR", str(tmp_path))
    monkeypatch.setattr(wordnet, "_PLACES", ())
    _fresh()
    try:
        assert not wordnet.available() and wordnet.senses("hire", "verb") == ()
        assert not wordnet.same_sense("hire", "engage", "verb")
    finally:
        monkeypatch.undo()
        _fresh()


@needs_wordnet
def test_kmrag_wordnet_dir_off_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KMRAG_WORDNET_DIR", "off")
    _fresh()
    try:
        assert not wordnet.available()
        assert not judge("In 1907 the Harlow Brothers were engaged to design the park.",
                         ["In 1907, the Harlow Brothers were hired to design the park."]).supported
    finally:
        monkeypatch.undo()
        _fresh()
    assert wordnet.available()


def test_the_index_is_read_from_kmrag_wordnet_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # two lemmas sharing their first synset, in index.<pos>'s own format ("lemma pos n p [ptr] sense tag offs")
    (tmp_path / "index.verb").write_text("  1 licence line\nhire v 2 1 @ 2 1 00000010 00000020\n"
                                         "engage v 1 0 1 0 00000020\n")
    (tmp_path / "index.noun").write_text("")
    monkeypatch.setenv("KMRAG_WORDNET_DIR", str(tmp_path))
    _fresh()
    try:
        assert wordnet.senses("hire", "verb") == (10, 20) and wordnet.same_sense("Hire", "engage", "verb")
        assert not wordnet.same_sense("hire", "engage", "verb", top=1)  # the shared sense is hire's second
        assert wordnet.first_sense_shared("hire", "engage", "verb")  # engage's first is one of hire's
    finally:
        monkeypatch.undo()
        _fresh()


@needs_wordnet
@pytest.mark.parametrize(("statement", "span", "supported"), [
    # a verb of the same frequent sense is a paraphrase ...
    ("In 1907 the Harlow Brothers were engaged to design the park.",
     "In 1907, the Harlow Brothers were hired to design the park.", True),
    # ... but never two roles the check keeps apart, nor an opposite
    ("Mara Quist published the novel Low Tide.", "Mara Quist wrote the novel Low Tide.", False),
    ("Mara Quist composed the song.", "Mara Quist wrote the song.", False),
    ("Oskar Vale died in Eastport.", "Oskar Vale was born in Eastport.", False),
    ("Oskar Vale survived the war.", "Oskar Vale lived through the war.", False),
])
def test_the_support_check_reads_wordnet_synonyms(statement: str, span: str, supported: bool) -> None:
    assert judge(statement, [span]).supported is supported


def test_a_title_starting_with_no_is_no_negation() -> None:
    span = "No Return is a 1938 British thriller film directed by Tom Harlan and starring Vera Quist."
    assert judge("Vera Quist starred in No Return, a British thriller from 1938 that Tom Harlan directed.", [span]).supported
    assert not judge("Vera Quist did not star in No Return.", [span]).supported
