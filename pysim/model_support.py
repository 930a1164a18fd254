"""Types the generated model modules use, and loading a model by path."""
from __future__ import annotations

import importlib.util
import sys
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
