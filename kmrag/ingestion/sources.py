"""Sources: find the documents under the paths given, read and check each one.

Every file becomes one or more SourceDocuments (a record file becomes one per record) or a
SourceProblem naming the file (and record) and the reason; a bad file never stops the others.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from kmrag.config import DEFAULT_MAX_BYTES
from kmrag.errors import BadInput, NotFound
from kmrag.ingestion import qa_corpora
from kmrag.ingestion.encoding import decode_bytes
from kmrag.schema.ids import content_hash

Kind = Literal["markdown", "text", "html", "pdf", "record", "rst", "csv"]

KIND_NAMES = {"markdown": "Markdown", "text": "plain text", "html": "HTML", "json": "JSON", "jsonl": "JSON lines",
              "rst": "reStructuredText", "csv": "CSV", "tsv": "tab-separated"}
EXTENSIONS: dict[str, str] = {
    ".md": "markdown", ".markdown": "markdown", ".txt": "text", ".text": "text", ".rst": "rst",
    ".html": "html", ".htm": "html", ".pdf": "pdf", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl",
    ".parquet": "parquet", ".csv": "csv", ".tsv": "tsv",
}


class SourceOptions(BaseModel):
    max_bytes: int = DEFAULT_MAX_BYTES
    encoding: str | None = None  # an override for every file; None: BOM > declared > UTF-8 > detected
    title_field: str | None = None  # JSON/JSONL/parquet records; None tries title, name, corpus_name
    text_field: str | None = None  # None tries text, content, body, context, paragraph_text
    source_prefix: str | None = None  # ids = PREFIX/<path relative to the folder given> (or the file name)
    source_base: str | None = None  # ids = <path relative to this folder>
    prune: bool = False  # sources under the folders given that are no longer there are removed
    # every file found under a folder must lie under this folder once its symlinks are resolved, else it is
    # skipped (the server sets its ingest root; None: symlinks are followed wherever they lead)
    confine_to: Path | None = None


class SourceDocument(BaseModel):
    source_id: str
    uri: str
    kind: Kind
    title: str = ""
    text: str = ""
    pages: list[str] | None = None  # PDF text layer per page
    version: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    file_source_id: str | None = None  # a record's file (its records are the file's sources)


class SourceProblem(BaseModel):
    path: str
    reason: str
    source_id: str | None = None  # the file's source id when it is known (its stored sources are kept)


TITLE_FIELDS = ("title", "name", "corpus_name", "heading")
TEXT_FIELDS = ("text", "content", "body", "context", "paragraph_text", "passage")


def source_id_for(path: Path, root: Path, opts: SourceOptions | None = None) -> str:
    """A source's identity: where it is.

    By default the file's resolved absolute path, so two ``README.md`` files or two folders called
    ``docs`` never share an id. Users who move a corpus and want to keep its ids choose one of:
    ``source_base`` (ids relative to that folder) or ``source_prefix`` (``PREFIX/`` + the path
    relative to the folder named on the command line, or the file name for a single file).
    """
    opts = opts or SourceOptions()
    resolved = path.resolve()
    if opts.source_base:
        base = Path(opts.source_base).expanduser().resolve()
        try:
            return resolved.relative_to(base).as_posix()
        except ValueError as e:
            raise BadInput(f"{path}: not under the source base folder {base}; choose another --source-base") from e
    if opts.source_prefix:
        rel = path.name if root.is_file() else path.relative_to(root).as_posix()
        return f"{opts.source_prefix.rstrip('/')}/{rel}"
    return resolved.as_posix()


class SourceSkip(BaseModel):
    """A path under a folder that was not read on purpose, and why: hidden, an unsupported type, a broken
    symlink, a symlink loop, a folder that cannot be listed. Counted and reported, never a failure."""

    path: str
    reason: str


OUTSIDE_ROOT = "points outside the ingest root"


def discover(paths: Sequence[str | Path], confine_to: Path | None = None,
             ) -> Iterator[tuple[Path, Path] | SourceProblem | SourceSkip]:
    """Yield (file, the root it was found under) for every file under the paths, sorted for a stable order,
    and a SourceSkip for every path under a folder that is passed over (``confine_to``: see walk)."""
    for raw in paths:
        root = Path(raw)
        if not root.exists():
            why = f"broken symlink (points to {os.readlink(root)})" if root.is_symlink() else "no such file or folder"
            yield SourceProblem(path=str(raw), reason=why)
            continue
        if root.is_file():
            yield (root, root) if _inside(root, confine_to) else SourceSkip(path=str(raw), reason=OUTSIDE_ROOT)
            continue
        for item in walk(root, confine_to):
            yield item if isinstance(item, SourceSkip) else (item, root)


def _inside(path: Path, confine_to: Path | None) -> bool:
    """Whether ``path``, its symlinks resolved, lies in the folder ``confine_to`` (always, without one)."""
    if confine_to is None:
        return True
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(confine_to))


def walk(root: Path, confine_to: Path | None = None) -> Iterator[Path | SourceSkip]:
    """The document files under a folder, depth first in name order. Symlinked folders are followed
    unless they lead back to a folder being walked (a loop) or to one already walked; hidden entries
    (``.git``, ``.DS_Store``), files of unsupported types, broken symlinks, other kinds of file and
    folders that cannot be listed are passed over, each as a SourceSkip with its reason. With
    ``confine_to``, an entry that resolves outside that folder (a symlink leading out) is skipped too."""
    done: set[tuple[int, int]] = set()

    def key(p: Path) -> tuple[int, int]:
        st = p.stat()
        return st.st_dev, st.st_ino

    def visit(folder: Path, ancestors: dict[tuple[int, int], Path]) -> Iterator[Path | SourceSkip]:
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            yield SourceSkip(path=str(folder), reason=f"cannot list the folder: {e.strerror or e}")
            return
        for entry in entries:
            p = Path(folder, entry.name)
            try:
                link = entry.is_symlink()
                is_dir = entry.is_dir()  # follows a symlink
                is_file = entry.is_file()
            except OSError as e:  # ELOOP: a symlink to itself or through a cycle of symlinks
                yield SourceSkip(path=str(p), reason=f"{'symlink loop' if e.errno == errno.ELOOP else 'cannot read'}: "
                                                     f"{e.strerror or e}")
                continue
            if entry.name.startswith("."):
                yield SourceSkip(path=str(p), reason=f"hidden {'folder' if is_dir else 'file'}")
                continue
            if link and not (is_dir or is_file):
                try:
                    p.stat()
                except FileNotFoundError:
                    yield SourceSkip(path=str(p), reason=f"broken symlink (points to {os.readlink(p)})")
                    continue
                except OSError as e:
                    yield SourceSkip(path=str(p), reason=f"{'symlink loop' if e.errno == errno.ELOOP else 'cannot read'}"
                                                         f": {e.strerror or e}")
                    continue
            if link and not _inside(p, confine_to):
                yield SourceSkip(path=str(p), reason=OUTSIDE_ROOT)
                continue
            if is_dir:
                try:
                    k = key(p)
                except OSError as e:
                    yield SourceSkip(path=str(p), reason=f"cannot read: {e.strerror or e}")
                    continue
                if k in ancestors:
                    yield SourceSkip(path=str(p), reason=f"symlink loop (points to {ancestors[k]}, which holds it)")
                elif k in done:
                    yield SourceSkip(path=str(p), reason="symlink to a folder already read")
                else:
                    done.add(k)
                    yield from visit(p, {**ancestors, k: p})
                continue
            if not is_file:
                yield SourceSkip(path=str(p), reason="not a regular file")
            elif p.suffix.lower() not in EXTENSIONS:
                yield SourceSkip(path=str(p), reason=f"unsupported type {p.suffix.lower() or '(no extension)'}")
            else:
                yield p

    if not _inside(root, confine_to):
        yield SourceSkip(path=str(root), reason=OUTSIDE_ROOT)
        return
    try:
        top = key(root)
    except OSError as e:
        yield SourceSkip(path=str(root), reason=f"cannot read: {e.strerror or e}")
        return
    done.add(top)
    yield from visit(root, {top: root})


def read_sources(
    paths: Sequence[str | Path], options: SourceOptions | None = None,
    on_found: Callable[[int], None] | None = None,
) -> Iterator[SourceDocument | SourceProblem | SourceSkip]:
    """Every document under the paths, once: a file named twice is read once; two different files
    (or records) that would get the same source id are reported, never merged or overwritten.
    The paths are walked first: ``on_found`` is told how many files there are to read before the first
    is read (a record file then gives one document per record)."""
    opts = options or SourceOptions()
    files: dict[str, Path] = {}  # source id -> the file that has it
    found = list(discover(paths, opts.confine_to))
    if on_found is not None:
        on_found(sum(1 for item in found if isinstance(item, tuple)))
    for item in found:
        if isinstance(item, SourceProblem | SourceSkip):
            yield item
            continue
        path, root = item
        try:
            sid = source_id_for(path, root, opts)
        except BadInput as e:
            yield SourceProblem(path=str(path), reason=_without_path(str(e), path))
            continue
        first = files.get(sid)
        if first is not None:
            if first.resolve() != path.resolve():
                yield SourceProblem(path=str(path), reason=f"has the same source id {sid!r} as {first}; "
                                                           "change --source-prefix/--source-base or ingest it separately")
            continue
        files[sid] = path
        try:
            for got in _read_file(path, sid, opts):
                if isinstance(got, SourceProblem):
                    got.source_id = sid
                yield got
        except BadInput as e:
            yield SourceProblem(path=str(path), reason=_without_path(str(e), path), source_id=sid)
        except FileNotFoundError:
            yield SourceProblem(path=str(path), reason="it was there when the folders were listed but is gone now "
                                                       "(deleted or moved while the job ran); what is stored of it is "
                                                       "kept: ingest it again once it is back", source_id=sid)
        except OSError as e:
            yield SourceProblem(path=str(path), reason=f"cannot read: {e.strerror or e}", source_id=sid)
        except RecursionError:
            yield SourceProblem(path=str(path), reason="nested too deeply to read (more than about 1,000 levels)",
                                source_id=sid)
        except Exception as e:  # noqa: BLE001 - a reader's failure on one file is that file's error
            yield SourceProblem(path=str(path), reason=f"cannot read: {type(e).__name__}: {e}"[:500], source_id=sid)


def _without_path(reason: str, path: Path) -> str:
    """The problem already names the file: the reason need not say it again (however it was spelled)."""
    for spelling in dict.fromkeys([str(path), path.as_posix(), str(path.resolve()), path.name]):
        if reason.startswith(f"{spelling}: "):
            return reason[len(spelling) + 2:]
    return reason


def check_options(paths: Sequence[str | Path], opts: SourceOptions) -> None:
    """Refuse options that could only fail (or mislead) file by file, before a job starts."""
    if opts.source_prefix is not None and not opts.source_prefix.strip("/ "):
        raise BadInput("--source-prefix is empty: give a name such as kb, or leave it out")
    if opts.source_base:
        base = Path(opts.source_base).expanduser()
        if not base.is_dir():
            raise BadInput(f"--source-base {opts.source_base}: not a folder; give the folder the ids are relative to")
        for p in paths:
            if Path(p).exists() and not Path(p).resolve().is_relative_to(base.resolve()):
                raise BadInput(f"{p} is not under --source-base {base}; choose a folder that holds every path given")
    try:
        if opts.encoding:
            b"a".decode(opts.encoding)  # LookupError too for codecs that are not text encodings (rot13, hex)
    except UnicodeDecodeError:
        pass  # a known text encoding (utf-16 needs two bytes)
    except LookupError as e:
        raise BadInput(f"--encoding {opts.encoding}: unknown text encoding (e.g. utf-8, latin-1, cp1252, utf-16)") from e
    missing = [str(p) for p in paths if not Path(p).exists()]
    if missing and len(missing) == len(paths):
        raise NotFound(f"no such file or folder: {', '.join(missing)}; nothing to ingest")


TITLE_MAX_CHARS = 300


def clean_title(title: str) -> str:
    """A title as stored: one line, no control characters, at most TITLE_MAX_CHARS."""
    t = " ".join("".join(c if c.isprintable() or c.isspace() else " " for c in title).split())
    return t if len(t) <= TITLE_MAX_CHARS else t[: TITLE_MAX_CHARS - 1].rstrip() + "…"


def _read_file(path: Path, sid: str, opts: SourceOptions) -> Iterator[SourceDocument | SourceProblem]:
    fmt = EXTENSIONS.get(path.suffix.lower())
    if fmt is None:
        raise BadInput(f"{path}: unsupported file type {path.suffix or '(none)'}; supported: "
                       f"{', '.join(sorted(EXTENSIONS))}")
    size = path.stat().st_size
    if size == 0:
        raise BadInput(f"{path}: empty file (0 bytes)")
    if size > opts.max_bytes:
        raise BadInput(f"{path}: {size:,} bytes is over the limit of {opts.max_bytes:,}; raise --max-bytes "
                       "or split the file")
    data = path.read_bytes()
    uri = path.resolve().as_uri()
    if fmt == "pdf":
        yield _read_pdf(path, sid, uri, data)
        return
    if fmt == "parquet":
        yield from _read_parquet(path, sid, uri, opts)
        return
    decoded = decode_bytes(data, path, fmt, KIND_NAMES.get(fmt, fmt), opts.encoding)
    text = decoded.text
    if not text.strip():
        raise BadInput(f"{path}: contains only whitespace")
    if fmt in ("markdown", "text", "html", "rst"):
        kind: Kind = fmt  # type: ignore[assignment]
        # the version is the decoded text's hash (for a UTF-8 file, its bytes' hash): a re-run with a
        # corrected encoding is a new version, the same text read again is not
        yield SourceDocument(source_id=sid, uri=uri, kind=kind, title=clean_title(path.stem), text=text,
                             version=content_hash(text), metadata=decoded.metadata())
    elif fmt in ("csv", "tsv"):
        yield from _read_delimited(path, sid, uri, text, fmt == "tsv", decoded.metadata())
    elif fmt == "json":
        yield from _read_json(path, sid, uri, text, opts, decoded.metadata())
    else:
        yield from _read_jsonl(path, sid, uri, text, opts, decoded.metadata())


def _read_delimited(path: Path, sid: str, uri: str, text: str, tab: bool,
                    meta: dict[str, Any]) -> Iterator[SourceDocument | SourceProblem]:
    """A CSV or TSV file as one table (kmrag.ingestion.delimited); each row left out is reported by its line."""
    from kmrag.ingestion.delimited import (
        read_delimited,  # it writes the parsers' pipe table, and they read sources
    )

    table = read_delimited(text, str(path), tab=tab)
    for line, why in table.problems:
        yield SourceProblem(path=f"{path}:line {line}", reason=why)
    yield SourceDocument(source_id=sid, uri=uri, kind="csv", title=clean_title(path.stem), text=table.text,
                         version=content_hash(text), metadata={**meta, "rows": table.rows})


def _read_pdf(path: Path, sid: str, uri: str, data: bytes) -> SourceDocument:
    import io

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    if not data.startswith(b"%PDF"):
        raise BadInput(f"{path}: not a PDF (no %PDF header)")
    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [(p.extract_text() or "") for p in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError) as e:
        raise BadInput(f"{path}: corrupt PDF ({e}): truncated or damaged; export or download it again") from e
    if not any(p.strip() for p in pages):
        raise BadInput(f"{path}: the PDF has no text layer (scanned images?); OCR it first")
    title = ""
    try:
        meta: Any = reader.metadata or {}
        title = str(meta.get("/Title") or "")
    except Exception:  # noqa: BLE001 - metadata is optional and often malformed
        title = ""
    return SourceDocument(source_id=sid, uri=uri, kind="pdf", title=clean_title(title or path.stem),
                          text="\n\n".join(pages).replace("\x00", ""),
                          pages=pages, version=content_hash(data), metadata={"pages": len(pages)})


def _pick(rec: dict[str, Any], explicit: str | None, candidates: tuple[str, ...]) -> str | None:
    if explicit:
        return explicit if explicit in rec else None
    return next((f for f in candidates if f in rec), None)


def record_document(sid: str, uri: str, title: str, text: str, meta: dict[str, Any] | None = None,
                    file_sid: str | None = None) -> SourceDocument:
    """One record (a passage, a JSON object, a parquet row) as its own source: title + text."""
    version = content_hash(title + "\x1f" + text)
    return SourceDocument(source_id=sid, uri=uri, kind="record", title=clean_title(title), text=text.replace("\x00", ""),
                          version=version, metadata=meta or {}, file_source_id=file_sid)


def record_source_id(file_sid: str, title: str, text: str, rec_id: str | None = None) -> str:
    """The source id of one record of a file: the record's id, else its title and a hash of title + text."""
    key = rec_id if rec_id else title[:80] + "~" + content_hash(title + "\x1f" + text)[:8]
    return f"{file_sid}#{key}"


