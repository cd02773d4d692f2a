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
