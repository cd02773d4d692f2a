"""Entity names: the normal form two mentions of one entity share, and the coarse types that
separate things of different kinds (a person from a place called the same). Shared by ingestion
(resolution) and the query side (linking a question's entities)."""

from __future__ import annotations

import re

from kmrag.schema.ids import canonical_entity_name

# a capital letter of the Latin scripts, for a character class ("[" + UPPER + "]"): "Ñuble", "Łódź", "Östergötland"
UPPER = "A-Z" + "".join(c for c in map(chr, range(0xC0, 0x250)) if c.isupper())
_ARTICLE = re.compile(r"^(the|a|an)\s+")
_POSSESSIVE = re.compile(r"(?:'s|’s|')$")
_PUNCT = re.compile(r"[^\w\s&\-+#]")

COARSE: dict[str, str] = {
    "PERSON": "PERSON", "ORG": "ORG", "GPE": "PLACE", "LOC": "PLACE", "FAC": "PLACE",
    "DATE": "DATE", "TIME": "DATE", "CONCEPT": "CONCEPT", "THING": "THING",
}
# which fine label an entity shows when several were seen (all within one coarse type)
LABEL_PRIORITY = ("PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "EVENT", "PRODUCT", "WORK_OF_ART", "LAW",
                  "LANGUAGE", "DATE", "TIME", "CONCEPT", "THING")
WEAK = {"THING": 0, "CONCEPT": 1}  # everything else is typed (2)


def resolution_key(name: str) -> str:
    """Deterministic normal form: case-folded, articles/possessives/punctuation dropped, spaces collapsed."""
    k = canonical_entity_name(name)
    k = _POSSESSIVE.sub("", k)
    k = _ARTICLE.sub("", k)
    k = _PUNCT.sub(" ", k)
    return " ".join(k.split()) or canonical_entity_name(name)


# words that stand before a person's name as a rank or a form of address, not as a part of it: "King George V" is
# written about under "George V", "Sir Alec Guinness" under "Alec Guinness"
HONORIFICS = frozenset("""king queen prince princess emperor empress tsar czar tsarina sultan shah pharaoh pope saint
sir dame lord lady duke duchess baron baroness earl president general admiral captain colonel lieutenant sergeant
commander marshal dr doctor prof professor mr mrs ms rev reverend bishop archbishop cardinal rabbi imam sheikh
chancellor senator governor mayor justice""".split())


def without_honorific(name: str) -> str | None:
    """The name without the ranks before it ("King George V" -> "George V"), when two words or more are left
    ("Pope Francis" stays: "Francis" alone names too many things); None when it has none."""
    words = name.split()
    drop = 0
    while drop < len(words) and words[drop].rstrip(".").lower() in HONORIFICS:
        drop += 1
    return " ".join(words[drop:]) if drop and len(words) - drop >= 2 else None


def coarse_type(label: str) -> str:
    return COARSE.get(label, "OTHER")


def strength(coarse: str) -> int:
    return WEAK.get(coarse, 2)


def has_leading_article(name: str) -> bool:
    return bool(_ARTICLE.match(name.lower()))


# -- what is not a name: code, paths, numbers, hex ------------------------------------------------
#
# Technical documents name things with identifiers, paths, versions and dumps; none of them is an
# entity (issue 10: "CF:64 -is-> DB", "Git -is-> 2.27 days", C functions tagged PERSON). A candidate
# is code when it has any of:
# - a character or sequence only code uses: \ ^ ` $ = { } < > | ; [ ] @ * ~ or :: -> => () && ||,
#   a "(" right after a word ("f(x"), or a "#" that does not end a name ("#include"; "C#", "F#" are names);
# - an identifier shape: snake_case, lowerCamelCase ("xsltGetDebuggerStatus"; not "iPhone", "macOS"),
#   four or more humps in an ASCII word of 10+ letters ("BrotliEncoderCompressStream", "XMLHttpRequestUpload";
#   "GitHub", "MyNetworkTV", "SpaceShipOne", "iHeartMedia" are names; "BrotliDecoderDecompress" is
#   code only when called or quoted, below), a dotted member ("fs.readFile", "os.path", "Buffer.from";
#   "Node.js", "ASP.NET", "U.S.", "c.1580s" are names);
# - a URL ("https://", "www."), a path ("/usr/lib", "./x", "C:\", "a/b/c", "lib/index.js"; "HTTP/2",
#   "TCP/IP" are names), a file name ("setup.py", "README.md", "index.js");
# - an option flag ("--foo", "-v");
# - a number: no letter at all ("2.27", "12,000"), a
#   version ("v12.7.0", "2.27 days": a name that starts with a dotted number; "Python 3.8" is a name),
#   hex ("0x1F", "CF:64", "9ee5485", "de ad be ef"). Years, year ranges ("1945–46", "2005/2006"),
#   numeric dates ("19/6/2015") and radio frequencies ("97.7 FM") are not code.
# The extractor also passes the characters around a candidate: one written `in backticks` or called
# ("Name()", "Name(arg") is code whatever its shape ("BrotliCompress()"), and so is every mention of that
# name in the same text (kmrag.nlp.extract: "BrotliCompress and BrotliDecompress: BrotliCompress() takes ...").

