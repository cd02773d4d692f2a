"""The support check (kmrag.answer.judge) measured on the hand-labelled set (tests/data/support/labelled.jsonl):
precision and recall of "supported", per split, and the kinds of error it must always catch.

The figures asserted are floors just under what was measured (first 0.88 / 0.76 on tune and 0.87 / 0.77 on
test; with the clauses read from the spans' dependency parse, 0.906 / 0.841 and 0.888 / 0.833; with descriptions
bridging two spans, rows of a list, joint subjects and "respectively", 0.961 / 0.891 and 0.897 / 0.842; with a
parent-child tie read from either end, 0.961 / 0.899 and 0.897 / 0.842; with cast lists, doers' nouns and
title numbers, 0.962 / 0.928 and 0.897 / 0.842: the test half did not move); the issue's
target (precision >= 0.95, recall >= 0.90) is NOT met by this offline checker, and the test says so rather
than hiding it: ``test_the_target_is_not_yet_met`` fails the day it is, so the floors are raised with it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from kmrag.answer.judge import judge

pytestmark = pytest.mark.unit

SET = Path(__file__).resolve().parents[1] / "data" / "support" / "labelled.jsonl"
FLOORS = {"tune": (0.95, 0.92), "test": (0.88, 0.83)}


def _scores(split: str | None) -> tuple[float, float, Counter[str]]:
    counts: Counter[str] = Counter()
    for line in SET.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        if split and r["split"] != split:
            continue
        said = judge(r["statement"], r["spans"], r.get("titles") or []).supported
        counts[("t" if said == r["supported"] else "f") + ("p" if said else "n")] += 1
        if said != r["supported"]:
            counts["wrong:" + r["kind"]] += 1
    precision = counts["tp"] / max(1, counts["tp"] + counts["fp"])
    recall = counts["tp"] / max(1, counts["tp"] + counts["fn"])
    return precision, recall, counts


@pytest.fixture(scope="module")
def measured() -> dict[str, tuple[float, float, Counter[str]]]:
    return {split: _scores(split) for split in ("tune", "test")}


@pytest.mark.parametrize("split", ["tune", "test"])
def test_precision_and_recall_stay_at_or_above_the_measured_floor(measured: dict, split: str) -> None:
    precision, recall, counts = measured[split]
    floor_p, floor_r = FLOORS[split]
    assert precision >= floor_p and recall >= floor_r, (split, precision, recall, counts)


def test_the_target_is_not_yet_met(measured: dict) -> None:
    precision, recall, _ = measured["test"]
    assert not (precision >= 0.95 and recall >= 0.90), "the target is met: raise FLOORS and drop this test"


def test_a_checker_that_always_says_supported_scores_badly() -> None:
    # the measure can fail: "always supported" has the set's base rate as precision
    rows = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines()]
    base = sum(r["supported"] for r in rows) / len(rows)
    assert base < 0.5


@pytest.mark.parametrize("statement, spans, why", [
    ("Air India was founded in 1953.", ["Air India is the flag carrier of India.", "Lufthansa was founded in 1953."],
     "joins"),
    ("Air India, the flag carrier of India, was founded in 1953.",
     ["Air India is the flag carrier of India.", "Lufthansa was founded in 1953."], "about"),
    ("For more than 3500 km the compensation is 400 EUR.",
     ["Flight distance: more than 3500 km; Compensation: 600 EUR",
      "Flight distance: between 1500 km and 3500 km; Compensation: 400 EUR"], "joins"),
    ("Lufthansa was acquired in 1953.", ["Lufthansa was founded in 1953 and is based in Cologne."], "acquired"),
    ("Lufthansa never operates a flight from Delhi to Munich.", ["Lufthansa operates a daily flight from Delhi to Munich."],
     "negates"),
    ("Lufthansa is the chief executive of Carsten Spohr.", ["Carsten Spohr is the chief executive of Lufthansa."], "roles"),
    # a small instruct model's draft in CI: the one name put in both roles
    ("Lufthansa is the chief executive of Lufthansa.", ["Carsten Spohr is the chief executive of Lufthansa."],
     "both sides"),
    ("Lufthansa is the chief executive of Lufthansa.",
     ["Carsten Spohr, formerly at Lufthansa, is the chief executive of Lufthansa."], "both sides"),
    ("Lufthansa operates a daily flight from Munich to Delhi.", ["Lufthansa operates a daily flight from Delhi to Munich."],
     "from Delhi to Munich"),
    ("Berlin is about 5,900 km from Delhi and Munich.",
     ["The great-circle distance between Delhi and Munich is about 5,900 km."], "Berlin"),
    ("Creed disbanded in 2001.", ["Creed released its third album, Weathered, in 2001, with Tremonti handling bass, "
                                  "and the band disbanded in 2004."], "2001"),
    ("Creed disbanded in 2004.", ["The band disbanded in 2004 after a long tour."], "Creed"),
    ("Edmund Varga is a painter.", ["Edmund Varga was a Hungarian film director."], "nothing but the names"),
    # a kin word the span says otherwise, however close their vectors (cases of our own)
    ("Mara Voss is the niece of the painter Ilse Voss.", ["Mara Voss is the granddaughter of the painter Ilse Voss."],
     "niece"),
    ("Tomas Reyes was the uncle of the pilot Ana Reyes.", ["He was the cousin of the pilot Ana Reyes."], "uncle"),
])
def test_each_kind_of_unsupported_statement_fails_and_names_what(statement: str, spans: list[str], why: str) -> None:
    v = judge(statement, spans)
    assert not v.supported and v.failed and why in v.failed, v


@pytest.mark.parametrize("statement, spans", [
    ("Lufthansa was established in 1953.", ["Lufthansa was founded in 1953 and is based in Cologne."]),
    ("Delhi and Munich are roughly 5900 kilometres apart.",
     ["The great-circle distance between Delhi and Munich is about 5,900 km."]),
    ("Lufthansa's chief executive is Carsten Spohr.", ["Carsten Spohr is the chief executive of Lufthansa."]),
    ("Carsten Spohr is the chief executive of Lufthansa, which flies daily from Delhi to Munich.",
     ["Carsten Spohr is the chief executive of Lufthansa.", "Lufthansa operates a daily flight from Delhi to Munich."]),
    ("It was founded in 1953.", ["It was founded in 1953 and is based in Cologne."]),
    ("Munich Airport lies in Bavaria.", ["Munich Airport is located in Bavaria."]),
    ("Mara Voss is the daughter of Ilse Voss.", ["Mara Voss is the daughter of Ilse Voss and Jan Voss."]),
    ("Lufthansa owns Lufthansa Cargo.", ["Lufthansa Cargo is owned by Lufthansa."]),
    ("Every day, Lufthansa flies from Delhi to Munich.", ["Lufthansa operates a daily flight from Delhi to Munich."]),
    ("The Miami Marlins hosted the game at Marlins Park.", ["The game was hosted by the Miami Marlins at Marlins Park."]),
])
def test_paraphrases_pass_and_say_which_spans_they_rest_on(statement: str, spans: list[str]) -> None:
    v = judge(statement, spans)
    assert v.supported and v.failed is None and v.used, v


@pytest.mark.parametrize("statement, spans", [
    ("He died on 5 May 1990.", ["John (5 May 1990 – 3 June 2020) was an actor."]),   # the birth, not the death
    ("John was born on 3 June 2020.", ["John (5 May 1990 – 3 June 2020) was an actor."]),
    ("The bridge is 1,000 metres long.", ["The bridge is 1000.5 m long."]),
    ("Google bought YouTube for $1.65 billion.", ["Google bought YouTube for $1.65 million."]),
    ("The river is 500 km long.", ["The river is 500 miles long."]),
    ("It costs 5 euros.", ["It costs 5 dollars."]),
    ("It costs £5.", ["It costs $5."]),
])
def test_units_scales_and_lifespans_are_part_of_the_claim(statement: str, spans: list[str]) -> None:
    assert not judge(statement, spans).supported


def test_more_titles_than_spans_is_no_crash() -> None:
    assert judge("Paris is in France.", ["Paris is in France."], ["", "", ""]).supported


# Clauses and coordination read from the cited span's dependency parse (cases of our own, not of the set)
@pytest.mark.parametrize("statement, spans, titles, supported", [
    # a number is said of the coordinated name or verb it hangs from, however far apart the words stand
    ("Okafor married Eva Berg in 1976.", ["He later married Ana Lind in 1966 and Eva Berg in 1976."],
     ["Emeka Okafor"], True),
    ("Okafor married Ana Lind in 1976.", ["He later married Ana Lind in 1966 and Eva Berg in 1976."],
     ["Emeka Okafor"], False),
    ("The regiment was disbanded in 1919.", ["The regiment was raised in 1914 to fight in France, and later "
                                             "disbanded in 1945."], ["The Rifles"], False),
    ("On 2 May 1890 Professor Ada Byrne sent the governor a letter.",
     ["On 2 May 1890 Professor Ada Byrne, Lady Ashby, the colony's chief botanist, sent to the governor a letter."],
     ["Letter"], True),
    # a negation in a clause the statement does not draw on is not the statement's
    ("The tower was completed in 1890 by Gustave Eiffel.",
     ["Built of iron that was not made in Paris, the tower was completed in 1890 by Gustave Eiffel."], ["Tower"], True),
    # "refused to fund" says it did not
    ("The foundation funded his films.", ["The foundation always refused to fund his films."], ["Foundation"], False),
    ("The foundation declined to fund his films.", ["The foundation funded his films."], ["Foundation"], False),
    # a clause joined to a noun rests on that noun: a name, or a thing both spans name
    ("Carsten Spohr heads Lufthansa, an airline founded in 1953.",
     ["Carsten Spohr is the chief executive of Lufthansa.", "Lufthansa was founded in 1953."], ["", ""], True),
    ("Carsten Spohr heads Lufthansa, an airline founded in 1926.",
     ["Carsten Spohr is the chief executive of Lufthansa.", "Lufthansa was founded in 1953."], ["", ""], False),
    ("Munich Airport is located in the state where the Oktoberfest is held.",
     ["Munich Airport is located in Bavaria.", "The Oktoberfest is held every year in Bavaria."], ["", ""], True),
    ("Munich Airport is located in the state where the Carnival is held.",
     ["Munich Airport is located in Bavaria.", "The Carnival is held every year in Venice."], ["", ""], False),
    # words that claim nothing of their own there
    ("Scott Stapp used to front Creed.", ["Scott Stapp is the former frontman of the band Creed."], [""], True),
    ("Velgošti lies north of Lake Ohrid.", ["Velgošti is a village north of Lake Ohrid."], [""], True),
    ("Ana Lind played a lead role in Winter Tides.", ["Ana Lind was offered a lead role in Winter Tides but turned it "
                                                      "down."], [""], False),
    ("Scott Stapp used to front Creed.", ["Scott Stapp hoped to front the band Creed."], [""], False),
    ("Ada Lovelace, born Augusta Ada Byron, lived from 1815 to 1852.",
     ["Augusta Ada Byron (10 December 1815 – 27 November 1852), known as Ada Lovelace, was a mathematician."],
     ["Ada Lovelace"], True),
    ("Ada Lovelace was born in 1852 and died in 1815.",
     ["Augusta Ada Byron (10 December 1815 – 27 November 1852), known as Ada Lovelace, was a mathematician."],
     ["Ada Lovelace"], False),
    # a "not" above the clause the statement draws on; "declined to 3 million" is no negation
    ("The regiment was disbanded in 1919.", ["Historians do not agree, however, that the regiment was disbanded in "
                                             "1919."], ["The Rifles"], False),
    ("Sales declined in 2010.", ["Sales declined to 3 million in 2010."], ["Acme"], True),
    ("The team failed to qualify in 2010.", ["In 2010 the team's failure to qualify ended the coach's tenure."],
     ["Acme FC"], True),
    # the thing both spans name must be said in the clause the statement draws on
    ("Munich Airport is located in the state where the Carnival is held.",
     ["Munich Airport is located in Bavaria, Germany.",
      "The Carnival is held every year in Venice, Italy, and draws crowds from Germany."], ["", ""], False),
    ("Ada Lovelace was born in 1852.",
     ["Augusta Ada Byron (10 December 1815 – 27 November 1852), known as Ada Lovelace, was a mathematician."],
     ["Ada Lovelace"], False),
    # a title with an entity in it, a title with "No" in it, "the film by X"
    ("The cover of X&Y shows blocks of colour.", ["The album's cover shows blocks of colour."], ["X&amp;Y"], True),
    ("Ed Oxenbould starred in Alexander and the Terrible, Horrible, No Good, Very Bad Day.",
     ["He starred in Alexander and the Terrible, Horrible, No Good, Very Bad Day."], ["Ed Oxenbould"], True),
    ("Ed Oxenbould never starred in Alexander and the Terrible, Horrible, No Good, Very Bad Day.",
     ["He starred in Alexander and the Terrible, Horrible, No Good, Very Bad Day."], ["Ed Oxenbould"], False),
    ("Winter Tides was the first film by director Ana Lind.", ["Winter Tides is the debut film of director Ana Lind."],
     [""], True),
])
def test_clauses_coordination_and_light_words(statement: str, spans: list[str], titles: list[str],
                                              supported: bool) -> None:
    v = judge(statement, spans, titles)
    assert v.supported is supported, v


def test_every_span_of_the_set_supports_itself() -> None:
    """A quote says what it quotes: each of the set's 447 spans, judged as a statement against itself (a seam:
    the extractive reader's statements are such quotes, and a check that drops one loses a right answer)."""
    seen: dict[str, str] = {}
    for line in SET.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        seen.update(zip(r["spans"], r["titles"], strict=True))
    failed = [(span[:80], v.failed) for span, title in seen.items() if not (v := judge(span, [span], [title])).supported]
    assert len(seen) > 400 and not failed, failed


