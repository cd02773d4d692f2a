import pytest

from kmrag.errors import InvalidIdentifier
from kmrag.schema.sanitize import check_identifier, relationship_type

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [
        ("is capital of", "IS_CAPITAL_OF"),
        ("born in", "BORN_IN"),
        ("née à", "NEE_A"),
        ("3rd member of", "R_3RD_MEMBER_OF"),
        ("  works--for  ", "WORKS_FOR"),
    ],
)
def test_predicates_become_safe_types(predicate, expected):
    assert relationship_type(predicate) == expected


@pytest.mark.parametrize("bad", ["`]->() DETACH DELETE n //", "x}) MATCH (n) DELETE n", "a`b"])
def test_injection_attempts_cannot_survive(bad):
    ident = relationship_type(bad)
    assert check_identifier(ident) == ident
    assert "`" not in ident and "(" not in ident and " " not in ident


@pytest.mark.parametrize("bad", ["", "lower", "A B", "A`", "1ABC", "A" * 65, "ÄB"])
def test_check_identifier_rejects(bad):
    with pytest.raises(InvalidIdentifier):
        check_identifier(bad)


def test_nothing_usable_left_is_an_error():
    with pytest.raises(InvalidIdentifier):
        relationship_type("!!! ---")


@pytest.mark.parametrize("bad", ["KNOWS\n", "KNOWS\r\n", "\nKNOWS", "KNOWS\n`]->() DETACH DELETE n //"])
def test_check_identifier_rejects_line_breaks(bad):
    with pytest.raises(InvalidIdentifier):
        check_identifier(bad)


def _hashed(canonical: str) -> str:
    import hashlib

    return "REL_" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:10].upper()


@pytest.mark.parametrize(
    ("predicate", "canonical"),
    [
        ("出生于", "出生于"),  # Chinese: "born in"
        ("родился в", "родился в"),  # Cyrillic does not fold to ASCII under NFKD
        ("  Родился\t\tВ ", "родился в"),  # whitespace collapsed, case folded
        ("وُلد في", "وُلد في"),  # Arabic, with a combining vowel mark
    ],
)
def test_non_latin_predicates_get_a_stable_hashed_type(predicate, canonical):
    ident = relationship_type(predicate)
    assert ident == _hashed(canonical)
    assert check_identifier(ident) == ident and len(ident) == 14
    assert relationship_type(predicate) == ident  # deterministic


def test_hashed_types_tell_predicates_apart_and_ignore_case_and_spacing():
    assert relationship_type("родился в") == relationship_type("РОДИЛСЯ   В")
    assert relationship_type("出生于") != relationship_type("首都")
    assert relationship_type("родился в") != relationship_type("умер в")


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [
        ("born 出生于", "BORN"),
        ("член of", "OF"),
        ("1984年", "R_1984"),
        ("née в", "NEE"),
    ],
)
def test_partly_latin_predicates_keep_the_folded_form(predicate, expected):
    assert relationship_type(predicate) == expected


@pytest.mark.parametrize("empty", ["", " ", "\t\n ", "\u3000"])
def test_empty_predicates_still_raise(empty):
    with pytest.raises(InvalidIdentifier):
        relationship_type(empty)