_CODE_CHARS = re.compile(r"[\\^`$={}<>|;\[\]@*~]|::|->|=>|\w\(|\(\)|&&|\|\||#(?!$)")
_SNAKE = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9_]|^_")
_LOWER_CAMEL = re.compile(r"(?:^|[\s.])[a-z]{2,}[A-Z][a-z]")
_HUMP = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_URL = re.compile(r"^(?:[a-z][a-z0-9+.\-]*://|www\.)|\b[\w.\-]+@[\w\-]+\.", re.I)
_DRIVE = re.compile(r"^[A-Za-z]:[\\/]?$|^[A-Za-z]:[\\/]")
_FILE_EXT = re.compile(r"\.(?:py|pyc|c|h|cc|cpp|hpp|rs|go|ts|tsx|jsx|mjs|cjs|json|ya?ml|toml|ini|cfg|conf|md|rst|txt|"
                       r"html?|xml|xsl|css|sh|bash|bat|ps1|exe|dll|so|dylib|a|o|lock|log|csv|tar|gz|zip|whl|patch|"
                       r"diff|lua|rb|php|java|class|jar|sql)$", re.I)
_JS_FILE = re.compile(r"(?:^|/)[a-z0-9_\-.]+\.js$")
_FLAG = re.compile(r"^--?[A-Za-z]")
_VERSION_START = re.compile(r"^v?\d+(?:\.\d+)+(?!\d|\s+[AF]M\b)|^v\d+\b")
_YEAR = re.compile(r"^(?:1\d{3}|20\d{2})(?:\s*[–—/-]\s*(?:\d{1,2}|1\d{3}|20\d{2}))?$|^\d{1,2}([/.-])\d{1,2}\1\d{2,4}$")
_HEX_PAIR = re.compile(r"^[0-9a-f]{2}$", re.I)
_HEX = re.compile(r"\b0x[0-9a-f]+\b|^(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}$",
                  re.I)
_CALL = re.compile(r"\((?:\)|[a-z_&*])")  # "f()", "f(state, ...)"; not "Suzuki(1982)", "Apple (company)"
_DOTTED_NAME_END = {"js", "io", "ai", "net", "com", "org"}


def _dotted_member(token: str) -> bool:
    """'fs.readFile', 'os.path', 'Buffer.from', 'example.com' (not 'Node.js', 'ASP.NET', 'U.S.', 'Ph.D.')."""
    parts = token.split(".")
    if re.match(r"v?\d|c\.\d", token) or len(parts) < 2 or not all(parts[:-1]) or not any(len(p) > 1 for p in parts):
        return False
    words = [p for p in parts if p]
    if len(words) < 2 or all(len(p) <= 2 and p[:1].isupper() for p in words):
        return False  # an abbreviation: "U.S.", "Ph.D.", "E.ON"
    if words[0][:1].islower() or words[0][:1] == "_":
        return True
    tail = words[1:]
    return any(p[:1].islower() and not (i == len(tail) - 1 and p.lower() in _DOTTED_NAME_END)
               for i, p in enumerate(tail))


def _path(text: str) -> bool:
    if text.startswith(("/", "./", "../", "~/")) or _DRIVE.search(text):
        return True
    for tok in text.split():
        if tok.count("/") >= 2 or ("/" in tok and (_FILE_EXT.search(tok) or _JS_FILE.search(tok))):
            return True
    return False


def looks_like_code(text: str, before: str = "", after: str = "") -> bool:
    """Whether an entity candidate is code, a path, a number, a version or hex rather than a name (the
    rules are in the comment above). ``before``/``after``: the characters right around the candidate in
    its text, when known (a backtick, or a call right after it, "()" or "(x", make it code)."""
    t = text.strip()
    if not t:
        return False
    if before.endswith("`") or after.startswith("`") or _CALL.match(after):
        return True
    if not any(c.isalpha() for c in t):
        return not _YEAR.match(t)
    if _CODE_CHARS.search(t) or _URL.search(t) or _FLAG.match(t) or _path(t):
        return True
    if _VERSION_START.match(t) or _HEX.search(t):
        return True
    pairs = re.split(r":|\s+", t)  # a dump: "CF:64", "CF:64 DB", "DE AD BE EF" (not "AD 43")
    if len(pairs) >= 2 and all(_HEX_PAIR.match(p) for p in pairs) and (":" in t or len(pairs) >= 3):
        return True
    for tok in t.split():
        if _SNAKE.search(tok) or _LOWER_CAMEL.search(tok) or _dotted_member(tok.rstrip(".")):
            return True
        if "/" not in tok and (_FILE_EXT.search(tok) or _JS_FILE.search(tok)):
            return True
        word = tok.strip(".,'’\"")
        if (word.isascii() and word.isalpha() and not word.isupper() and not word.islower()
                and len(word) >= 10 and len(_HUMP.findall(word)) >= 4):
            return True
    return False