@pytest.mark.parametrize("statement, span", [
    # a lifespan in the statement is the span's own, however "born" stands around it
    ("Ramanand Sagar (29 December 1917 – 12 December 2005) (born Chandramauli Chopra) was an Indian film director.",
     "Ramanand Sagar (29 December 1917 – 12 December 2005) (born Chandramauli Chopra) was an Indian film director."),
    ("Cy Coleman (born Seymour Kaufman; June 14, 1929 – November 18, 2004) was an American composer.",
     "Cy Coleman (born Seymour Kaufman; June 14, 1929 – November 18, 2004) was an American composer and pianist."),
    # one whole sentence of a longer span, word for word, in any script
    ("Flydubai (Arabic: فلاي دبي) is an airline.", "Flydubai (Arabic: فلاي دبي) is an airline. It is based in Dubai."),
    # a sentence as the answer states it: no space before a comma, though the span has one; stress marks kept
    ("Sergei Tokarev (Russian: Серге́й То́карев, 29 December 1899 – 19 April 1985) was a Russian ethnographer.",
     "Sergei Tokarev (Russian: Серге́й То́карев , 29 December 1899 – 19 April 1985) was a Russian ethnographer."),
    ("Sergei Tokarev (Серге́й То́карев) was a professor at Moscow State University.",
     "Sergei Tokarev (Серге́й То́карев) was a Russian ethnographer and a professor at Moscow State University."),
])
def test_a_quote_of_the_span_is_supported(statement: str, span: str) -> None:
    assert judge(statement, [span]).supported