def _records(path: Path, sid: str, uri: str, recs: list[tuple[int, Any]], opts: SourceOptions,
             where: str, meta: dict[str, Any] | None = None) -> Iterator[SourceDocument | SourceProblem]:
    """One source per record; a record whose id (or, without ids, whose title + text) repeats an
    earlier record of the file is reported with both positions and skipped: the first one is kept."""
    first_at: dict[str, int] = {}
    for i, rec in recs:
        if not isinstance(rec, dict):
            yield SourceProblem(path=f"{path}:{where} {i}", reason="record is not an object")
            continue
        tf = _pick(rec, opts.text_field, TEXT_FIELDS)
        if tf is None or not isinstance(rec[tf], str) or not rec[tf].strip():
            yield SourceProblem(path=f"{path}:{where} {i}",
                                reason=f"no text field ({opts.text_field or ' / '.join(TEXT_FIELDS)}) "
                                       "with a non-empty string; set --text-field")
            continue
        hf = _pick(rec, opts.title_field, TITLE_FIELDS)
        title = str(rec[hf]) if hf and rec[hf] is not None else ""
        rec_id = rec.get("id", rec.get("_id"))
        text = rec[tf]
        if "\x00" in text or "\x00" in title:
            yield SourceProblem(path=f"{path}:{where} {i}", reason="the record's text contains NUL characters")
            continue
        rsid = record_source_id(sid, title, text, str(rec_id) if rec_id is not None else None)
        if rsid in first_at:
            what = f"id {rec_id!r}" if rec_id is not None else "title and text"
            yield SourceProblem(path=f"{path}:{where} {i}",
                                reason=f"duplicate record {what}: same as {where} {first_at[rsid]}; kept the first, "
                                       "skipped this one (give records unique ids)")
            continue
        first_at[rsid] = i
        yield record_document(rsid, uri, title, text, {"record": i, **(meta or {})}, file_sid=sid)


