"""Render a GenModel into files, in memory: templates only, spec text only
through codegen/escape.py's filters. Output is byte-identical on every run;
codegen/pipeline.py writes it."""
from __future__ import annotations

import os
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from . import escape
from .model import GenModel
from .mplabx import render_project

HERE = Path(__file__).parent
RUNTIME_DIR = HERE.parent / "firmware_runtime"

FIRMWARE_FILES = ("boids_config.h", "boids_params.h", "boids_params.c", "boids_flock.h",
                  "boids_flock.c", "boids_app.c", "boids_commands.c", "boids_course.c", "Makefile")


def _env() -> Environment:
    env = Environment(
        loader=FileSystemLoader([str(HERE / "templates"), str(HERE)]),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        undefined=StrictUndefined, autoescape=False,
    )
    env.filters.update(c_str=escape.c_str, c_comment=escape.c_comment, py_str=escape.py_str,
                       py_comment=escape.py_comment, xml=escape.xml_text, xml_comment=escape.xml_comment)
    return env


DEFAULT_RUNTIME_REL = "../../../firmware_runtime"  # from generated/<name>/firmware/


def firmware_context(m: GenModel, runtime_rel: str, low=None) -> dict:
    """What the firmware templates render from: the rules' C, printed from
    their IR as the target's passes left it (`low`: its pass_list.lower(m),
    if already run), and the guarded copy of the step where there is one."""
    from .targets.pic32.pass_list import flock_c_copies

    fc, guard, flock_f = flock_c_copies(m, low)
    return dict(m=m, flock_c=fc, guard=guard, flock_f=flock_f, runtime_rel=runtime_rel)


def render(m: GenModel, outdir: Path | None = None) -> dict[str, str]:
    """Relative path -> file text, for every generated file. With outdir, the
    Makefile finds firmware_runtime/ relative to it (so `generate -o` output
    builds where it lands); the default layout gives the same text."""
    env = _env()
    runtime_rel = DEFAULT_RUNTIME_REL
    if outdir is not None:
        runtime_rel = os.path.relpath(RUNTIME_DIR.resolve(), (Path(outdir) / "firmware").resolve())
    project_runtime = Path(runtime_rel).as_posix()
    try:
        runtime_rel = escape.make_path(runtime_rel)
    except escape.UnsafePath:  # make cannot spell it: the Makefile asks for RUNTIME= instead
        runtime_rel = "$(error set RUNTIME=<path to firmware_runtime> on make's command line)"
    from .targets.pic32.pass_list import lower

    low = lower(m)  # the passes run once: the shared ones' IR is the simulator's too
    ctx = firmware_context(m, runtime_rel, low)
    out = {}
    for f in FIRMWARE_FILES:
        out[f"firmware/{f}"] = env.get_template(f"firmware/{f}.j2").render(ctx)
    out.update(render_project(m, env, out, project_runtime, RUNTIME_DIR))  # the MPLAB X project
    out.update(render_python(m, env, low.shared))
    return dict(sorted(out.items()))


def render_python(m: GenModel, env: Environment | None = None, ir=None) -> dict[str, str]:
    """The simulator's files: python/boids_model.py (constants, parameters,
    spawn, world) and python/boids_kernel.py (the rules' IR emitted as numba
    loops, codegen/lang/emit_module.py; `ir`: m after the shared passes, if
    they already ran)."""
    from .lang.emit_module import kernel_context, seal

    env = env or _env()
    kernel, kernel_hash = seal(env.get_template("python/boids_kernel.py.j2").render(m=m, k=kernel_context(m, ir)))
    model = env.get_template("python/boids_model.py.j2").render(m=m, kernel_hash=kernel_hash)
    return {"python/boids_model.py": model, "python/boids_kernel.py": kernel}


def differing(files: dict[str, str], outdir: Path) -> list[str]:
    """Files whose committed text differs from a fresh render (or is missing),
    plus stray files in the output folders that no longer get generated."""
    from .safe_paths import existing_text  # regular files of bounded size only

    bad = [rel for rel, text in files.items() if existing_text(outdir / rel) != text]
    for sub in ("firmware", "python"):
        d = outdir / sub
        if d.is_dir():
            for p in sorted(d.iterdir()):
                rel = f"{sub}/{p.name}"
                if p.is_file() and rel not in files and p.name != "__pycache__":
                    bad.append(rel + " (not generated any more)")
    return bad