# -- names that differ by a meaningful token ------------------------------------------------------
#
# Two names that differ only by one of these never merge, however close their spelling (issue 10:
# BrotliCompress <- BrotliDecompress, xsltGetDebuggerStatus <- xsltSetDebuggerStatus, HTTP <- HTTPS):
# - a word of an opposite pair (get/set, compress/decompress, encode/decode, ... below), or a negating
#   prefix on an otherwise equal word (un-, non-, de-, dis-, in-, re-, anti-: "Decompress", "Unlock");
# - a negating word (not, no, non, without) that only one of them has;
# - an all-capitals word and the same word with a capital S ("HTTP"/"HTTPS", "FTP"/"FTPS": a different
#   protocol; a lower-case plural "URLs" is the same thing);
# - punctuation that carries meaning: "+" and "#" ("C++", "C#" vs "C"), and any code-like form
#   (see looks_like_code: "C:\", "^C").
# Words are split at spaces, punctuation, snake_case and camelCase humps, case-folded.

OPPOSITES: tuple[tuple[str, str], ...] = (
    ("get", "set"), ("getter", "setter"), ("compress", "decompress"), ("encode", "decode"), ("encoder", "decoder"),
    ("encoding", "decoding"), ("encrypt", "decrypt"), ("importer", "exporter"), ("reading", "writing"),
    ("enable", "disable"), ("enabled", "disabled"), ("start", "stop"), ("begin", "end"), ("open", "close"),
    ("read", "write"), ("reader", "writer"), ("add", "remove"), ("insert", "delete"), ("create", "destroy"),
    ("push", "pull"), ("push", "pop"), ("min", "max"), ("minimum", "maximum"), ("in", "out"), ("input", "output"),
    ("up", "down"), ("upload", "download"), ("before", "after"), ("pre", "post"), ("first", "last"),
    ("next", "prev"), ("next", "previous"), ("load", "unload"), ("lock", "unlock"), ("show", "hide"),
    ("send", "receive"), ("request", "response"), ("client", "server"), ("import", "export"), ("on", "off"),
    ("true", "false"), ("yes", "no"), ("allow", "deny"), ("accept", "reject"), ("success", "failure"),
    ("left", "right"), ("top", "bottom"), ("inner", "outer"), ("upper", "lower"), ("major", "minor"),
    ("old", "new"), ("north", "south"), ("east", "west"), ("attach", "detach"), ("connect", "disconnect"),
    ("mount", "unmount"), ("serialize", "deserialize"), ("increment", "decrement"), ("increase", "decrease"),
    ("alloc", "free"), ("malloc", "free"), ("init", "deinit"), ("register", "unregister"), ("subscribe", "unsubscribe"),
)
_OPPOSITE = {frozenset(p) for p in OPPOSITES}
_NEGATING = ("un", "non", "de", "dis", "in", "re", "anti", "im", "ir")
_MEANINGFUL_MARKS = "+#"


def name_words(name: str) -> list[str]:
    """'xsltGetDebuggerStatus' -> ['xslt', 'get', 'debugger', 'status']; 'HTTPS server' -> ['https', 'server']."""
    out: list[str] = []
    for chunk in re.split(r"[\W_]+", name):
        out += _HUMP.findall(chunk) if chunk.isascii() and not (chunk.isupper() or chunk.islower()) else [chunk]
    return [w.casefold() for w in out if w]


def _opposed(x: str, y: str) -> bool:
    if frozenset((x, y)) in _OPPOSITE:
        return True
    short, long_ = sorted((x, y), key=len)
    return len(short) >= 3 and any(long_ == p + short or long_ == p + "-" + short for p in _NEGATING)


def distinct_names(a: str, b: str) -> bool:
    """True when names ``a`` and ``b`` differ by a meaningful token or mark (see the comment above), so
    they must not merge however close they look."""
    if sorted(c for c in a if c in _MEANINGFUL_MARKS) != sorted(c for c in b if c in _MEANINGFUL_MARKS):
        return True
    if looks_like_code(a) != looks_like_code(b):
        return True
    caps_a = {w.casefold() for w in re.split(r"[^A-Za-z0-9]+", a) if len(w) >= 3 and w.isupper()}
    caps_b = {w.casefold() for w in re.split(r"[^A-Za-z0-9]+", b) if len(w) >= 3 and w.isupper()}
    if any(w + "s" in caps_b for w in caps_a) or any(w + "s" in caps_a for w in caps_b):
        return True
    wa, wb = name_words(a), name_words(b)
    only_a = [w for w in wa if w not in wb]
    only_b = [w for w in wb if w not in wa]
    if any(_opposed(x, y) for x in only_a for y in only_b):
        return True
    # one side adds a negating word the other lacks ("Non Blocking IO" vs "Blocking IO")
    return bool((not only_a or not only_b) and any(w in ("not", "no", "non", "without") for w in only_a + only_b))
