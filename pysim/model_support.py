"""Types the generated model modules use, and loading a model (and its
numba kernel) by path."""
from __future__ import annotations

import importlib.util
import shutil
import sys
import tempfile
import warnings
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
    """Import a generated boids_model.py; with expect_hash, refuse a stale one."""
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
    return mod


KERNEL_FILE = "boids_kernel.py"


class KernelRecompiled(UserWarning):
    """The kernel was generated against another pysim/fxops.py: it runs from a
    private copy (compiled afresh, cached apart) until `boidsgen generate`."""


def _import_file(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def load_kernel(model: ModuleType) -> ModuleType:
    """The numba kernel generated beside `model` (python/boids_kernel.py), imported once per model.

    numba caches the compiled step functions in the kernel's __pycache__, keyed
    by the file (time, size) and the functions' bytecode, not by what they call:
    a kernel generated against another pysim/fxops.py would reuse machine code
    of the old arithmetic. Such a kernel is run from a copy under the temporary
    folder named by both hashes (its own cache), with a KernelRecompiled warning."""
    k = getattr(model, "_boids_kernel", None)
    if k is not None:
        return k
    path = Path(model.__file__).with_name(KERNEL_FILE)
    if not path.is_file():
        raise ModelMismatch(f"{path}: no generated kernel beside the model (run `boidsgen generate`)")
    from . import fxops

    text = path.read_text(encoding="utf-8")
    if f'SPEC_HASH = "{model.SPEC_HASH}"' not in text:
        raise ModelMismatch(f"{path}: generated from another spec than {model.__file__} (run `boidsgen generate`)")
    if f'FXOPS_HASH = "{fxops.SOURCE_HASH}"' not in text:
        key = f"{hashlib_short(text)}-{fxops.SOURCE_HASH}"
        copy = Path(tempfile.gettempdir()) / "boidsgen-kernels" / key / KERNEL_FILE
        if not copy.is_file():
            copy.parent.mkdir(parents=True, exist_ok=True)
            tmp = copy.with_suffix(".tmp")
            shutil.copyfile(path, tmp)
            tmp.replace(copy)
        warnings.warn(f"{path} was generated against another pysim/fxops.py: compiling a private copy "
                      f"(run `boidsgen generate`)", KernelRecompiled, stacklevel=2)
        path = copy
    # a name that is the same in every process: numba's cached code imports its module by name
    k = _import_file(path, f"boidsgen_kernel_{hashlib_short(str(path.resolve()))}")
    model._boids_kernel = k
    return k


def hashlib_short(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()[:16]