# Descriptions that stand for a thing two spans name, rows of a list, names joined before one predicate (cases of
# our own, not of the set)
@pytest.mark.parametrize("statement, spans, titles, supported", [
    # a description standing for a thing both spans name, said nowhere in the statement
    ("Ana Lind is the chief executive of Norway's largest airline.",
     ["Nordair is the largest airline of Norway.", "Ana Lind is the chief executive of Nordair."], ["", ""], True),
    ("Ana Lind is the chief executive of Norway's largest airline.",
     ["Skyline is the largest airline of Norway.", "Ana Lind is the chief executive of Nordair."], ["", ""], False),
    ("The state where the Vela Museum stands was won by Ada Brook in 2016.",
     ["The Vela Museum stands in the state of Ostmark.", "The 2016 election in Ostmark was won by Ada Brook."], ["", ""], True),
    ("The state where the Vela Museum stands was won by Ada Brook in 2016.",
     ["The Vela Museum stands in the state of Westmark.", "The 2016 election in Ostmark was won by Ada Brook."], ["", ""], False),
    ("Ana Lind coaches a team that plays its home games at Vale Park.",
     ["She is the head coach of the Alton Rovers.", "The team's home games are played at Vale Park."],
     ["Ana Lind", "Alton Rovers"], True),
    # two spans of one unit share its title: the title is no bridge
    ("Vohrer's 1972 film Red Tide was entered into the 9th Riga Film Festival.",
     ["His 1972 film Red Tide was entered into the 8th Riga Film Festival.",
      "His 1974 film Blue Moon was entered into the 9th Riga Film Festival."], ["Karl Vohrer", "Karl Vohrer"], False),
    # a value of another row of a list
    ("Okafor was an All-Star at Leeds in 1983.", ["He was an All-Star at Leeds (1979, 1980) and at York (1983, 1984)."],
     ["Emeka Okafor"], False),
    ("Okafor was an All-Star at York in 1983.", ["He was an All-Star at Leeds (1979, 1980) and at York (1983, 1984)."],
     ["Emeka Okafor"], True),
    ("Ada College is ranked 201-300 by the Vale Index.",
     ["Ada College is ranked as 201-300 according to the Hill Index and 301-400 according to the Vale Index."], [""],
     False),
    ("More than 300 poems were attributed to the poet Ada Brook.",
     ["The poet Ada Brook (1801–1850) had more than 300 poems attributed to her."], [""], True),
    # names joined by "and" before one predicate, each from its own span
    ("Alton and Brigg are both in Kesh County.", ["Alton is a village in Kesh County.", "Brigg, a town in Kesh County, "
                                                                                     "has a mill."], ["", ""], True),
    ("Alton and Brigg are both in Kesh County.", ["Alton is a village in Lorn County.", "Brigg, a town in Kesh County, "
                                                                                     "has a mill."], ["", ""], False),
    # a verb parsed as hanging from the name it is said of; a number said of the sentence across a comma
    ("In 1890 Ada Byrne sent the governor a report.",
     ["In 1890 Professor Ada Byrne, Lady Ashby, the colony's chief botanist, sent to the Governor Sir Hugh Reid a "
      "report which later became known as the Byrne report."], [""], True),
    ("At 4,100 feet, Alton has the highest elevation of any town in Kesh.",
     ["Alton has the highest elevation of any town in Kesh; the elevation is 4,100 feet."], [""], True),
    # a word of a name the statement says is not the counterpart of its verb
    ("The Deep won the 2019 Hale Prize.", ["The Deep was a finalist for the 2019 Hale Prize."], [""], False),
])
def test_descriptions_rows_and_joint_subjects(statement: str, spans: list[str], titles: list[str],
                                              supported: bool) -> None:
    v = judge(statement, spans, titles)
    assert v.supported is supported, v


