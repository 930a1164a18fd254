"""The serial parser fuzzer (tools/fuzz_serial.sh): its full default run (a
million lines, seed 1: about 11 s), short runs of other specs, and proof
that its checks catch a parser that writes a value before range-checking it
and a watch stream that stamps a change with the wrong frame."""
from __future__ import annotations

import os
import re
import subprocess

import pytest

from .conftest import ROOT, require_tool

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: a million fuzzed serial lines

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


FIGURES = re.compile(r"inputs=(\d+) lines_checked=(\d+) ok=(\d+) err=(\d+) sets_accepted=(\d+) "
                     r"stream_lines=(\d+) ev_sets=(\d+) crashes=0")


def figures(res: subprocess.CompletedProcess) -> tuple[int, ...]:
    assert res.returncode == 0, res.stdout + res.stderr[-3000:]
    m = FIGURES.search(res.stdout)
    assert m, res.stdout
    assert "runtime error" not in res.stderr and "AddressSanitizer" not in res.stderr
    return tuple(map(int, m.groups()))


def test_fuzz_full_default_run(fresh_generated, capsys):
    """The script at its defaults, as CI runs it: 10^6 lines, seed 1 (the run
    that once stopped at `watch 1`: the harness now knows the watch stream)."""
    require_tool("bash")
    res = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=300)
    inputs, checked, ok, err, sets, stream, ev_sets = figures(res)
    assert inputs == 1_000_000 and checked >= inputs and "seed=1 " in res.stdout
    # the mix reaches both outcomes, real parameter changes, and changes announced under watch
    assert ok > 50_000 and err > 50_000 and sets > 10_000
    assert stream > 10_000 and ev_sets > 5_000
    with capsys.disabled():
        print("\n" + res.stdout.strip().splitlines()[-1])


def test_fuzz_20k_lines_no_crash_no_invariant_broken(fresh_generated):
    inputs, checked, ok, err, sets, stream, ev_sets = figures(run_fuzz(20000, 7))
    assert inputs == 20000 and checked >= inputs
    assert ok > 1000 and err > 1000 and sets > 100 and stream > 100 and ev_sets > 50


def test_fuzz_catches_a_parser_that_stores_before_checking(fresh_generated, tmp_path):
    src = (ROOT / "firmware_runtime" / "core" / "cmd_core.c").read_text()
    needle = "    if (raw < p->min || raw > p->max) {"
    assert src.count(needle) == 1
    broken = tmp_path / "cmd_core.c"
    broken.write_text(src.replace(needle, "    *p->value = raw;\n" + needle))
    res = run_fuzz(20000, 7, {"FUZZ_CMD_CORE_C": str(broken)})
    assert res.returncode != 0
    assert "fuzz_serial: a parameter left its range" in res.stderr or \
        "fuzz_serial: a rejected line changed parameters" in res.stderr, res.stderr[-2000:]


def test_fuzz_catches_a_change_announced_with_the_wrong_frame(fresh_generated, tmp_path):
    """`ev set` stamped with the frame now instead of the first frame the
    change takes effect in (a mirror would apply it a frame early)."""
    src = (ROOT / "firmware_runtime" / "core" / "watch.c").read_text()
    needle = "    r_int(&r, *p->value);\n    r_stamp(&r);\n"
    assert src.count(needle) == 1
    broken = tmp_path / "watch.c"
    broken.write_text(src.replace(needle, "    r_int(&r, *p->value);\n    r_str(&r, \" frame=\");\n"
                                          "    r_uint(&r, boids_app_frame());\n"))
    res = run_fuzz(20000, 7, {"FUZZ_WATCH_C": str(broken)})
    assert res.returncode != 0
    assert "fuzz_serial: a change under watch without its ev set line" in res.stderr, res.stderr[-2000:]


def client_reads(model, line: str) -> str:
    """Read one line the fuzzer accepted with the Python client's own parser
    for its kind (raising what the client would raise); returns the kind."""
    from pysim.board import replies
    from pysim.board.lockstep import Mirror
    from pysim.board.serial_client import parse_telemetry

    words = line.split()
    names = {p.name for p in model.PARAMS}
    head = words[1].partition("=")[0] if words[0] in ("ok", "ev") and len(words) > 1 else ""
    kind = f"{words[0]} {head}".strip()
    if words[0] in ("fr", "ev"):
        Mirror(model).feed(line)  # a fresh, unsynced mirror checks every field and steps nothing
    elif words[0] == "tm":
        values = parse_telemetry(line)
        assert values and all(isinstance(v, int) for v in values.values()), line
    elif words[0] == "param":
        replies.param(line, 1 << model.FRAC_BITS)
    elif kind == "ok stats":
        replies.stats(line)
    elif kind == "ok watch":
        replies.frame(line)
    elif kind == "ok reset":
        replies.seed(line)
    elif kind == "ok boids":
        replies.count(line, model.CAPACITY)
    elif words[0] == "ok" and head in names:
        replies.raw_value(line, head)
    return kind


def test_every_line_the_fuzzer_accepts_the_client_reads(fresh_generated, tmp_path):
    """The fuzzer's shapes (tests/c/fuzz_lines.c, fuzz_serial.c) and the
    client's (pysim/board/replies.py, pysim/board/lockstep.py) are two readings of
    one protocol: the firmware's lines the fuzzer accepted, sampled by kind,
    all parse in the client, and the sample covers the watch stream."""
    model = fresh_generated[2]
    out = tmp_path / "samples.txt"
    figures(run_fuzz(20000, 7, {"FUZZ_SAMPLES": str(out)}))
    lines = out.read_text().splitlines()
    kinds = {client_reads(model, line) for line in lines}
    want = {"fr", "ev set", "ev reset", "ev boids", "ev pause", "ev resume", "tm", "param", "ok stats",
            "ok watch", "ok reset", "ok boids", "ok visual_range"}
    assert want <= kinds, sorted(want - kinds)


@pytest.mark.parametrize("spec", ["obstacles", "vector_forces"])
def test_fuzz_world_commands(spec):
    """Specs with run-time state commands (obstacle ..., target ...) too."""
    from codegen.commands.parity import prepare

    prepare(str(ROOT / "spec" / f"{spec}.yaml"))
    res = run_fuzz(20000, 11, {"SPEC_NAME": spec})
    assert res.returncode == 0, res.stdout + res.stderr
    inputs, *_ = figures(res)
    assert inputs == 20000
