"""The MPLAB X project generated beside the Makefile: firmware/<name>.X/ with
nbproject/project.xml and nbproject/configurations.xml (the files MPLAB X
reads) and the project Makefile its generated makefiles include.

Its sources are the ones the Makefile's `pic32` target compiles, read from the
rendered Makefile, so the two cannot drift; the compiler settings are the
ones that target and `boidsgen budget` assume. The configuration bits are not
here: they are set once, in firmware_runtime/pic32/pic32_main.c.
"""
from __future__ import annotations

import re
import shlex
import uuid
from pathlib import Path

from jinja2 import Environment

DEVICE = "PIC32MX250F128B"
TOOLCHAIN = "XC32"
OPTIMIZATION = "-O1"  # what XC32's free edition allows; codegen/drivers/pic32/budget/measure.py counts -O1 too
MACROS = ("BOIDS_PIC32",)
EXTRA_OPTIONS = "-std=gnu99 -Wextra"  # with -Wall and -Werror: the Makefile's pic32 flags


def make_vars(makefile: str) -> dict[str, str]:
    """The simple `NAME = value` / `NAME ?= value` assignments of a Makefile."""
    text = re.sub(r"\\\n", " ", makefile)
    return {m[1]: m[2].strip() for m in re.finditer(r"^(\w+)\s*\??=\s*(.*)$", text, re.M)}


def expand(name: str, defs: dict[str, str], keep=("RUNTIME",)) -> list[str]:
    """The words of $(name), its references expanded; $(RUNTIME) is kept."""
    def sub(m):
        return m[0] if m[1] in keep else " ".join(expand(m[1], defs, keep))
    return shlex.split(re.sub(r"\$\((\w+)\)", sub, defs[name]))


def board_sources(makefile: str) -> tuple[list[str], list[str]]:
    """(generated, runtime) C files of the Makefile's `pic32` target, in its order."""
    gen, rt = [], []
    for w in expand("PIC32_SRC", make_vars(makefile)):
        if w.startswith("$(RUNTIME)/"):
            rt.append(w[len("$(RUNTIME)/"):])
        elif "$" in w or "/" in w:
            raise ValueError(f"PIC32_SRC holds {w!r}: neither a generated file nor one of $(RUNTIME)")
        else:
            gen.append(w)
    return gen, rt


# the runtime's folders the board build searches, in the Makefile's order (PIC32_INC)
INCLUDE_DIRS = ("core", "pic32")
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def board_headers(files: dict[str, str], gen_c: list[str], rt_c: list[str],
                  runtime_dir: Path) -> tuple[list[str], list[str]]:
    """(generated, runtime) headers the board sources include, directly or not
    (every #include "..." counted, whatever #if surrounds it)."""
    gen_h, rt_h = set(), set()
    todo = [files[f"firmware/{c}"] for c in gen_c] + [(runtime_dir / c).read_text(encoding="utf-8") for c in rt_c]
    while todo:
        for h in _INCLUDE.findall(todo.pop()):
            found = [f"{d}/{h}" for d in INCLUDE_DIRS if (runtime_dir / d / h).is_file()]
            if f"firmware/{h}" in files and h not in gen_h:
                gen_h.add(h)
                todo.append(files[f"firmware/{h}"])
            elif found and found[0] not in rt_h:
                rt_h.add(found[0])
                todo.append((runtime_dir / found[0]).read_text(encoding="utf-8"))
    return sorted(gen_h), sorted(rt_h)


def render_project(m, env: Environment, files: dict[str, str], runtime_rel: str, runtime_dir: Path) -> dict[str, str]:
    """The project's files, keyed like render()'s output. runtime_rel is
    firmware_runtime/ relative to firmware/ (posix)."""
    makefile = files["firmware/Makefile"]
    gen_c, rt_c = board_sources(makefile)
    gen_h, rt_h = board_headers(files, gen_c, rt_c, runtime_dir)
    rt = "../" + runtime_rel  # from firmware/<name>.X/
    # MPLAB X wants a project uuid; one from the name keeps the output byte-identical
    ctx = dict(m=m, uuid=uuid.uuid5(uuid.NAMESPACE_URL, f"boidsgen:{m.name}"), device=DEVICE, toolchain=TOOLCHAIN, optimization=OPTIMIZATION, macros=";".join(MACROS),
               extra_options=EXTRA_OPTIONS, includes=";".join([".."] + [f"{rt}/{d}" for d in INCLUDE_DIRS]), runtime=rt,
               gen_c=gen_c, rt_c=rt_c, gen_h=gen_h, rt_h=rt_h)
    base = f"firmware/{m.name}.X/"
    return {base + out: env.get_template(f"mplabx/{tpl}.j2").render(ctx)
            for out, tpl in (("nbproject/project.xml", "project.xml"),
                             ("nbproject/configurations.xml", "configurations.xml"), ("Makefile", "Makefile"))}


def project_files(m, env, files: dict[str, str], where) -> dict[str, str]:
    """The PIC32 record's `project`: the MPLAB X project over the firmware `files` rendered so far, with
    firmware_runtime/ where runtime_files placed it (`where`)."""
    return render_project(m, env, files, where.rel, where.source)