@pytest.mark.parametrize("statement, span, supported", [
    ("Eva Berg was born in Oslo.", "Ana Lind and Eva Berg were born in Oslo and Bergen respectively.", False),
    ("Eva Berg was born in Bergen.", "Ana Lind and Eva Berg were born in Oslo and Bergen respectively.", True),
    ("Dick plays the drums.", "The band members Tom, Dick and Harry play guitar, bass and drums, respectively.", False),
    ("Dick plays bass.", "The band members Tom, Dick and Harry play guitar, bass and drums, respectively.", True),
])
def test_respectively_pairs_the_items_of_two_lists_in_order(statement: str, span: str, supported: bool) -> None:
    v = judge(statement, [span])
    assert v.supported is supported and (supported or "goes with" in (v.failed or "")), v


# Statements of our own over real spans of the sets' kind, written to probe each rule (not taken from the set):
# the wrong one of two coordinated verbs, a clause with its own subject, a kin word said of another name,
# opposites whose lemma hides them ("older"), rows, "X starred in Y" / "Y starring X"
OWN_UNSUPPORTED = [
    ("Shane Jacobson directed Brothers' Nest.",
     ["Brothers' Nest is a 2018 Australian black comedy film directed by Clayton Jacobson and starring him and his brother Shane Jacobson."]),
    ("Bob Ray is a documentary by Total Badass.",
     ["Total Badass is a 2010 documentary by American director and producer Bob Ray that first premiered on May 19, 2010."]),
    ("Total Badass was released in 2011.",
     ["Total Badass is a 2010 documentary by American director and producer Bob Ray that first premiered on May 19, 2010."]),
    ("John Phan lives in Da Nang.",
     ["Bon \"John\" Phan (born October 10, 1974 in Da Nang, Vietnam) is a Vietnamese-American professional poker player based in Stockton, California."]),
    ('Peter Cotes produced The Young and the Guilty.',
     ['The Young and the Guilty is a 1958 British drama film directed by Peter Cotes and starring Phyllis Calvert.']),
    ('Phyllis Calvert directed The Young and the Guilty.',
     ['The Young and the Guilty is a 1958 British drama film directed by Peter Cotes and starring Phyllis Calvert.']),
    ('Harmesh Malhotra died on 14 June 1936.',
     ['Harmesh Malhotra( 14 June 1936 – 22 November 2005) was an Indian film director, producer, and screenplay writer.']),
    ('John Phan was born in Stockton, California.',
     ['Bon "John" Phan (born October 10, 1974 in Da Nang, Vietnam) is a Vietnamese-American professional poker player based in Stockton, California.']),
    ('Lufthansa owns Air India.',
     ['Air India is the flag carrier of India.', 'Lufthansa was founded in 1953.']),
    ('Jane Siberry produced Dragon Dreams.',
     ['Dragon Dreams is a studio album released in 2008 by Canadian singer-songwriter Jane Siberry under the name Issa.']),
    ('Sherry Boucher directed Five Days from Home.',
     ['Five Days from Home is a 1979 American drama film directed by and starring George Peppard, with Sherry Boucher, Savannah Smith.']),
    ('Mike Leigh starred in Grown-Ups.',
     ['Grown-Ups is a 1980 British BBC television film devised and directed by Mike Leigh.']),
    ('Gaius Antonius was the older brother of Mark Antony.',
     ['Gaius Antonius (died 42 BC) was the second son of Marcus Antonius Creticus and Julia Antonia, and thus, younger brother of Mark Antony.']),
    ('Mark Antony was the younger brother of Gaius Antonius.',
     ['Gaius Antonius (died 42 BC) was the second son of Marcus Antonius Creticus and Julia Antonia, and thus, younger brother of Mark Antony.']),
    ('Marcus Antonius Creticus was the son of Gaius Antonius.',
     ['Gaius Antonius (died 42 BC) was the second son of Marcus Antonius Creticus and Julia Antonia.']),
    ('Julia Antonia was the daughter of Mark Antony.',
     ['Julia Antonia was a daughter of Lucius Julius Caesar and mother of Mark Antony.']),
    ('Lucius Julius Caesar was a daughter of Julia Antonia.',
     ['Julia Antonia was a daughter of Lucius Julius Caesar and mother of Mark Antony.']),
    # the tie said the other way round: X is the son of Y, not Y the son of X, nor X a parent of Y
    ("Gaius Antonius's son was Marcus Antonius Creticus.",
     ['Gaius Antonius (died 42 BC) was the second son of Marcus Antonius Creticus and Julia Antonia.']),
    ("Marcus Antonius Creticus's parents were Gaius Antonius and Julia Antonia.",
     ['Gaius Antonius (died 42 BC) was the second son of Marcus Antonius Creticus and Julia Antonia.']),
    # "son of A and B" says which of them are his parents, not which is his mother
    ("Gaius Antonius's mother was Marcus Antonius Creticus.",
     ['Gaius Antonius (died 42 BC) was the second son of Marcus Antonius Creticus and Julia Antonia.']),
    ('The Shallows was nominated for the 2011 Pulitzer Prize.',
     ['"The Shallows" won the 2011 Pulitzer Prize in General Nonfiction.']),
    ('The Visit was written by Ed Oxenbould.',
     ['The Visit is a 2015 American found footage horror film written and directed by M. Night Shyamalan, and starring Olivia DeJonge, Ed Oxenbould.']),
    ('Olivia DeJonge wrote The Visit.',
     ['The Visit is a 2015 American found footage horror film written and directed by M. Night Shyamalan, and starring Olivia DeJonge, Ed Oxenbould.']),
    ('Millipilleri was written by Ere Kokkonen and directed by Pekka Lehto.',
     ['Millipilleri is a 1966 comedy film directed and written by Spede Pasanen, Ere Kokkonen and Jukka Virtanen.']),
    ('Velgošti lies south of Lake Ohrid.',
     ['Velgošti is a village north of Lake Ohrid.']),
    ('The Miami Marlins visited Marlins Park as the away team.',
     ['The game was hosted by the Miami Marlins at Marlins Park.']),
    ('Ibn Sina had fewer than 450 books attributed to him.',
     ['The Persian scholar Ibn Sina (Avicenna) (980–1037) had more than 450 books attributed to him.']),
    ('Creed reunited in 2004.',
     ['Creed released its third album in 2001, and the band disbanded in 2004.']),
    ('Coldplay were formed in 1996 by Chris Martin and Guy Berryman.',
     ['Coldplay are a British rock band formed in 1996 by lead vocalist Chris Martin and lead guitarist Jonny Buckland.']),
    ('Cairo University is ranked 551-600 by the Academic Ranking of World Universities.',
     ['Cairo University is ranked as 401-500 according to the Academic Ranking of World Universities (Shanghai Ranking) and 551-600 according to QS World University Rankings.']),
    ('The Boston Red Sox have won 27 World Series.',
     ['The New York Yankees have played in 40 World Series and won 27, and the Boston Red Sox have played in 12 and won 8.']),
    ('The New York Yankees have played in 12 World Series.',
     ['The New York Yankees have played in 40 World Series and won 27, and the Boston Red Sox have played in 12 and won 8.']),
    ('Air India is headquartered in Cologne.',
     ['Air India is headquartered in New Delhi, while Lufthansa is based in Cologne.']),
    ('Lufthansa is headquartered in New Delhi.',
     ['Air India is headquartered in New Delhi, while Lufthansa is based in Cologne.']),
    ('Jimmy McNatt was a four-time All-American at Oklahoma.',
     ['He was a two-time All-American at Oklahoma (1939, 1940) and a four-time AAU All-American for Phillips 66 (1943, 1944, 1945, 1946).']),
    ('Carsten Spohr succeeded Christoph Franz as chief executive of Lufthansa.',
     ['Christoph Franz succeeded Carsten Spohr as chief executive of Lufthansa.']),
    ('Delhi is the capital of Munich.',
     ['Munich is the capital of Bavaria.']),
    ('The Young and the Guilty starred in Phyllis Calvert.',
     ['The Young and the Guilty is a 1958 British drama film directed by Peter Cotes and starring Phyllis Calvert.']),
    # a doer's noun says its verb only of the name it stands beside
    ('The Great Gatsby was written by Maxwell Perkins.',
     ['The Great Gatsby is a 1925 novel by American writer F. Scott Fitzgerald, edited by Maxwell Perkins.']),
    # a cast list's "C (A)": the roles stand as it puts them
    ('John Payne played Susan.', ['Attorney Fred Gailey (John Payne) takes the daughter Susan (Natalie Wood) to see Santa.']),
    ('Susan played Natalie Wood.', ['Attorney Fred Gailey (John Payne) takes the daughter Susan (Natalie Wood) to see Santa.']),
    # "played a role" is having it, not being offered it; "served as" is being, so the office must be the span's
    ('Ana Lind played a lead role in Winter Tides.', ['Ana Lind was offered a lead role in Winter Tides.']),
    ('He served as governor from 1990 to 1998.', ['He was mayor between 1990 and 1998.']),
]
OWN_SUPPORTED = [
    # the same tie from the other end: his parents are those he is the son of
    ("Gaius Antonius's parents were Marcus Antonius Creticus and Julia Antonia.",
     ['Gaius Antonius (died 42 BC) was the second son of Marcus Antonius Creticus and Julia Antonia.']),
    ("Marcus Antonius Creticus's son was Gaius Antonius.",
     ['Gaius Antonius (died 42 BC) was the second son of Marcus Antonius Creticus and Julia Antonia.']),
    # a tie said of another name in the clause is not hers ("Tom, the son of a farmer")
    ("The son of Alice Smith is Bob.", ["Alice Smith married Tom, the son of a farmer; their son Bob was born in 1901."]),
    ('Peter Cotes directed The Young and the Guilty.',
     ['The Young and the Guilty is a 1958 British drama film directed by Peter Cotes and starring Phyllis Calvert.']),
    ('Phyllis Calvert starred in The Young and the Guilty.',
     ['The Young and the Guilty is a 1958 British drama film directed by Peter Cotes and starring Phyllis Calvert.']),
    ('Harmesh Malhotra died on 22 November 2005.',
     ['Harmesh Malhotra( 14 June 1936 – 22 November 2005) was an Indian film director, producer, and screenplay writer.']),
    ('John Phan was born in Da Nang.',
     ['Bon "John" Phan (born October 10, 1974 in Da Nang, Vietnam) is a Vietnamese-American professional poker player based in Stockton, California.']),
    ('Gaius Antonius was the younger brother of Mark Antony.',
     ['Gaius Antonius (died 42 BC) was the second son of Marcus Antonius Creticus and Julia Antonia, and thus, younger brother of Mark Antony.']),
    ('Cairo University is ranked 551-600 by QS World University Rankings.',
     ['Cairo University is ranked as 401-500 according to the Academic Ranking of World Universities (Shanghai Ranking) and 551-600 according to QS World University Rankings.']),
    ('Lufthansa is based in Cologne.',
     ['Air India is headquartered in New Delhi, while Lufthansa is based in Cologne.']),
    ('Millipilleri was directed by Spede Pasanen.',
     ['Millipilleri is a 1966 comedy film directed and written by Spede Pasanen, Ere Kokkonen and Jukka Virtanen.']),
    ("Christoph Franz followed Carsten Spohr as Lufthansa's chief executive.",
     ['Christoph Franz succeeded Carsten Spohr as chief executive of Lufthansa.']),
    ('Phyllis Calvert starred in The Young and the Guilty.',
     ['The Young and the Guilty is a 1958 British drama film directed by Peter Cotes and starring Phyllis Calvert.']),
]


