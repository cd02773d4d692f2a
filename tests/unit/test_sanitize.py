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


# -- tenant names: one check, wherever a tenant enters ---------------------------------------------

GOOD_TENANTS = ["default", "t", "t_0123456789ab", "e2e_0123abcd", "eval-hotpotqa", "bench_1a2b3c4d", "a.b-c_d",
                "A" * 64, "7up"]
BAD_TENANTS = ["", " ", "a b", " a", "a ", "a'b", 'a"b', "a/b", "a\\b", "a\x00b", "a..b", "..", ".a", "-a", "_a",
               "A" * 65, "a\nb", "a`b", "a;b", "tenant'}) DETACH DELETE n //", "'; DROP TABLE kmrag_units; --",
               "é", "a:b", "a$b"]


@pytest.mark.parametrize("good", GOOD_TENANTS)
def test_valid_tenants_pass_unchanged(good):
    from kmrag.schema.sanitize import check_tenant

    assert check_tenant(good) == good


@pytest.mark.parametrize("bad", BAD_TENANTS)
def test_hostile_tenants_are_refused_naming_the_tenant_and_pattern(bad):
    from kmrag.schema.sanitize import TENANT_RE, check_tenant

    with pytest.raises(InvalidIdentifier) as e:
        check_tenant(bad)
    assert repr(bad) in str(e.value) and TENANT_RE.pattern in str(e.value)


@pytest.mark.parametrize("bad", ["a b", "a/b", "a..b", "x'y", "a\\b"])
def test_settings_env_flag_and_models_refuse_a_bad_tenant(bad, tmp_path):
    from kmrag.config import load_settings
    from kmrag.errors import ConfigError
    from kmrag.schema import Source
    from kmrag.schema.sanitize import TENANT_RE

    none = tmp_path / "none.toml"
    with pytest.raises(ConfigError) as e:
        load_settings(config_file=none, environ={"KMRAG_TENANT": bad})
    assert "KMRAG_TENANT" in str(e.value) and TENANT_RE.pattern in str(e.value) and repr(bad) in str(e.value)
    with pytest.raises(ConfigError):
        load_settings(config_file=none, environ={}, tenant=bad)  # the --tenant flag
    with pytest.raises(ValueError, match="not a valid tenant name"):
        Source(id="s", tenant=bad, uri="s", version="v", content_hash="h")


def test_every_store_method_taking_a_tenant_checks_it(tmp_path):
    """No database is touched: the check runs before the method body (the pool here would fail on use)."""
    import inspect

    from kmrag.graph.local_store import LocalGraphStore
    from kmrag.graph.neo4j_store import Neo4jGraphStore
    from kmrag.units.jobs import JobStore
    from kmrag.units.store import PgUnitStore

    for cls in (LocalGraphStore, Neo4jGraphStore, PgUnitStore, JobStore):
        methods = [n for n in dir(cls) if not n.startswith("_") and inspect.isfunction(getattr(cls, n))
                   and "tenant" in inspect.signature(getattr(cls, n)).parameters]
        assert methods and all(getattr(getattr(cls, n), "__tenant_checked__", False) for n in methods), cls
    stores = [LocalGraphStore(tmp_path / "g"), Neo4jGraphStore(object()), PgUnitStore(object()), JobStore(object())]
    calls = [("unit_ids", ("a/b",)), ("clear_tenant", ("x y",)), ("relations", ("a..b",)),
             ("get_units", ("a'b", ["u_0"])), ("list", ("a b",)), ("relation_paths", (), {"tenant": "a/b",
                                                                                        "entity_ids": ["e"]})]
    tried = 0
    for store in stores:
        for name, args, *kw in calls:
            if hasattr(store, name):
                with pytest.raises(InvalidIdentifier, match="not a valid tenant name"):
                    getattr(store, name)(*args, **(kw[0] if kw else {}))
                tried += 1
    assert tried >= 8


@pytest.mark.parametrize("bad", [
    "IS`]->() DETACH DELETE n //", "'; DROP TABLE kmrag_units; --", "MATCH (n) DETACH DELETE n", "} RETURN 1 //",
    "$tenant", "`$x`", "a\x00b", "x\nMATCH (n) DELETE n", "is ` capital", "ｉｓ ｃａｐｉｔａｌ", "x" * 500 + "`",
    "\u202eevil", "is\\u0060of", "{tenant: 'other'}",
])
def test_hostile_predicates_become_plain_identifiers_or_are_refused(bad):
    from kmrag.schema.sanitize import IDENTIFIER_RE, MAX_LEN

    try:
        ident = relationship_type(bad)
    except InvalidIdentifier:
        return
    assert IDENTIFIER_RE.fullmatch(ident) and len(ident) <= MAX_LEN
    assert relationship_type(bad) == ident  # the same predicate, the same type
