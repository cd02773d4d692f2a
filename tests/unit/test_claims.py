"""A yes / no question read as one claim per entity (kmrag.answer.claims), and "yes" only when each
entity's span supports its claim. Questions and spans of our own."""

from __future__ import annotations

import pytest

from kmrag.answer.claims import claims

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("question, names, made", [
    ("Are Lufthansa and Air India both flag carriers?", ["Lufthansa", "Air India"],
     ["Lufthansa is flag carriers.", "Air India is flag carriers."]),
    ("Were Munich Airport and Delhi Airport both opened in 1992?", ["Munich Airport", "Delhi Airport"],
     ["Munich Airport was opened in 1992.", "Delhi Airport was opened in 1992."]),
    ("Is Lufthansa based in Cologne?", ["Lufthansa"], ["Lufthansa is based in Cologne."]),
    ("Did Carsten Spohr run both Lufthansa and Eurowings?", ["Lufthansa", "Eurowings"],
     ["Carsten Spohr did run Lufthansa.", "Carsten Spohr did run Eurowings."]),
    ("Do Lufthansa, Swiss and Austrian all fly to Delhi?", ["Lufthansa", "Swiss", "Austrian"],
     ["Lufthansa does fly to Delhi.", "Swiss does fly to Delhi.", "Austrian does fly to Delhi."]),
    ("Did Bank of America buy both Merrill Lynch and Countrywide?", ["Merrill Lynch", "Countrywide"],
     ["Bank of America did buy Merrill Lynch.", "Bank of America did buy Countrywide."]),
])
def test_a_question_becomes_one_claim_per_entity(question: str, names: list[str], made: list[str]) -> None:
    assert claims(question, names) == made


@pytest.mark.parametrize("question, names", [
    ("Which airline is older, Lufthansa or Air India?", ["Lufthansa", "Air India"]),  # not yes / no
    ("Is Lufthansa older than Air India?", ["Lufthansa", "Air India"]),                # not one coordination
    ("Are Lufthansa and Air India both flag carriers?", ["Lufthansa", "Qantas"]),      # a name not asked about
    # a predicate of the group, not of each one
    ("Were Scott Stapp and Mark Tremonti in the same band?", ["Scott Stapp", "Mark Tremonti"]),
    ("Are Lufthansa and Air India partners?", ["Lufthansa", "Air India"]),
    ("Did Lennon and McCartney write songs together?", ["Lennon", "McCartney"]),
    ("Are Munich and Delhi different cities?", ["Munich", "Delhi"]),
    # the words after the names are capitalised: a name may run on ("Nosferatu American"?)
    ("Are Metropolis and Nosferatu American films?", ["Metropolis", "Nosferatu"]),
])
def test_no_claims_where_the_question_is_not_of_that_shape(question: str, names: list[str]) -> None:
    assert claims(question, names) is None


def test_a_name_the_analysis_clipped_is_written_as_the_question_has_it() -> None:
    assert claims("Are Edmund Varga and Bille August both film directors?", ["Edmund Varga", "Bille"],
                  ["Are Edmund Varga", "Bille", "Edmund Varga", "Bille August"]) == \
        ["Edmund Varga is film directors.", "Bille August is film directors."]


def test_a_mention_that_runs_into_another_name_is_not_the_name() -> None:
    """"Santos and Fabián Bielinsky", a mention the parser ran across the coordination, is not how the question
    writes Fabián Bielinsky."""
    q = "Were Nelson Pereira dos Santos and Fabián Bielinsky both directors?"
    mentions = ["Nelson Pereira", "Santos", "Fabián Bielinsky", "Santos and Fabián Bielinsky", "Nelson Pereira dos Santos"]
    assert claims(q, ["Nelson Pereira dos Santos", "Fabián Bielinsky"], mentions) == [
        "Nelson Pereira dos Santos was directors.", "Fabián Bielinsky was directors."]