@pytest.mark.parametrize("statement, spans", OWN_UNSUPPORTED)
def test_our_own_unsupported_statements_fail(statement: str, spans: list[str]) -> None:
    assert not judge(statement, spans).supported


@pytest.mark.parametrize("statement, spans", OWN_SUPPORTED)
def test_our_own_supported_statements_pass(statement: str, spans: list[str]) -> None:
    v = judge(statement, spans)
    assert v.supported, v


# Paraphrases of our own over real spans: "came out in 1958" for "a 1958 film", "founders" for "formed by",
# "lives in" for "based in", "won two bracelets" for "a two time bracelet winner", "a documentary by X" for "X made",
# a subject said of every coordinated attribute of its verb past a bracketed lifespan, "among others"
@pytest.mark.parametrize("statement, spans, titles", [
    ('Peter Cotes was the director of The Young and the Guilty, a 1958 British drama.',
     ['The Young and the Guilty is a 1958 British drama film directed by Peter Cotes and starring Phyllis Calvert.'], ['']),
    ('The Young and the Guilty came out in 1958.',
     ['The Young and the Guilty is a 1958 British drama film directed by Peter Cotes and starring Phyllis Calvert.'], ['']),
    ('Harmesh Malhotra was born on June 14, 1936.',
     ['Harmesh Malhotra( 14 June 1936 – 22 November 2005) was an Indian film director, producer, and screenplay writer.'], ['']),
    ('Harmesh Malhotra, an Indian filmmaker, died in 2005.',
     ['Harmesh Malhotra( 14 June 1936 – 22 November 2005) was an Indian film director, producer, and screenplay writer.'], ['']),
    ('John Phan is a poker player from Vietnam who lives in Stockton, California.',
     ['Bon "John" Phan (born October 10, 1974 in Da Nang, Vietnam) is a Vietnamese-American professional poker player based in Stockton, California.'], ['']),
    ('Phan has won two World Series of Poker bracelets.',
     ['Bon "John" Phan (born October 10, 1974 in Da Nang, Vietnam) is a Vietnamese-American professional poker player based in Stockton, California who is a two time World Series of Poker bracelet winner.'], ['John Phan']),
    ('Lufthansa, founded in 1953, has its base in Cologne.',
     ['Lufthansa was founded in 1953 and is based in Cologne.'], ['']),
    ('Cologne is where Lufthansa is based.',
     ['Lufthansa was founded in 1953 and is based in Cologne.'], ['']),
    ('The Visit, released in 2015, was written and directed by M. Night Shyamalan.',
     ['The Visit is a 2015 American found footage horror film written and directed by M. Night Shyamalan.'], ['']),
    ("Coldplay's founders were Chris Martin and Jonny Buckland.",
     ['Coldplay are a British rock band formed in 1996 by lead vocalist Chris Martin and lead guitarist Jonny Buckland.'], ['']),
    ('Chris Martin and Jonny Buckland formed Coldplay in 1996.',
     ['Coldplay are a British rock band formed in 1996 by lead vocalist Chris Martin and lead guitarist Jonny Buckland.'], ['']),
    ('The painting Flora by Titian is held at the Uffizi Gallery in Florence.',
     ['Flora is an oil painting by Italian late Renaissance painter Titian, dated to around 1515 and now held at the Uffizi Gallery in Florence.'], ['']),
    ('Titian painted Flora around 1515.',
     ['Flora is an oil painting by Italian late Renaissance painter Titian, dated to around 1515 and now held at the Uffizi Gallery in Florence.'], ['']),
    ("Drmeni lies north of Lake Prespa in North Macedonia's Resen Municipality.",
     ['Drmeni is a village in the Resen Municipality of the Republic of North Macedonia, north of Lake Prespa.'], ['']),
    ("Brothers' Nest, a 2018 Australian black comedy, was directed by Clayton Jacobson.",
     ["Brothers' Nest is a 2018 Australian black comedy film directed by Clayton Jacobson and starring him and his brother Shane Jacobson."], ['']),
    ("Clayton Jacobson's brother Shane Jacobson starred in Brothers' Nest.",
     ["Brothers' Nest is a 2018 Australian black comedy film directed by Clayton Jacobson and starring him and his brother Shane Jacobson."], ['']),
    ('Jane Siberry released Dragon Dreams in 2008, under the name Issa.',
     ['Dragon Dreams is a studio album released in 2008 by Canadian singer-songwriter Jane Siberry under the name Issa.'], ['']),
    ('Carsten Spohr heads Lufthansa.',
     ['Carsten Spohr is the chief executive of Lufthansa.'], ['']),
    ("Air India's headquarters are in New Delhi.",
     ['Air India is headquartered in New Delhi.'], ['']),
    ('The distance from Delhi to Munich is roughly 5,900 kilometres.',
     ['The great-circle distance between Delhi and Munich is about 5,900 km.'], ['']),
    ('Millipilleri, a comedy from 1966, was directed by Spede Pasanen among others.',
     ['Millipilleri is a 1966 comedy film directed and written by Spede Pasanen, Ere Kokkonen and Jukka Virtanen.'], ['']),
    ('Total Badass premiered on May 19, 2010.',
     ['Total Badass is a 2010 documentary by American director and producer Bob Ray that first premiered on May 19, 2010.'], ['']),
    ('Bob Ray made the documentary Total Badass.',
     ['Total Badass is a 2010 documentary by American director and producer Bob Ray that first premiered on May 19, 2010.'], ['']),
    # a doer's noun says its verb: "a novel by writer X" is "X wrote it"; "the director of" is "directed"
    ('F. Scott Fitzgerald wrote The Great Gatsby.',
     ['The Great Gatsby is a 1925 novel by American writer F. Scott Fitzgerald.'], ['']),
    ('Robert Oppenheimer directed the Los Alamos Laboratory.',
     ['Nuclear physicist Robert Oppenheimer was the director of the Los Alamos Laboratory.'], ['']),
    # a cast list: "C (A)" and "A as C" say "A played C" / "C is played by A"
    ('John Payne played Fred Gailey.',
     ['Attorney Fred Gailey (John Payne) takes the daughter Susan (Natalie Wood) to see Santa.'], ['']),
    ('Susan is played by Natalie Wood.',
     ['Attorney Fred Gailey (John Payne) takes the daughter Susan (Natalie Wood) to see Santa.'], ['']),
    ('George Peppard played Paul Varjak.', ['George Peppard as Paul Varjak, a writer'], ['']),
    ('Ana Lind played a lead role in Winter Tides.', ['Ana Lind has a lead role in Winter Tides.'], ['']),
    ('He served as mayor from 1990 to 1998.', ['He was mayor between 1990 and 1998.'], ['John Smith']),
    # a number of a title's name is said with the name ("Miracle on 34th Street", "Five Finger Exercise")
    ('Susan in Miracle on 34th Street is played by Natalie Wood.',
     ['Attorney Fred Gailey (John Payne) takes the daughter Susan (Natalie Wood) to see Santa.'],
     ['Miracle on 34th Street']),
    ('He belongs to the Democratic Party.', ['He is a member of the Democratic Party.'], ['Joe Smith']),
    ('The band consists of four members.', ['The band is made up of four members.'], ['Queen']),
    ('The bridge spans the River Thames.', ['The bridge crosses the River Thames.'], ['Tower Bridge']),
    ('The river flows into the North Sea.', ['The river empties into the North Sea.'], ['Elbe']),
    ('The show ran for five seasons.', ['The show lasted five seasons.'], ['Lost']),
    # one whole line of a block of code quotes it
    ('var maxAttempts = TryGetInt(args, "max_attempts", 3);',
     ['{\n    var question = args["q"];\n    var maxAttempts = TryGetInt(args, "max_attempts", 3);\n}'], ['']),
])
def test_our_own_paraphrases_pass(statement: str, spans: list[str], titles: list[str]) -> None:
    v = judge(statement, spans, titles)
    assert v.supported, v


