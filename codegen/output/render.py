"""Render a GenModel into files, in memory: templates only, spec text only
through codegen/spec/escape.py's filters. Output is byte-identical on every run;
codegen/output/pipeline.py writes it."""
from __future__ import annotations

from pathlib import Path

from codegen.boards import registry
from codegen.model.gen_model import GenModel
from codegen.spec import escape, runtime_files
from codegen.spec.project import output_dir
from codegen.targets.templates import template_env

FIRMWARE_FILES = ("boids_config.h", "boids_params.h", "boids_params.c", "boids_flock.h",
                  "boids_flock.c", "boids_app.c", "boids_commands.c", "boids_course.c", "Makefile")


def firmware_context(m: GenModel, runtime_rel: str, low=None) -> dict:
    """What the firmware templates render from: the rules' C, printed from
    their IR as the board's passes left it (`low`: lowering.lower(m),
    if already run), and the guarded copy of the step where there is one."""
    from codegen.targets.c.lowering import flock_c_copies

    from codegen.targets.c import split

    fc, guard, flock_f = flock_c_copies(m, low)
    two = split.wants_split(m, fc, flock_f)  # the two-part synchronous update (RP2040 specs), flagged twin included
    return dict(m=m, flock_c=fc, guard=guard, flock_f=flock_f, runtime_rel=runtime_rel, split=two,
                split_ring=split.ring_lines, split_window=split.window_lines)


def render(m: GenModel, outdir: Path | None = None, project: Path | None = None) -> dict[str, str]:
    """Relative path -> file text, for every generated file, for output in
    outdir (None: generated/<name>/) of a spec in project (its root; None: the
    tool's own tree). The Makefile and the MPLAB X project find
    firmware_runtime/ where codegen/spec/runtime_files.py places it: the project's,
    relatively, or a copy rendered into the output."""
    env = template_env()
    where = runtime_files.place(project, outdir)
    runtime_rel = escape.make_path(where.rel)  # '..'s then firmware_runtime: always spelled
    from codegen.targets.c.lowering import lower

    low = lower(m)  # the passes run once: the shared ones' IR is the simulator's too
    ctx = firmware_context(m, runtime_rel, low)
    out = {}
    for f in FIRMWARE_FILES:
        out[f"firmware/{f}"] = env.get_template(f"firmware/{f}.j2").render(ctx)
    for board in registry.TARGETS.values():  # the boards' projects: MPLAB X's (every spec), the pico-sdk's
        if board.project and (board.always_project or board.name in m.spec.board.targets):
            out.update(board.project.load()(m, env, out, where))
    out.update(runtime_files.copied_files(where, m.tool_version))
    out.update(render_python(m, env, low.shared))
    return dict(sorted(out.items()))


def render_python(m: GenModel, env: Environment | None = None, ir=None) -> dict[str, str]:
    """The simulator's files: python/boids_model.py (constants, parameters,
    spawn, world) and python/boids_kernel.py (the rules' IR emitted as numba
    loops, codegen/targets/numba/module.py; `ir`: m after the shared passes, if
    they already ran)."""
    from codegen.targets.numba.module import kernel_context, seal

    env = env or template_env()
    kernel, kernel_hash = seal(env.get_template("python/boids_kernel.py.j2").render(m=m, k=kernel_context(m, ir)))
    model = env.get_template("python/boids_model.py.j2").render(m=m, kernel_hash=kernel_hash)
    return {"python/boids_model.py": model, "python/boids_kernel.py": kernel}


def load_generated_model(spec_path: str | Path, m, outdir: Path | None = None):
    """The generated Python model for m, run only if its text is what m renders
    now (checked before any of it runs: its hash, then every byte; its kernel
    must hash to what the model names)."""
    from pysim.model_support import load_model

    out = outdir or output_dir(spec_path, m.name)
    fresh = render_python(m)["python/boids_model.py"]
    return load_model(out / "python" / "boids_model.py", expect_hash=m.hash, expect_text=fresh)


def differing(files: dict[str, str], outdir: Path) -> list[str]:
    """Files whose committed text differs from a fresh render (or is missing),
    plus stray files in the output folders that no longer get generated."""
    from codegen.spec.safe_paths import existing_text  # regular files of bounded size only

    bad = [rel for rel, text in files.items() if existing_text(outdir / rel) != text]
    for sub in ("firmware", "firmware/rp2040", "python"):
        d = outdir / sub
        if d.is_dir():
            for p in sorted(d.iterdir()):
                rel = f"{sub}/{p.name}"
                if p.is_file() and rel not in files and p.name != "__pycache__":
                    bad.append(rel + " (not generated any more)")
    bad += [rel + " (not generated any more)" for rel in runtime_files.stray(files, outdir)]
    return bad
