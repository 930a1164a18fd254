"""Where things live for a spec: its project root, generated/ and build/."""
from __future__ import annotations

from pathlib import Path


def project_root(spec_path: str | Path) -> Path:
    p = Path(spec_path).resolve()
    return p.parent.parent if p.parent.name == "spec" else Path.cwd()


def output_dir(spec_path: str | Path, name: str) -> Path:
    return project_root(spec_path) / "generated" / name


def build_dir(spec_path: str | Path, name: str) -> Path:
    return project_root(spec_path) / "build" / name


def load_generated_model(spec_path: str | Path, m, outdir: Path | None = None):
    """The generated Python model for m, refusing one generated from another spec."""
    from pysim.model_support import load_model

    out = outdir or output_dir(spec_path, m.name)
    return load_model(out / "python" / "boids_model.py", expect_hash=m.hash)