def test_a_ranking_after_a_comma_keeps_its_names_in_their_roles() -> None:
    # the span's "it" is its title; "after Y and Z" after a comma is still the ranking's own clause
    span = "In 2014 it was the third largest maker of kettles in the world after Brant and Hollis."
    assert not judge("In 2014 Brant was the third largest maker of kettles in the world, after Corvel and Hollis.",
                     [span], ["Corvel"]).supported
    assert judge("In 2014 Corvel was the third largest maker of kettles in the world, after Brant and Hollis.",
                 [span], ["Corvel"]).supported


def test_a_value_said_in_a_year_is_that_years_value() -> None:
    span = "The town kept growing, its population rising to 4,210 in 1910 and 7,985 in 1930."
    assert not judge("The town's population rose to 7,985 in 1910.", [span]).supported
    assert judge("The town's population was 7,985 in 1930.", [span]).supported


def test_an_apposition_after_a_comma_describes_the_name_before_it() -> None:
    # the parser hangs "the biggest covered market in Wexshire" on "studios"; it is said of Harlow Centre, which
    # the first span calls "It" (its title)
    spans = ["It is the largest covered market in the county of Wexshire, though the Brimley Arcade has more shops.",
             "The station is owned by Vane Media and broadcasts from studios in the Harlow Centre."]
    titles = ["Harlow Centre", "KVNE"]
    assert judge("KVNE broadcasts from studios in the Harlow Centre, the largest covered market in Wexshire.",
                 spans, titles).supported
    assert not judge("KVNE broadcasts from studios in the Harlow Centre, the largest covered market in Wexshire.",
                     spans, ["Brimley Arcade", "KVNE"]).supported  # the first span is about another place


