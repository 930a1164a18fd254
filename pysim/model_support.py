"""Types the generated model modules use, and loading a model (and its
numba kernel) by path.

Only code rendered from the spec runs: a model or kernel file is read as
text (pysim/bounded_read.py), checked, and that same text is compiled and
run; no bytecode (.pyc) is ever read, from generated/ or from the cache. The
model's SPEC_HASH is read from its text before any of it runs (and, from
codegen.output.render.load_generated_model, the whole text must equal a fresh
render); the kernel must hash to the model's KERNEL_HASH (seal/unseal). The
kernel runs from a copy in a private cache folder (pysim/kernel_cache.py).
"""
from __future__ import annotations

import hashlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from pysim.bounded_read import UnreadableFile, read_text_bounded
from pysim.kernel_cache import KERNEL_FILE, cached_copy, kernel_cache_root  # noqa: F401  (kernel_cache_root: experiments)


@dataclass(frozen=True)
class ParamDef:
    index: int
    name: str
    id: int
    type: str  # 'fixed' or 'int'
    tunable: bool
    default: str  # the spec's decimal text
    min: str
    max: str
    default_raw: int
    min_raw: int
    max_raw: int
    unit: str = ""
    description: str = ""


class ModelMismatch(RuntimeError):
    """The generated model does not belong to the spec it is used with."""


# codegen/targets/numba/module.py seals the kernel with these; load_kernel checks
HASH_MARK = "@@KERNEL_HASH@@"
_HASH_LEN = 16


def seal(text: str) -> tuple[str, str]:
    """(text, hash): the hash of the text (with HASH_MARK in place) put where the mark is."""
    h = hashlib.sha256(text.encode()).hexdigest()[:_HASH_LEN]
    return text.replace(HASH_MARK, h), h


def is_sealed(text: str, h: str) -> bool:
    """Whether text is a sealed text whose hash is h (every h put back as the mark hashes to h)."""
    return (len(h) == _HASH_LEN and f'KERNEL_HASH = "{h}"' in text
            and hashlib.sha256(text.replace(h, HASH_MARK).encode()).hexdigest()[:_HASH_LEN] == h)


def read_source(path: Path) -> str:
    """A model or kernel file's text (regular, bounded), or ModelMismatch naming it."""
    try:
        return read_text_bounded(path)
    except FileNotFoundError:
        raise ModelMismatch(f"{path}: no generated model (run `boidsgen generate`)") from None
    except UnreadableFile as e:
        raise ModelMismatch(f"{e} (run `boidsgen generate`)") from None


def exec_source(text: str, path: Path, name: str) -> ModuleType:
    """A module made by running `text` (already checked), named `name`, its
    code's file `path` (numba's cache and tracebacks find it there). Never
    an import: no .pyc is read or written."""
    mod = ModuleType(name)
    mod.__file__ = str(path)
    sys.modules[name] = mod
    try:
        exec(compile(text, str(path), "exec", dont_inherit=True), mod.__dict__)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return mod


_ASSIGN = r'^{}\s*=\s*"([^"\n]*)"'


def _field(text: str, name: str) -> str | None:
    hit = re.search(_ASSIGN.format(name), text, re.M)
    return hit.group(1) if hit else None


def load_model(path: str | Path, expect_hash: str | None = None, expect_text: str | None = None) -> ModuleType:
    """Run a generated boids_model.py. Checked first, from its text: with
    expect_hash, its SPEC_HASH (another spec's or a stale model is refused)
    and its kernel (the one generated with it); with expect_text, every byte
    (what codegen renders for the spec now)."""
    path = Path(path).resolve()
    text = read_source(path)
    if expect_hash is not None:
        have = _field(text, "SPEC_HASH")
        if have != expect_hash:
            raise ModelMismatch(f"{path}: generated from spec hash {have}, but the spec now hashes to "
                                f"{expect_hash}; run `boidsgen generate`")
    if expect_text is not None and text != expect_text:
        raise ModelMismatch(f"{path}: not the text boidsgen renders from its spec (edited, or another version's); "
                            "run `boidsgen generate`")
    if expect_hash is not None or expect_text is not None:
        kernel_text(path, _field(text, "KERNEL_FILE"), _field(text, "KERNEL_HASH"))
    name = f"boidsgen_model_{hashlib.sha256(str(path).encode()).hexdigest()[:16]}"
    return exec_source(text, path, name)


def kernel_text(model_path: Path, kernel_file: str | None, want_hash: str | None) -> str:
    """The text of the kernel beside the model, checked to be the one generated
    with it (it hashes to the model's KERNEL_HASH); ModelMismatch otherwise."""
    if kernel_file != KERNEL_FILE:
        raise ModelMismatch(f"{model_path}: names the kernel {kernel_file!r}, not {KERNEL_FILE} "
                            "(run `boidsgen generate`)")
    path = Path(model_path).with_name(KERNEL_FILE)
    if not path.is_file():
        raise ModelMismatch(f"{path}: no generated kernel beside the model (run `boidsgen generate`)")
    text = read_source(path)
    if not is_sealed(text, want_hash or ""):
        raise ModelMismatch(f"{path}: not the kernel generated with {model_path} (run `boidsgen generate`)")
    return text


def load_kernel(model: ModuleType) -> ModuleType:
    """The numba kernel generated beside `model` (python/boids_kernel.py), run
    once per model from its checked text, from a copy in the kernel cache
    (pysim/kernel_cache.py: numba caches compiled code beside its source
    file, keyed by the file's time and size, not by what it calls)."""
    k = getattr(model, "_boids_kernel", None)
    if k is not None:
        return k
    text = kernel_text(Path(model.__file__), getattr(model, "KERNEL_FILE", None), getattr(model, "KERNEL_HASH", None))
    copy, key = cached_copy(text)
    # a name that is the same in every process: numba's cached code imports its module by name
    name = f"boidsgen_kernel_{key[:32]}"
    k = sys.modules.get(name) or exec_source(text, copy, name)
    model._boids_kernel = k
    return k
