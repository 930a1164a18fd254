"""Every identifier the generated C can meet is reserved (issue 32): a spec
name that is one is refused at its line, never handed to gcc.

The tables are in codegen/spec/names.py; this test keeps them from going stale by
asking the real compilers. For each build of the committed firmware (the host
image with gcc, the same for mipsel Linux, the PIC32 m4k compile check), the
compile command `make -n` prints is rerun with `-dM -E` (and again with
-std=gnu99, XC32's mode), and every lower-case macro it defines must be
refused by names.identifier_problem: a parameter `sa_handler` (a macro of
<signal.h>, which host_main.c includes before boids_flock.h) once generated
and then failed in gcc. The rule code's own translation unit (boids_flock.c)
is compiled and the runtime's names it can see (nm of its object, fixed.h's
inline functions kept, and the typedefs of the runtime headers) must be
refused too; and no rule may be named so that its C names `<rule>_<sum>`
reach one (a rule `fx` with a sum `mul` shadowed fixed.h's fx_mul).
"""
from __future__ import annotations

import re
import shlex
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from codegen.spec.names import identifier_problem, rule_name_problem, state_name_problem

from .conftest import ROOT, RUNTIME, RUNTIME_I_FLAGS, require_tool

FIRMWARE = ROOT / "generated" / "combo_scouts_predators_obstacles" / "firmware"  # the most runtime it uses
TARGETS = ("host", "host-mipsel", "m4k-check")
SPEC_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")  # what the spec's names may be (codegen/spec/schema.py)
_DROP_WITH_ARG = {"-o", "-T"}