def test_kin_ties_read_accented_names_and_the_spans_he() -> None:
    span = ["He was the son of the painters Étienne Vasseur and Hélène Vasseur."]
    titles = ["Émile Vasseur"]
    # "parents" is the tie "son of" said from the other end, an accented first name and all
    assert judge("Émile Vasseur's parents were the painters Étienne and Hélène Vasseur.", span, titles).supported
    # the span's "He" is Émile: he is the son, so Étienne is no son of his
    assert not judge("Émile Vasseur's son was the painter Étienne Vasseur.", span, titles).supported
    assert not judge("Oskar Hale's son was the painter Tom Hale.", ["He was the son of the painter Tom Hale."],
                     ["Oskar Hale"]).supported


def test_a_name_before_its_noun_describes_it_and_has_no_role_by_order() -> None:
    span = ["Tollby railway station is a preserved station that serves the village of Tollby in Upper Wexshire."]
    assert judge("The Upper Wexshire village of Tollby is served by a preserved station.", span,
                 ["Tollby railway station"]).supported
    # a verb between the names still sets their roles
    assert not judge("Upper Wexshire serves the village of Tollby.", span, ["Tollby railway station"]).supported


def test_a_recipient_received_and_the_spans_he_is_its_title() -> None:
    span = ["He was a recipient of the Orla Medal, which is the highest decoration of the navy."]
    assert judge("Tom Vale was awarded the Orla Medal.", span, ["Tom Vale"]).supported
    assert judge("Tom Vale received the Orla Medal.", span, ["Tom Vale"]).supported
    assert not judge("Tom Vale awarded the Orla Medal to Ann Lee.", span, ["Tom Vale"]).supported
    # the recipient is the name beside the noun, not another one
    assert not judge("Ann Lee received the Orla Medal.", ["Tom Vale, a recipient of the Orla Medal, thanked Ann Lee."],
                     ["Tom Vale"]).supported


@pytest.mark.parametrize(("statement", "supported"), [
    ("Carl Vane was born in Tollby.", True),
    ("Carl Vane died in Marsh Hill.", True),
    ("Carl Vane was born in Tollby in 1894 and died in Marsh Hill in 1965.", True),
    ("Carl Vane died in Tollby.", False),  # the place of the birth
    ("Carl Vane was born in Marsh Hill.", False),  # the place of the death
    ("Carl Vane died on 9 September 1894.", False),
])
def test_a_lifespan_with_places_says_where_each_event_was(statement: str, supported: bool) -> None:
    span = "Carl Francis Vane (9 September 1894 in Tollby, Wexshire – 5 September 1965 in Marsh Hill) was a film director."
    assert judge(statement, [span], ["Carl Vane"]).supported is supported


@pytest.mark.parametrize(("statement", "supported"), [
    ("Anna Berg was born on 3 March 1901.", True),
    ("Anna Berg died on 5 June 1980.", True),
    ("Anna Berg, a Swedish painter, was born in 1901.", True),
    ("Anna Berg died on 3 March 1901.", False),  # the birth
    ("Anna Berg was born on 5 June 1980.", False),  # the death
    ("Anna Berg (March 3, 1901June 5, 1980) was a Swedish painter from Uppsala.", True),  # the span quoted
])
def test_a_lifespan_whose_dash_was_lost_in_extraction_is_still_a_lifespan(statement: str, supported: bool) -> None:
    span = "Anna Berg (March 3, 1901June 5, 1980) was a Swedish painter from Uppsala."  # as some dumps print it
    assert judge(statement, [span], ["Anna Berg"]).supported is supported


def test_a_year_run_into_a_month_outside_brackets_is_no_lifespan() -> None:
    span = "Anna Berg moved to Uppsala in 1999May 5 and left."  # a lost space, not a lost dash
    assert not judge("Anna Berg was born in 1999.", [span], ["Anna Berg"]).supported


