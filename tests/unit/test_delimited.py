"""CSV and TSV files read as one table each (kmrag.ingestion.delimited): quoted cells, a sniffed delimiter,
rows that do not fit reported by their line and left out, files that hold no table refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from kmrag.errors import BadInput
from kmrag.ingestion import sources
from kmrag.ingestion.delimited import read_delimited
from kmrag.ingestion.parse import parse_document

pytestmark = pytest.mark.unit


def test_a_csv_is_one_pipe_table_with_its_quoted_cells_whole() -> None:
    got = read_delimited('name,year,notes\nKestrel,2016,"Bought second-hand, 2016"\n"Heron | II",1999,"two\nlines"\n',
                         "boats.csv")
    assert got.text.splitlines() == ["| name | year | notes |", "|---|---|---|",
                                     "| Kestrel | 2016 | Bought second-hand, 2016 |",
                                     "| Heron / II | 1999 | two lines |"]
    assert got.rows == 2 and got.problems == []


def test_a_semicolon_file_is_read_by_its_own_delimiter_and_a_tsv_by_tabs() -> None:
    assert read_delimited("item;price\nTea;1,50\nCake;2,75\n", "menu.csv").text.splitlines()[2] == "| Tea | 1,50 |"
    assert read_delimited("a\tb\n1, 2\t3\n", "x.tsv", tab=True).text.splitlines()[2] == "| 1, 2 | 3 |"


def test_a_row_with_more_cells_is_reported_by_its_line_and_the_rest_is_read() -> None:
    got = read_delimited("a,b\n1,2\n\n3,4,5\n6\n7,8,,\n", "t.csv")
    assert got.problems == [(4, "3 cells, more than the header's 2; left out (quote cells that hold the delimiter)")]
    assert got.text.splitlines()[2:] == ["| 1 | 2 |", "| 6 |  |", "| 7 | 8 |"]  # short padded, empty trailing cells fine
    assert got.rows == 3


@pytest.mark.parametrize(("text", "says"), [
    ("just one column\nvalue\n", "the header has 1 column"),
    ("a,b\n", "a header and no row"),
    (" , \n\n", "no rows"),
    ('a,b\n"unclosed,2\n', "not a readable delimited file at line 2: unexpected end of data"),
    ('a,b\n1,2\n"quoted"then,3\n', "at line 3: ',' expected after"),
])
def test_a_file_holding_no_table_is_refused_by_name(text: str, says: str) -> None:
    with pytest.raises(BadInput, match=says) as e:
        read_delimited(text, "bad.csv")
    assert "bad.csv" in str(e.value)


def test_csv_and_tsv_files_are_read_as_sources_whose_blocks_are_one_table(tmp_path: Path) -> None:
    (tmp_path / "fleet.csv").write_text("boat,type\nKestrel,1x\nHeron,2x,extra\nOsprey,4+\n", encoding="utf-8")
    (tmp_path / "fees.tsv").write_text("category\tfee\nJunior\t£195\n", encoding="utf-8")
    got = list(sources.read_sources([tmp_path]))
    docs = {Path(g.uri).name: g for g in got if isinstance(g, sources.SourceDocument)}
    problems = [g for g in got if isinstance(g, sources.SourceProblem)]
    assert set(docs) == {"fleet.csv", "fees.tsv"}
    assert [(Path(p.path.split(":line")[0]).name, p.path.rsplit(":", 1)[1]) for p in problems] == [("fleet.csv", "line 3")]
    fleet = docs["fleet.csv"]
    assert fleet.kind == "csv" and fleet.title == "fleet" and fleet.metadata["rows"] == 2
    blocks, text = parse_document(fleet)
    assert [b.kind for b in blocks] == ["table"] and "| Osprey | 4+ |" in blocks[0].text
    assert text[blocks[0].start:blocks[0].end] == blocks[0].text
    assert parse_document(docs["fees.tsv"])[0][0].text.endswith("| Junior | £195 |")


def test_a_broken_quote_is_named_by_the_line_it_opens_on() -> None:
    with pytest.raises(BadInput, match=r"at line 4: unexpected end of data"):
        read_delimited('a,b\n1,2\n3,4\n"open,5\n' + "6,7\n" * 10, "t.csv")


def test_a_record_running_over_many_lines_is_kept_and_reported() -> None:
    got = read_delimited('a,b\n1,"x\n' + "\n".join(f"r{i}" for i in range(8)) + '"\n2,3\n', "t.csv")
    assert got.rows == 2 and got.problems == [
        (2, "one record runs from line 2 to line 10; kept as one row (a quote may be missing)")]


def test_a_last_column_the_header_leaves_unnamed_keeps_its_values() -> None:
    assert read_delimited("a,b,\n1,2,x\n3,4,y\n", "t.csv").text.splitlines() == [
        "| a | b | column 3 |", "|---|---|---|", "| 1 | 2 | x |", "| 3 | 4 | y |"]
    with pytest.raises(BadInput, match=r"line 2: 3 cells"):  # no column for it at all: said why nothing was read
        read_delimited("a,b\n1,2,3\n", "t.csv")
