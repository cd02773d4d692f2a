"""The folder walk: every path passed over is reported with its reason, and nothing loops."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kmrag.ingestion import sources
from kmrag.ingestion.sources import SourceSkip, walk

pytestmark = pytest.mark.unit


def _walk(root: Path) -> tuple[list[str], dict[str, str]]:
    got = list(walk(root))
    files = [p.relative_to(root).as_posix() for p in got if isinstance(p, Path)]
    skips = {Path(s.path).relative_to(root).as_posix(): s.reason for s in got if isinstance(s, SourceSkip)}
    return files, skips


def test_loops_broken_links_hidden_and_unsupported_are_reported(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    (root / "a.md").write_text("A.")
    (root / "sub" / "b.txt").write_text("B.")
    (root / "sub" / "up").symlink_to(root)  # a loop: the folder that holds it
    (root / "sub" / "here").symlink_to(".")  # a loop: its own folder
    (root / "self").symlink_to(root / "self")  # a symlink to itself
    (root / "gone.md").symlink_to(root / "nowhere.md")
    (root / "photo.JPG").write_bytes(b"\xff\xd8")
    (root / "Makefile").write_text("all:")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD.md").write_text("hidden")
    (root / ".notes.md").write_text("hidden")
    os.mkfifo(root / "pipe.txt")
    files, skips = _walk(root)
    assert files == ["a.md", "sub/b.txt"]
    assert skips == {
        ".git": "hidden folder", ".notes.md": "hidden file",
        "Makefile": "unsupported type (no extension)", "photo.JPG": "unsupported type .jpg",
        "gone.md": f"broken symlink (points to {root / 'nowhere.md'})",
        "pipe.txt": "not a regular file",
        "self": skips["self"], "sub/here": f"symlink loop (points to {root / 'sub'}, which holds it)",
        "sub/up": f"symlink loop (points to {root}, which holds it)",
    }
    assert skips["self"] == "symlink loop: Too many levels of symbolic links"


def test_a_symlinked_folder_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "x.md").write_text("X.")
    (tmp_path / "link").symlink_to(tmp_path / "docs")
    (tmp_path / "zlink").symlink_to(tmp_path / "docs")
    files, skips = _walk(tmp_path)
    assert files == ["docs/x.md"] and skips == {"link": "symlink to a folder already read",
                                                "zlink": "symlink to a folder already read"}


def test_an_unreadable_folder_is_skipped_and_the_rest_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the tests run as root, for whom chmod 000 changes nothing: the listing itself is made to fail
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "secret.md").write_text("S.")
    (tmp_path / "open.md").write_text("O.")
    real = os.scandir

    def scandir(path: str | os.PathLike[str]) -> object:
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(sources.os, "scandir", scandir)
    files, skips = _walk(tmp_path)
    assert files == ["open.md"] and skips == {"locked": "cannot list the folder: Permission denied"}


def test_skips_flow_through_read_sources_and_are_not_problems(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("A.")
    (tmp_path / "b.xyz").write_text("?")
    found: list[int] = []
    got = list(sources.read_sources([tmp_path], on_found=found.append))
    assert found == [1]  # told before reading: one file to read
    assert [type(g).__name__ for g in got] == ["SourceDocument", "SourceSkip"]
    assert got[1].reason == "unsupported type .xyz"  # type: ignore[union-attr]


def test_confined_walk_skips_what_leads_out_and_still_stops_at_loops(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "kb" / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    (root / "shared.md").write_text("S.")
    (root / "kb" / "a.md").write_text("A.")
    (root / "kb" / "docs").symlink_to(outside)  # a folder leading out
    (root / "kb" / "x.txt").symlink_to(outside / "secret.txt")  # a file leading out
    (root / "kb" / "in.md").symlink_to(root / "shared.md")  # a symlink that stays in
    (root / "kb" / "sub" / "up").symlink_to(root / "kb")  # a loop, inside
    (outside / "back").symlink_to(root / "kb")  # outside, leading back in (never reached)
    got = list(walk(root / "kb", confine_to=root))
    files = sorted(p.relative_to(root / "kb").as_posix() for p in got if isinstance(p, Path))
    skips = {Path(s.path).relative_to(root / "kb").as_posix(): s.reason for s in got if isinstance(s, SourceSkip)}
    assert files == ["a.md", "in.md"]
    assert skips["docs"] == skips["x.txt"] == sources.OUTSIDE_ROOT
    assert skips["sub/up"].startswith("symlink loop"), skips
    # unconfined (the CLI): symlinks are followed wherever they lead
    assert "docs/secret.txt" in _walk(root / "kb")[0] and "x.txt" in _walk(root / "kb")[0]
    # a root that itself leads out, and a single file that does
    (root / "away").symlink_to(outside)
    assert [s.reason for s in walk(root / "away", confine_to=root)] == [sources.OUTSIDE_ROOT]
    found = list(sources.discover([root / "kb" / "x.txt"], confine_to=root))
    assert [getattr(s, "reason", None) for s in found] == [sources.OUTSIDE_ROOT]
