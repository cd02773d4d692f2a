"""Words that say the same relation in English, for the support check (kmrag.answer.judge).

Word vectors cannot tell "lies in" (= "is located in") from "died in" (!= "was born in"): both pairs are as
close or as far. These groups are the relation words of encyclopedic and technical prose that people use
for one another; two words match when they share a group. They are general English, not the wording of any
dataset's questions. Lemmas, lower case; a group member may be two words ("set up").
"""

from __future__ import annotations

GROUPS = [
    "locate lie situate sit stand be_in find_in",
    "found establish create form start launch set_up inaugurate institute founder co-founder",
    "win carry take capture claim earn secure gain winner",
    "award give grant present receive confer",
    "publish release issue appear come_out print premiere",
    "send dispatch deploy",
    "regard consider rate deem view see hold",
    "operate run serve fly",
    "head lead chair run ceo chief executive boss",
    "rank place",
    "star feature play appear act portray",
    "live reside inhabit dwell",
    "live base",
    "inhabitant resident population people citizen",
    "direct helm",
    "write author pen",
    "compose score",
    "build construct erect",
    "design plan",
    "marry wed spouse husband_or_wife",
    "die perish pass_away death",
    "bear birth born native birthplace",
    "join enter",
    "leave quit depart exit",
    "buy purchase acquire",
    "sell vend",
    "make produce manufacture",
    "own possess hold",
    "begin start commence open",
    "end finish conclude close",
    "call name term dub know_as",
    "include comprise contain consist feature incorporate make_up",
    "show display depict",
    "lay establish set define",
    "use employ utilise utilize",
    "help assist aid",
    "teach instruct",
    "study learn",
    "describe characterise characterize",
    "defeat beat",
    "hit strike",
    "daily every_day each_day",
    "annual yearly every_year each_year",
    "former previous earlier ex",
    "current present",
    "large big",
    "small little",
    "main principal chief primary",
    "about approximately roughly around nearly",
    "movie film picture",
    "town city municipality",
    "nation country state",
    "firm company business corporation enterprise",
    "band group",
    "album record",
    "song track single",
    "frontman front singer vocalist lead",
    "debut first",
    "base headquarter headquarters hq seat",
    "represent symbolise symbolize stand_for",
    "follow after succeed",
    "precede before",
    "credit attribute",
    "hold host stage",
    "replace succeed take_over supersede",
    "elect win vote",
    "film shoot",
    "record recording",
    "study educate school train",
    "move migrate relocate emigrate immigrate",
    "remain stay continue",
    "mean define denote refer_to",
    "cover span travel",
    "run publish appear",
    "cap appearance",
    "belong member",
    "span cross",
    "flow empty drain discharge",
    "last run",
    "sponsor fund finance back underwrite",
    "nominate shortlist",
    "broadcast air televise show screen",
    "select pick draft choose",
    "raise grow_up bring_up rear",
    "publish release issue put_out bring_out",
]
# verbs that carry little of a claim on their own ("made the first recording", "took the surname")
LIGHT = frozenset("make take have get do give become go keep".split())

# verbs that say little more than their object when they have one: "earned a degree" / "received a degree",
# "handling distribution" / "distributed", "was handed a ban" / "banned"
OBJECT_LIGHT = frozenset("earn receive obtain gain handle hand carry undertake".split())

_BY_WORD: dict[str, set[int]] = {}
for i, group in enumerate(GROUPS):
    for w in group.split():
        for part in (w, w.replace("_", " ")):
            _BY_WORD.setdefault(part, set()).add(i)


# the irregular forms of the group verbs, to their lemma: "won" is "win" ("Who was the winner ...?" is answered
# where "X won ..." is said); words that are forms of two verbs ("found", "left", "lay") are left out
IRREGULAR = {"won": "win", "wrote": "write", "written": "write", "led": "lead", "built": "build", "made": "make",
             "began": "begin", "begun": "begin", "sold": "sell", "bought": "buy", "held": "hold", "ran": "run",
             "took": "take", "taken": "take", "gave": "give", "given": "give", "flew": "fly", "flown": "fly",
             "bore": "bear", "borne": "bear", "fought": "fight", "taught": "teach", "sang": "sing", "sung": "sing",
             "drew": "draw", "drawn": "draw", "chose": "choose", "chosen": "choose", "became": "become",
             "came": "come", "met": "meet", "sat": "sit", "stood": "stand", "grew": "grow", "grown": "grow",
             "brought": "bring", "put": "put", "set": "set", "struck": "strike", "spoke": "speak",
             "spoken": "speak", "dwelt": "dwell", "wed": "wed", "shot": "shoot", "rose": "rise", "risen": "rise",
             "fell": "fall", "fallen": "fall", "sent": "send", "spent": "spend", "went": "go", "gone": "go",
             "kept": "keep", "paid": "pay", "told": "tell", "thought": "think", "caught": "catch", "knew": "know",
             "known": "know", "shown": "show", "dealt": "deal", "meant": "mean", "heard": "hear", "lost": "lose",
             "threw": "throw", "thrown": "throw", "wore": "wear", "worn": "wear", "drove": "drive", "driven": "drive",
             "rode": "ride", "ridden": "ride", "broke": "break", "broken": "break", "hung": "hang", "fed": "feed",
             "fled": "flee", "hid": "hide", "hidden": "hide", "sought": "seek", "stole": "steal", "stolen": "steal",
             "sank": "sink", "sunk": "sink", "shook": "shake", "shaken": "shake", "swam": "swim", "ate": "eat",
             "eaten": "eat", "froze": "freeze", "frozen": "freeze", "forgot": "forget", "forgotten": "forget"}


def groups(word: str) -> set[int]:
    w = word.lower()
    return _BY_WORD.get(w) or _BY_WORD.get(IRREGULAR.get(w, ""), set())


def members(word: str) -> set[str]:
    """The words sharing a group with ``word`` (itself included when it is in one)."""
    return {w.replace("_", " ") for i in groups(word) for w in GROUPS[i].split()}


def same(a: str, b: str) -> bool:
    """Do the two lemmas share a group?"""
    return bool(groups(a) & groups(b))