FRESH = Path(__file__).resolve().parents[1] / "data" / "support" / "fresh.jsonl"
# measured when the set was added (precision, recall): tune 0.929 / 0.565, test 0.929 / 0.591, blind 0.885 / 0.511
# (without WordNet the test split has recall 0.545); blind2 (batch fresh5, 70 lines written on 2026-12-04 by a
# helper that saw neither the rules nor this set, never read for tuning): 0.706 / 0.343, before and after that
# day's changes to the check
FRESH_FLOORS = {"tune": (0.90, 0.52), "test": (0.90, 0.52), "blind": (0.85, 0.48),
                "blind2": (0.65, 0.30)}  # with or without WordNet


@pytest.mark.parametrize("split", ["tune", "test", "blind", "blind2"])
def test_statements_of_a_writer_blind_to_the_rules_stay_at_the_measured_floor(split: str) -> None:
    rows = [json.loads(line) for line in FRESH.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 250 and all(set(r) == {"id", "statement", "spans", "titles", "supported", "kind", "split",
                                               "batch"} and len(r["spans"]) == len(r["titles"]) for r in rows)
    counts: Counter[str] = Counter()
    for r in (r for r in rows if r["split"] == split):
        said = judge(r["statement"], r["spans"], r["titles"]).supported
        counts[("t" if said == r["supported"] else "f") + ("p" if said else "n")] += 1
    precision = counts["tp"] / max(1, counts["tp"] + counts["fp"])
    recall = counts["tp"] / max(1, counts["tp"] + counts["fn"])
    floor_p, floor_r = FRESH_FLOORS[split]
    assert precision >= floor_p and recall >= floor_r, (split, precision, recall, counts)


@pytest.mark.parametrize("statement, span, supported", [
    # a verb with its particle names the relation: "put out" an album is "released" it (WordNet), "grew up" is
    # "was raised"
    ("The Quiet Harbour was put out by Northwind Records in 1998.",
     "The Quiet Harbour is a 1998 album by Ana Lind, released by Northwind Records.", True),
    ("Pia Moreau grew up in Lyon.", "Pia Moreau was raised in Lyon by her grandparents.", True),
    ("The Quiet Harbour was put off by Northwind Records in 1998.",
     "The Quiet Harbour is a 1998 album by Ana Lind, released by Northwind Records.", False),
    # a verb that says little more than its object: "earned a degree" is "received a degree"
    ("Pia Moreau earned a degree in chemistry from the University of Lyon.",
     "Pia Moreau received a degree in chemistry from the University of Lyon in 1990.", True),
    ("Northwind Records released the album, with Delta Music handling distribution.",
     "The album was released by Northwind Records and distributed by Delta Music.", True),
    # ... but not a verb of its own relation, nor one the object does not carry
    ("Pia Moreau was nominated for the Lyon Prize in 1995.", "Pia Moreau won the Lyon Prize in 1995.", False),
    ("The 1998 Harbour Cup was sponsored by Channel Nine.", "The 1998 Harbour Cup was broadcast by Channel Nine.",
     False),
    ("Pia Moreau earned a degree in chemistry.", "Pia Moreau taught chemistry at the University of Lyon.", False),
])
def test_particles_and_verbs_that_lean_on_their_object(statement: str, span: str, supported: bool) -> None:
    assert judge(statement, [span]).supported is supported, judge(statement, [span])


@pytest.mark.parametrize("statement, span, supported", [
    ("Rogell directed more than 100 films.", "Rogell directed more than a hundred movies.", True),
    ("Rogell directed more than ten films.", "Rogell directed more than 10 movies.", True),
    ("Rogell directed more than 100 films.", "Rogell directed about a hundred movies.", False),  # the bound is a claim
    ("Rogell directed more than 200 films.", "Rogell directed more than a hundred movies.", False),
    ("Rogell directed fewer than ten films.", "Rogell directed more than 10 movies.", False),
])
def test_a_bound_on_a_number_written_in_words(statement: str, span: str, supported: bool) -> None:
    assert judge(statement, [span], ["Albert S. Rogell"]).supported is supported


@pytest.mark.parametrize("statement, supported", [
    ("Ben Lowe was the father of Tom Hale.", True),
    ("Tom Hale's father, Ben Lowe, was a government officer in Leeds.", True),
    ("Tom Hale was the father of Ben Lowe.", False),  # "His father Ben Lowe" under the title Tom Hale
    ("Tom Hale was the mentor of Ben Lowe.", False),
])
def test_the_spans_his_noun_and_name_is_that_name_the_noun_of_the_title(statement: str, supported: bool) -> None:
    spans = ["His father Ben Lowe was a government officer in Leeds.", "His mentor Ben Lowe taught him to paint."]
    span = spans[1] if "mentor" in statement else spans[0]
    assert judge(statement, [span], ["Tom Hale"]).supported is supported


def test_the_spans_leading_his_is_the_titles() -> None:
    span = ["His artwork, which showed cowboys, followed in the tradition of Carl Marsh."]
    assert judge("Ned Lane's artwork followed in the tradition of Carl Marsh.", span, ["Ned Lane"]).supported
    assert not judge("Carl Marsh's artwork followed in the tradition of Ned Lane.", span, ["Ned Lane"]).supported


@pytest.mark.parametrize(("statement", "supported"), [
    ("分解检索的平均耗时是620ms。", True),   # the row's key and the cell's header own the number
    ("分解检索的准确率是71.2%。", True),
    ("分解检索的准确率是620ms。", False),    # another column's number
    ("知识图谱的准确率是71.2%。", False),    # another row's
    ("分解检索的平均耗时是3.1。", False),    # (a reviewer's probe) the key and 平均 are not 平均检索次数
])
def test_a_chinese_statement_of_a_row_cell_is_owned_by_its_key_and_header(statement: str, supported: bool) -> None:
    row = "方案: 分解检索; 准确率: 71.2%; 平均检索次数: 3.1; 平均耗时: 620ms。"
    assert judge(statement, [row]).supported is supported


@pytest.mark.parametrize(("statement", "supported"), [
    ("北京的最高温度是35℃。", True),
    ("北京的最低温度是35℃。", False),  # every character of the header is said, not most of them
    ("北京的最高温度是22℃。", False),
])
def test_a_header_is_said_whole(statement: str, supported: bool) -> None:
    assert judge(statement, ["城市: 北京; 最高温度: 35℃; 最低温度: 22℃。"]).supported is supported
