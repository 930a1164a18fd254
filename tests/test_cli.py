"""The CLI end to end: build, sim, parity output, check's quantization report."""
from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT, require_tool


def boidsgen(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "codegen.commands.cli", *args], cwd=cwd, capture_output=True, text=True)


def test_check_prints_quantization_report():
    res = boidsgen("check")
    assert res.returncode == 0, res.stderr
    line = next(l for l in res.stdout.splitlines() if l.startswith("centering_factor") and "default" in l)
    # 0.0005 becomes 16/32768 = 0.00048828125, -2.34%
    assert line.split()[2:] == ["0.0005", "16", "0.00048828125", "-2.34%"]
    # a range bound's quantization is a note on stdout, not a warning on every check (issue 33)
    assert "centering_factor.min = 0.0002 is held as 0.000213623046875 (+6.81%" in res.stdout
    assert "warning" not in res.stderr, res.stderr


def test_check_strict_fails_above_threshold():
    assert boidsgen("check", "--strict", "--max-quant-error", "5").returncode == 1
    assert boidsgen("check", "--strict", "--max-quant-error", "10").returncode == 0


def test_build_compiles_and_runs():
    require_tool("gcc")
    res = boidsgen("build")
    assert res.returncode == 0, res.stderr
    assert "host firmware:" in res.stdout and "host run: 300 frames x 100 boids" in res.stdout
    ppm = ROOT / "build" / "boids" / "frame.ppm"
    data = ppm.read_bytes()
    assert data.startswith(b"P6\n320 240\n255\n")
    pixels = data[len(b"P6\n320 240\n255\n"):]
    lit = sum(1 for i in range(0, len(pixels), 3) if pixels[i] == 255)
    assert 20 <= lit <= 100  # one white pixel per boid (some may overlap)


def test_parity_command_reports_bit_exact():
    require_tool("gcc")
    res = boidsgen("parity", "--frames", "50", "--seed", "4", "--boids", "20", "--order", "both")
    assert res.returncode == 0, res.stdout + res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("parity: 50 frames x 20 boids bit-exact (boids, sequential")
    assert lines[1].startswith("parity: 50 frames x 20 boids bit-exact (boids, synchronous")


def test_sim_trace_and_bad_set(tmp_path):
    out = tmp_path / "t.csv"
    res = boidsgen("sim", "--frames", "3", "--seed", "2", "--boids", "5", "--arith", "float", "--trace", str(out))
    assert res.returncode == 0, res.stderr
    text = out.read_text().splitlines()
    assert "# arith: float" in text and "# kind: boid x,y,vx,vy" in text
    assert text[text.index("frame,index,kind,values") + 1].startswith("0,0,boid,")
    assert f"trace written to {out}" in res.stdout  # it once printed nothing on success
    rows = [l for l in text if not l.startswith(("#", "frame"))]
    assert len(rows) == 4 * (5 + 1) and sum(",rng," in l for l in rows) == 4  # 5 boids and the PRNG a frame
    bad = boidsgen("sim", "--frames", "3", "--set", "visual_range=999")
    assert bad.returncode == 2 and "visual_range: 999 outside [0, 200]" in bad.stderr


def test_check_of_an_overflowing_spec_says_the_error_first(tmp_path):
    """Issue 33: `check` printed `...: valid (...)` first and the error about
    100 lines later. Now the located errors come first, and nothing says valid."""
    from .conftest import OVERFLOWS

    spec = tmp_path / "spec" / "x.yaml"
    spec.parent.mkdir()
    spec.write_text(OVERFLOWS)
    res = boidsgen("check", str(spec))
    assert res.returncode == 2
    assert res.stderr.splitlines()[0].startswith(f"{spec}:"), res.stderr
    assert "params.protected_range" in res.stderr.splitlines()[0]
    assert ": valid" not in res.stdout and res.stdout.splitlines()[0].startswith(f"{spec}: NOT valid")


def test_compare_plot_takes_an_optional_file_and_experiment_a_timeout():
    from codegen.commands import cli
    from codegen.commands.parser import build

    ap = build(cli)
    assert ap.parse_args(["compare", "--plot"]).plot == ""  # the default path (cmd_compare: a.plot or ...)
    assert ap.parse_args(["compare", "--plot", "x.png"]).plot == "x.png"
    assert ap.parse_args(["experiment", "f.yaml", "--timeout", "2.5"]).timeout == 2.5


def test_build_says_skipped_for_every_step_it_cannot_run(tmp_path, monkeypatch, capsys):
    """Issue 33: without the MIPS compiler the compile-check line just vanished."""
    require_tool("gcc")
    import shutil

    from codegen.drivers import host_build as build

    spec = tmp_path / "spec" / "boids.yaml"
    spec.parent.mkdir()
    spec.write_text((ROOT / "spec" / "boids.yaml").read_text())
    real = shutil.which
    monkeypatch.setattr(build.shutil, "which",
                        lambda name, *a, **k: None if name in ("mipsel-linux-gnu-gcc", "xc32-gcc") else real(name, *a, **k))
    assert build.build(str(spec), run_demo=False) == 0
    out = capsys.readouterr().out
    assert "PIC32 compile check: skipped (mipsel-linux-gnu-gcc is not on PATH" in out, out
    assert "PIC32 image: skipped (xc32-gcc is not on PATH" in out, out