def _compile_commands(target: str, build: Path) -> list[list[str]]:
    res = subprocess.run(["make", "-n", "-C", str(FIRMWARE), target, f"RUNTIME={RUNTIME}", f"BUILD={build}"],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    cmds = []
    for line in res.stdout.splitlines():
        try:
            words = shlex.split(line)
        except ValueError:  # not a compile command (an awk program split over lines)
            continue
        if words and words[0] == "ccache":  # the Makefile's $(CCACHE) launcher (conftest sets it)
            words = words[1:]
        if len(words) > 1 and any(w.endswith(".c") for w in words[1:]):
            cmds.append(words)
    assert cmds, f"`make -n {target}` printed no compile command:\n{res.stdout}"
    # one command per object: those with the same flags preprocessed together, as one
    merged: dict[tuple, list[str]] = {}
    for words in cmds:
        flags, skip = [], False
        for w in words:
            if skip:
                skip = False
            elif w == "-o":
                skip = True
            elif not w.endswith(".c") and w != "-c":
                flags.append(w)
        merged.setdefault(tuple(flags), []).extend(w for w in words if w.endswith(".c"))
    return [[*flags, *sources] for flags, sources in merged.items()]


def _preprocess(words: list[str], std: str | None) -> str:
    """The command's macros, `-dM -E` over all its C sources at once."""
    args, skip = [], False
    for w in words[1:]:
        if skip:
            skip = False
        elif w in _DROP_WITH_ARG:
            skip = True
        elif not (w.startswith("-Wl,") or w.endswith((".S", ".ld"))):
            args.append(f"-std={std}" if std and w.startswith("-std=") else w)
    cc = require_tool(words[0])
    res = subprocess.run([cc, *args, "-dM", "-E"], cwd=FIRMWARE, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout


@lru_cache(maxsize=None)
def header_macros(tmp: str) -> frozenset:
    require_tool("make")
    names = set()
    for target in TARGETS:
        for words in _compile_commands(target, Path(tmp) / "build"):
            for std in (None, "gnu99"):
                for m in re.finditer(r"^#define ([A-Za-z_][A-Za-z0-9_]*)", _preprocess(words, std), re.M):
                    names.add(m.group(1))
    return frozenset(n for n in names if SPEC_NAME.match(n))


@pytest.fixture(scope="module")
def macros(tmp_path_factory):
    return header_macros(str(tmp_path_factory.mktemp("reserved")))


def test_every_lower_case_macro_of_the_real_headers_is_reserved(macros):
    assert {"sa_handler", "si_pid", "sigev_notify_function", "stdin", "offsetof"} <= macros  # the scan sees them
    missing = sorted(n for n in macros if identifier_problem(n) is None)
    assert not missing, f"lower-case macros of the firmware's headers not in codegen/spec/names.py: {missing}"


def _stems(name: str) -> list[str]:
    """Every rule name R for which `R_<sum>` can spell `name`: si_addr_lsb -> si, si_addr."""
    parts = name.split("_")
    return ["_".join(parts[:k]) for k in range(1, len(parts))]


def test_no_rule_name_prefixes_a_macro(macros):
    """A rule's sums are C names `<rule>_<sum>`: a rule `si` with a sum `pid` is si_pid."""
    for n in macros:
        for stem in _stems(n):
            assert rule_name_problem(stem), f"a rule named '{stem}' could name a sum {n}, a macro"


def test_the_runtime_names_the_rule_code_sees_are_reserved(tmp_path):
    """boids_flock.c holds every rule's C: the functions and objects its object
    file defines or calls that the runtime's headers or libc declare, and the
    runtime's typedefs."""
    cc, nm = require_tool("gcc"), require_tool("nm")
    obj = tmp_path / "flock.o"
    inc = ["-I.", *RUNTIME_I_FLAGS]
    res = subprocess.run([cc, "-std=c99", "-O2", *inc, "-fkeep-inline-functions", "-c", "boids_flock.c", "-o", str(obj)],
                         cwd=FIRMWARE, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    symbols = subprocess.run([nm, str(obj)], capture_output=True, text=True, timeout=60, check=True).stdout
    pre = subprocess.run([cc, "-std=c99", *inc, "-E", "boids_flock.c"], cwd=FIRMWARE, capture_output=True, text=True,
                         timeout=120, check=True).stdout
    headers, where = [], ""
    for line in pre.splitlines():
        m = re.match(r'# \d+ "([^"]+)"', line)
        if m:
            where = m.group(1)
        elif where.startswith(str(RUNTIME)) and where.endswith(".h"):
            headers.append(line)
    text = "\n".join(headers)
    declared = set(re.findall(r"\b[a-z][a-z0-9_]*\b", text))
    names = set()
    for row in symbols.splitlines():
        kind, name = row.split()[-2:]
        if SPEC_NAME.match(name) and (kind == "U" or name in declared):
            names.add(name)
    names |= set(re.findall(r"\btypedef\b[^;{]*?\b([a-z][a-z0-9_]*)\s*;", text))
    names |= set(re.findall(r"\}\s*([a-z][a-z0-9_]*)\s*;", text))
    assert {"fx_mul", "fx", "memcpy"} <= names  # the scan sees them
    missing = sorted(n for n in names if identifier_problem(n) is None)
    assert not missing, f"names the rule code sees that codegen/spec/names.py does not reserve: {missing}"
    stems = sorted(n for n in names for stem in _stems(n) if not rule_name_problem(stem))
    assert not stems, f"rules named after these stems could shadow them with a sum: {stems}"


@pytest.mark.parametrize("name", ["sa_handler", "si_pid", "sigev_notify_function", "fx_mul", "fx", "boids_step",
                                  "rng_next", "state_field", "memcpy", "unix", "boid_t"])
def test_identifiers_refused(name):
    assert identifier_problem(name)


@pytest.mark.parametrize("name", ["fx", "si", "sa", "sigev", "boids", "rng", "state", "obstacle"])
def test_rule_names_that_prefix_reserved_names_are_refused(name):
    assert rule_name_problem(name)


@pytest.mark.parametrize("name", ["atime", "mtime"])
def test_state_whose_c_copy_is_a_macro_is_refused(name):
    assert "st_" + name in state_name_problem(name)


@pytest.mark.parametrize("name", ["wind", "crowding", "alignment", "speed_limit", "scout_bias", "perching"])
def test_ordinary_rule_names_pass(name):
    assert rule_name_problem(name) is None and identifier_problem(name) is None


def test_the_pair_rings_plane_types_are_taken():
    """The ring's entry types (pair_plane0_t ...) are names the C printer
    never gives a rule's sum (a rule `pair` with a sum `plane0_t`); they once
    sat inside a comment of the table and were not taken."""
    from codegen.passes.pairs_once import MAX_PLANES
    from codegen.targets.c.names import GENERATED

    assert {f"pair_plane{k}_t" for k in range(MAX_PLANES)} <= GENERATED
