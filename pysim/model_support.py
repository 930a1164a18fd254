"""Types the generated model modules use, and loading a model (and its
numba kernel) by path."""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType


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


def load_model(path: str | Path, expect_hash: str | None = None) -> ModuleType:
    """Import a generated boids_model.py; with expect_hash, refuse a stale one
    (another spec's, or one without the kernel it was generated with)."""
    path = Path(path).resolve()
    if not path.exists():
        raise ModelMismatch(f"{path}: no generated model (run `boidsgen generate`)")
    name = f"boidsgen_model_{abs(hash(str(path)))}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    if expect_hash is not None and mod.SPEC_HASH != expect_hash:
        raise ModelMismatch(
            f"{path}: generated from spec hash {mod.SPEC_HASH}, but the spec now hashes to "
            f"{expect_hash}; run `boidsgen generate`"
        )
    if expect_hash is not None:
        why = kernel_problem(mod)
        if why:
            raise ModelMismatch(f"{why} (run `boidsgen generate`)")
    return mod


KERNEL_FILE = "boids_kernel.py"


def kernel_cache_root() -> Path:
    """Where kernels are compiled from: $BOIDSGEN_KERNEL_CACHE, else the
    user's cache folder (~/.cache/boidsgen/kernels), else the temporary folder."""
    env = os.environ.get("BOIDSGEN_KERNEL_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    root = Path(base) / "boidsgen" / "kernels"
    try:
        root.mkdir(parents=True, exist_ok=True)
        if os.access(root, os.W_OK):
            return root
    except OSError:
        pass
    return Path(tempfile.gettempdir()) / f"boidsgen-kernels-{os.getuid() if hasattr(os, 'getuid') else 0}"


def _import_file(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def kernel_problem(model: ModuleType) -> str | None:
    """Why the kernel beside `model` is not the one generated with it, or None."""
    path = Path(model.__file__).with_name(getattr(model, "KERNEL_FILE", KERNEL_FILE))
    if not path.is_file():
        return f"{path}: no generated kernel beside the model"
    want = getattr(model, "KERNEL_HASH", None)
    if want is None or f'KERNEL_HASH = "{want}"' not in path.read_text(encoding="utf-8"):
        return f"{path}: not the kernel generated with {model.__file__}"
    return None


def load_kernel(model: ModuleType) -> ModuleType:
    """The numba kernel generated beside `model` (python/boids_kernel.py), imported once per model.

    numba caches compiled functions beside their source file, keyed by the
    file's time and size and the functions' bytecode, not by what they call
    (pysim/fxops.py). So the kernel is imported from a copy in
    kernel_cache_root()/<hash of its text and of the running fxops.py>/:
    a kernel compiled against another runtime is never reused, and identical
    kernels (a spec's variants in another update order or capacity, copies
    in test folders) share one compile. The copy is written once (atomically)
    and keeps its time, so numba's cache stays valid between runs."""
    k = getattr(model, "_boids_kernel", None)
    if k is not None:
        return k
    why = kernel_problem(model)
    if why:
        raise ModelMismatch(f"{why} (run `boidsgen generate`)")
    from . import fxops

    path = Path(model.__file__).with_name(getattr(model, "KERNEL_FILE", KERNEL_FILE))
    text = path.read_text(encoding="utf-8")
    key = hashlib.sha256((text + fxops.SOURCE_HASH).encode()).hexdigest()[:20]
    copy = kernel_cache_root() / key / KERNEL_FILE
    if not copy.is_file() or copy.read_text(encoding="utf-8") != text:
        copy.parent.mkdir(parents=True, exist_ok=True)
        tmp = copy.with_name(f".{KERNEL_FILE}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, copy)
    # a name that is the same in every process: numba's cached code imports its module by name
    k = sys.modules.get(f"boidsgen_kernel_{key}") or _import_file(copy, f"boidsgen_kernel_{key}")
    model._boids_kernel = k
    return k
