"""The matcher of paraphrased evidence (GraphRAG-Bench) and the evidence recall built on it: it must find a
paraphrase in the passage it paraphrases, and must not find it in another passage of the same novel, in the
same words scattered far apart, or in text that shares only a name."""

from __future__ import annotations

import pytest

from kmrag.eval.evidence_match import THRESHOLD, content_words, coverage, evidence_recall, holds

pytestmark = pytest.mark.unit

# Novel-8559 of GraphRAG-Bench (Scientific American Supplement), as in the corpus
RETORTS = ("_The Animal Black Furnace_.--This consists of a masonry casing of rectangular form, in which are "
           "arranged on each side of the same fire-place two rows of cast-iron retorts, D, of undulating form, each "
           "composed of three parts, set one within the other. These retorts, which serve for the revivification of "
           "the black, are incased in superposed blocks of refractory clay, P, Q, S, designed to regularize the "
           "transmission of heat and to prevent burning.")
# two evidence sentences of the benchmark's questions about that passage
BLOCKS_EVIDENCE = ("The blocks that encase the retorts in the revivification furnace for bone-black are made of "
                   "refractory clay.")
FOOD = ("The other organic constituents--viz., the fats and the starches and sugars--contain no nitrogen, and were at "
        "one time thought to be concerned in producing animal heat. We now know--thanks to the labors of Joule, Lyon "
        "Playfair, Clausius, Tyndall, Helmholtz, etc.--that heat itself is a mode of motion, a form of convertible "
        "energy, which can be made to do useful or productive work.")
RETORTS_EVIDENCE = "The retorts in Schreiber's apparatus for revivifying bone-black are constructed from cast-iron."
# Novel-2544 (Bret Harte)
COTA = ("There was a sound of applause from the innkeeper and his wife, assisted by a lounging vaquero in the "
        "corridor. Ashamed of his victory, Grey turned apologetically to Cota. To his surprise she glanced "
        "indifferently at the trickling sides of her favorite, and only regarded him curiously.")


def test_content_words_fold_case_accents_possessives_and_suffixes():
    assert content_words("Schreiber's Retorts were CONSTRUCTED from cast-iron; Café") == [
        "schreiber", "retort", "construct", "cast", "iron", "cafe"]
    assert content_words("the of and a to") == []


def test_a_near_paraphrase_matches_the_passage_it_paraphrases():
    assert coverage(BLOCKS_EVIDENCE, RETORTS) >= THRESHOLD
    assert holds(RETORTS, BLOCKS_EVIDENCE)
    assert holds(COTA, "Grey turned apologetically to Cota after his victory.")


def test_an_unrelated_passage_of_the_same_novel_does_not_match():
    assert coverage(BLOCKS_EVIDENCE, FOOD) < 0.2
    assert not holds(FOOD, BLOCKS_EVIDENCE)
    assert not holds(FOOD, RETORTS_EVIDENCE)


def test_sharing_the_names_alone_is_not_enough():
    assert not holds(COTA, "Grey bought a horse from Cota's father in Monterey.")


def test_the_words_scattered_far_apart_do_not_match():
    filler = " ".join(f"word{i}" for i in range(60))
    scattered = f"The retorts stood there. {filler} Schreiber came. {filler} It was cast. {filler} Iron and bone."
    assert not holds(scattered, "Schreiber's retorts are cast iron bone.")
    together = "Schreiber's retorts were cast in iron and bone."
    assert holds(together, "Schreiber's retorts are cast iron bone.")


def test_a_paraphrase_in_other_words_is_missed_the_known_cost():
    # the passage says cast-iron retorts; "Schreiber's apparatus" is named a page before it, "constructed" nowhere
    assert coverage(RETORTS_EVIDENCE, RETORTS) < THRESHOLD
    # "acted ... toward ... during the incident" for "turned ... to": half the content words, below the threshold
    assert coverage("Grey acted apologetically toward Cota during the incident.", COTA) == pytest.approx(0.5)
    assert not holds(COTA, "Grey acted apologetically toward Cota during the incident.")


def test_evidence_without_content_words_matches_nothing():
    assert coverage("It was the one.", RETORTS) == 0.0
    assert not holds(RETORTS, "")


def test_evidence_recall_counts_each_evidence_sentence_once():
    evidence = [BLOCKS_EVIDENCE, "Grey turned apologetically to Cota.", "Joule studied the mode of motion of heat."]
    assert evidence_recall([FOOD, RETORTS], evidence) == pytest.approx(2 / 3)
    assert evidence_recall([RETORTS, RETORTS], evidence[:1]) == 1.0
    assert evidence_recall([COTA], evidence[:1]) == 0.0
    assert evidence_recall([], evidence) == 0.0
    assert evidence_recall([RETORTS], []) is None
