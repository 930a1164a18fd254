"""The templates every target prints through: one jinja Environment over each target's templates/
folder (found by name: "firmware/...", "python/...", "mplabx/...", "rp2040/..."), with spec text
reaching them only through codegen/spec/escape.py's filters. codegen/output/render.py renders a
spec's files with it; a board's build renders its own project files with it (the RP2040's)."""
from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from codegen.boards import registry
from codegen.spec import escape

TARGETS_DIR = Path(__file__).resolve().parent
TEMPLATE_DIRS = [TARGETS_DIR / t / "templates"
                 for t in ("c", "numba", *(b.templates for b in registry.TARGETS.values() if b.templates))]


@cache  # one per process: jinja compiles each template once per Environment (22 of them, ~0.3 s)
def template_env() -> Environment:
    env = Environment(
        loader=FileSystemLoader([str(d) for d in TEMPLATE_DIRS]),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        undefined=StrictUndefined, autoescape=False,
    )
    env.filters.update(c_str=escape.c_str, c_comment=escape.c_comment, py_str=escape.py_str,
                       py_comment=escape.py_comment, xml=escape.xml_text, xml_comment=escape.xml_comment)
    return env
