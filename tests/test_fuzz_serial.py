"""A short, fixed-seed run of the serial parser fuzzer (tools/fuzz_serial.sh;
the long run is the same script with more lines), and proof that its checks
catch a parser that writes a value before range-checking it."""
from __future__ import annotations

import os
import re
import subprocess

import pytest

from .conftest import ROOT, require_tool

SCRIPT = ROOT / "tools" / "fuzz_serial.sh"


def run_fuzz(lines: int, seed: int, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    require_tool("bash")
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run(["bash", str(SCRIPT), str(lines), str(seed)], capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.fixture(scope="module")
def fresh_generated(default_build):
    """The generated firmware the fuzzer links, rendered from the current spec."""
    return default_build


def test_fuzz_20k_lines_no_crash_no_invariant_broken(fresh_generated):
    res = run_fuzz(20000, 7)
    assert res.returncode == 0, res.stdout + res.stderr
    m = re.search(r"inputs=(\d+) lines_checked=(\d+) ok=(\d+) err=(\d+) sets_accepted=(\d+) crashes=0", res.stdout)
    assert m, res.stdout
    inputs, checked, ok, err, sets = map(int, m.groups())
    assert inputs == 20000 and checked >= inputs
    # the mix reaches both outcomes and real parameter changes
    assert ok > 1000 and err > 1000 and sets > 100
    assert "runtime error" not in res.stderr and "AddressSanitizer" not in res.stderr


def test_fuzz_catches_a_parser_that_stores_before_checking(fresh_generated, tmp_path):
    src = (ROOT / "firmware_runtime" / "cmd_core.c").read_text()
    needle = "    if (raw < p->min || raw > p->max) {"
    assert src.count(needle) == 1
    broken = tmp_path / "cmd_core.c"
    broken.write_text(src.replace(needle, "    *p->value = raw;\n" + needle))
    res = run_fuzz(20000, 7, {"FUZZ_CMD_CORE_C": str(broken)})
    assert res.returncode != 0
    assert "fuzz_serial: a parameter left its range" in res.stderr or \
        "fuzz_serial: a rejected line changed parameters" in res.stderr, res.stderr[-2000:]


@pytest.mark.parametrize("spec", ["obstacles", "vector_forces"])
def test_fuzz_world_commands(spec):
    """Specs with run-time state commands (obstacle ..., target ...) too."""
    from codegen.parity import prepare

    prepare(str(ROOT / "spec" / f"{spec}.yaml"))
    res = run_fuzz(20000, 11, {"SPEC_NAME": spec})
    assert res.returncode == 0, res.stdout + res.stderr
    assert re.search(r"inputs=20000 .* crashes=0", res.stdout), res.stdout