def _read_json(path: Path, sid: str, uri: str, text: str, opts: SourceOptions,
               meta: dict[str, Any]) -> Iterator[SourceDocument | SourceProblem]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadInput(f"{path}: invalid JSON at line {e.lineno} column {e.colno}: {e.msg}; fix it (or write the "
                       "records as JSON lines, where one bad record does not stop the others)") from e
    fmt = qa_corpora.detect_format(data)
    if fmt == "passages" and any(isinstance(r, dict) and ("id" in r or "_id" in r) for r in data):
        fmt = None  # records with ids: each record is its own source, named by its id
    if fmt == "graphrag-bench":
        fmt = None  # a GraphRAG-Bench question file holds no passages: its records, as any JSON records
    if fmt is not None and not (opts.text_field or opts.title_field):
        passages, problems = qa_corpora.corpus_passages(data, fmt)
        for p in problems:
            yield SourceProblem(path=str(path), reason=p)
        for psg in passages:
            yield record_document(record_source_id(sid, psg.title, psg.text), uri, psg.title, psg.text,
                                  {"dataset_format": fmt, "passage_key": psg.key, **meta}, file_sid=sid)
        return
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise BadInput(f"{path}: expected a JSON object or array of records")
    yield from _records(path, sid, uri, list(enumerate(data)), opts, "record", meta)


def _read_jsonl(path: Path, sid: str, uri: str, text: str, opts: SourceOptions,
                meta: dict[str, Any]) -> Iterator[SourceDocument | SourceProblem]:
    recs: list[tuple[int, Any]] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            recs.append((n, json.loads(line)))
        except json.JSONDecodeError as e:
            yield SourceProblem(path=f"{path}:line {n}", reason=f"invalid JSON at column {e.colno}: {e.msg}; the "
                                                              "other lines are read: fix this one and ingest the file again")
    yield from _records(path, sid, uri, recs, opts, "line", meta)


def _read_parquet(path: Path, sid: str, uri: str, opts: SourceOptions) -> Iterator[SourceDocument | SourceProblem]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as e:
        raise BadInput(f"{path}: corrupt or unreadable parquet: {e}") from e
    yield from _records(path, sid, uri, list(enumerate(table.to_pylist())), opts, "row")
