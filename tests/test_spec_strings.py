"""Spec text and names cannot inject code: codegen/spec/escape.py and
codegen/spec/names.py, held against the real compilers.

- Each escape function on edge strings and on hypothesis' arbitrary Unicode:
  the C literal compiled with gcc gives back the UTF-8 bytes, the Python
  literal evaluates to the string, comments cannot be closed or spliced.
- Any spec hypothesis builds with arbitrary Unicode in every string field
  (unit, description, the spec's description) and an arbitrary name of the
  pattern's shape (keywords and predefined macros included) is either
  refused with a located error, or generates C that compiles with -Werror
  (host gcc -std=c99, and the MIPS gcc with -std=gnu99 as XC32 builds) and a
  Python model that imports, with the unit and description round-tripping.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from codegen.spec import escape
from codegen.spec.names import C_KEYWORDS, C_MACROS
from codegen.output.pipeline import load, render_files
from codegen.spec.errors import SpecError
from codegen.spec.yaml_guard import INVISIBLE

from .conftest import ROOT, RUNTIME_I_FLAGS, require_tool

EXAMPLES = int(os.environ.get("BOIDSGEN_STRING_EXAMPLES", "100"))
EDGE = ["", '"', "\\", "*/", "/*", "??/", "??=", "??)", "\\\n", "\n", "\r\n", "\t", "\x00", "\x1b[2J",
        "x */ #define BOIDS_SEED 42u /*", "px\r\nOK", "é", "😀", "\u202e", "\U0010ffff", "'''", '"""',
        "\\x41", "%s%n", "$(shell rm -rf /)", "#", "a\\", "\\0", "?\\?="]


def _c_bytes(strings: list[str], tmp: Path) -> list[bytes]:
    """Compile one C program holding each c_str literal; return the bytes it prints for each."""
    gcc = require_tool("gcc")
    lits = ",\n".join(escape.c_str(s) for s in strings)
    src = tmp / "lits.c"
    src.write_text("/* " + " ".join(escape.c_comment(s) for s in strings) + " */\n"
                   "#include <stdio.h>\n#include <string.h>\n"
                   f"static const char *const lits[] = {{\n{lits}\n}};\n"
                   "int main(void) { unsigned i; for (i = 0; i < sizeof lits / sizeof lits[0]; i++) {"
                   " printf(\"%u:\", (unsigned)strlen(lits[i])); fwrite(lits[i], 1, strlen(lits[i]), stdout); }"
                   " return 0; }\n", encoding="ascii")
    exe = tmp / "lits"
    res = subprocess.run([gcc, "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", str(src), "-o", str(exe)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    out = subprocess.run([str(exe)], capture_output=True, timeout=60).stdout
    got, i = [], 0
    while i < len(out):
        j = out.index(b":", i)
        n = int(out[i:j])
        got.append(out[j + 1:j + 1 + n])
        i = j + 1 + n
    return got


def _without_nul(s: str) -> str:
    return s.replace("\x00", "")  # a C string ends at NUL; the schema never lets one through


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(max_size=30), min_size=20, max_size=40))
def test_escapes_round_trip_through_the_compilers(tmp_path, texts):
    strings = [_without_nul(s) for s in EDGE + texts]
    assert _c_bytes(strings, tmp_path) == [s.encode("utf-8") for s in strings]
    for s in strings:
        assert eval(escape.py_str(s)) == s  # noqa: S307 - our own literal
        for out in (escape.c_str(s), escape.py_str(s), escape.c_comment(s), escape.py_comment(s)):
            assert out.isascii() and out.isprintable(), out
        assert "*/" not in escape.c_comment(s) and "/*" not in escape.c_comment(s)
        assert "??" not in escape.c_comment(s)


def test_make_path_refuses_what_make_cannot_spell():
    assert escape.make_path("../../../firmware_runtime") == "../../../firmware_runtime"
    for bad in ("a b", "a#b", "a$b", "a:b", "a\nb", "a\\b"):
        with pytest.raises(escape.UnsafePath):
            escape.make_path(bad)


# ---- whole specs with hostile text and names --------------------------------------------------

BASE = ROOT / "spec" / "boids.yaml"
names = st.one_of(st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True),
                  st.sampled_from(sorted(C_KEYWORDS | C_MACROS | {"count", "none", "class", "lambda", "main",
                                                                   "printf", "boids_params", "P", "np"})))


# text the loader accepts (no control or direction characters): most examples then reach the compilers
clean_text = st.text(st.characters(blacklist_categories=("Cc", "Cs"),
                                   blacklist_characters="".join(INVISIBLE)), max_size=60)


def _compile_syntax(fw: Path, cc: str, std: str) -> None:
    srcs = sorted(str(p) for p in fw.glob("*.c"))
    res = subprocess.run([cc, f"-std={std}", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only",
                          "-DBOIDS_HOST", f"-I{fw}", *RUNTIME_I_FLAGS, *srcs], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, f"{cc} -std={std}:\n{res.stderr[:3000]}"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                        HealthCheck.too_slow])
@given(unit=st.one_of(st.text(max_size=20), st.from_regex(r"[!-~]{0,16}", fullmatch=True)),
       desc=st.one_of(st.text(max_size=60), clean_text), spec_desc=st.one_of(st.text(max_size=60), clean_text),
       name=names)
def test_any_accepted_spec_compiles_and_round_trips(tmp_path_factory, unit, desc, spec_desc, name):
    gcc = require_tool("gcc")
    mips = require_tool("mipsel-linux-gnu-gcc")
    tmp = tmp_path_factory.mktemp("hyp")
    y = YAML(typ="rt")
    doc = y.load(BASE.read_text(encoding="utf-8"))
    doc["description"] = spec_desc
    first = next(iter(doc["params"]))
    doc["params"][first]["unit"] = unit
    doc["params"][first]["description"] = desc
    extra = {"default": 1, "min": 0, "max": 2, "unit": unit, "description": desc}
    renamed = name not in doc["params"]
    if renamed:
        doc["params"][name] = extra
    path = tmp / "spec" / "hyp.yaml"
    path.parent.mkdir()
    with open(path, "w", encoding="utf-8") as fh:
        y.dump(doc, fh)
    try:
        m = load(path)
    except SpecError as e:
        assert e.issues and all(i.line >= 1 and i.col >= 1 for i in e.issues)
        event("refused")
        return
    event("accepted: compiled and imported")
    out = tmp / "generated" / m.name
    for rel, text in render_files(m, out, path).items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text, encoding="utf-8")
    _compile_syntax(out / "firmware", gcc, "c99")
    _compile_syntax(out / "firmware", mips, "gnu99")
    spec = importlib.util.spec_from_file_location(f"hyp_model_{abs(hash(path))}", out / "python" / "boids_model.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    p = {q.name: q for q in mod.PARAMS}
    assert p[first].unit == unit and p[first].description == desc
    if renamed:
        assert p[name].unit == unit
    cfg = (out / "firmware" / "boids_config.h").read_text(encoding="ascii")
    assert f"#define BOIDS_SEED {m.spec.seed}u" in cfg
