"""Range analysis: every committed spec passes; real overflows are refused
with the parameter to narrow; 64-bit squared distances are reported as widened."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from codegen.commands.cli import main
from codegen.model.gen_model import build_model
from codegen.analysis.range_check import analyse, check_spec, report_lines
from codegen.model.spec_load import load_spec

from .conftest import DEFAULT_CAPACITY, with_capacity

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "spec").glob("*.yaml"))
BOIDS = with_capacity((ROOT / "spec" / "boids.yaml").read_text(), 100)  # the variants below start at 100


def _variant(tmp_path, name: str, *subs: tuple[str, str]) -> Path:
    text = BOIDS
    for old, new in subs:
        assert old in text, old
        text = text.replace(old, new)
    p = tmp_path / "spec" / f"{name}.yaml"
    p.parent.mkdir(exist_ok=True)
    p.write_text(text)
    return p


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_committed_specs_pass(spec):
    rep, issues = check_spec(str(spec))
    assert rep.ok and not issues, "\n".join(str(i) for i in issues)
    assert len(rep.sites) > 10  # it did look at the rules


def test_visual_range_200_squared_distance_is_widened():
    # boids.yaml lets visual_range reach 200 px: dx*dx + dy*dy passes s16.15's
    # 65,536 and is safe only because fx_d2 is 64-bit; the report says so.
    spec, _ = load_spec(str(ROOT / "spec" / "boids.yaml"))
    assert spec.params["visual_range"].max == 200 and spec.fixed_point.format == "s16.15"
    rep = analyse(build_model(spec, "spec/boids.yaml"))
    d2 = [s for s in rep.sites if s.site.expr == "dx*dx + dy*dy"]
    assert d2 and d2[0].kind == "u64"
    assert d2[0].worst / (1 << 30) >= 2 * 200 ** 2  # at least the in-box worst case, 80,000 px^2
    line = next(row for row in report_lines(rep) if "dx*dx + dy*dy" in row)
    assert "widened 64-bit" in line, line


def test_overflowing_sum_is_refused_at_the_parameter(tmp_path, capsys):
    # 299 neighbours x 300 px of offsets = 89,700 px: the separation sum,
    # brought back to 32 bits, wraps in s16.15.
    spec = _variant(tmp_path, "wide", ("capacity: 100", "capacity: 300"),
                    ("visual_range:    {default: 20,     min: 0,      max: 200",
                     "visual_range:    {default: 20,     min: 0,      max: 300"),
                    ("protected_range: {default: 2,      min: 0,      max: 100",
                     "protected_range: {default: 2,      min: 0,      max: 300"))
    out = tmp_path / "out"
    rc = main(["generate", str(spec), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and not out.exists()
    m = re.search(rf"{re.escape(str(spec))}:(\d+):(\d+): params\.protected_range: rule 'separation': "
                  r"`close_dx` \(\S*separation\.yaml:15:11\) can reach", err)
    assert m, err
    line = int(m.group(1))
    assert "protected_range" in spec.read_text().splitlines()[line - 1]
    assert "fix: narrow params.protected_range.max to" in err


def test_speed_floor_above_ceiling_is_safe(capsys):
    """min_speed may exceed max_speed (both range over [0, 10]): speed_limit's
    max test is an `else`, so no vector rescaled to min is divided again by
    the old, tiny speed. The analysis proves it; the boid flies at min."""
    from pysim.engine import Simulation
    from pysim.model_support import load_model

    assert main(["check", str(ROOT / "spec" / "boids.yaml")]) == 0
    assert "0 can overflow" in capsys.readouterr().out
    model = load_model(ROOT / "generated" / "boids" / "python" / "boids_model.py")
    p = {q.name: q for q in model.PARAMS}
    assert (p["min_speed"].max, p["max_speed"].min) == ("10", "0")
    sim = Simulation(model, "float", boids=0)
    sim.params.set("min_speed", "5")
    sim.params.set("max_speed", "3")
    sim.load_state([160.0], [120.0], [1.0], [0.0])
    sim.step()
    assert float(sim.vx[0]) == 5.0 and float(sim.vy[0]) == 0.0


def test_check_prints_the_range_report(capsys):
    assert main(["check", str(ROOT / "spec" / "boids.yaml")]) == 0
    out = capsys.readouterr().out
    assert "range analysis for 'boids'" in out
    worst = (DEFAULT_CAPACITY - 1) * 100  # every other boid 100 px away (protected_range.max), avoid_factor 1
    assert re.search(rf"separation\s+close_dx \* avoid_factor\s+separation\.yaml:15:20\s+{worst:,}\s+"
                     rf"x{65536 / worst:.2f}\s+ok", out), out
    assert "0 can overflow" in out


# ---------------------------------------------------------------- the blame's budget (issue 32)

def _overflowing(tmp_path, n: int) -> tuple[Path, str]:
    from .test_hostile_specs import overflowing_parameters

    text = overflowing_parameters(n)
    p = tmp_path / "spec" / f"over{n}.yaml"
    p.parent.mkdir(exist_ok=True)
    p.write_text(text)
    return p, text


def test_blame_within_budget_narrows_each_parameter(tmp_path):
    spec, text = _overflowing(tmp_path, 3)
    rep, issues = check_spec(str(spec))
    assert not rep.blame_cut and len(issues) == 3
    for i, issue in enumerate(issues):
        assert issue.field == f"params.p{i}" and re.search(rf"fix: narrow params\.p{i}\.max to \d+\.\d or less",
                                                           issue.reason), issue.reason
        assert text.splitlines()[issue.line - 1].startswith(f"  p{i}: ")


def test_blame_past_its_budget_gives_the_plain_error_at_the_expression(tmp_path):
    from codegen.analysis.range_check import error_issues

    spec, text = _overflowing(tmp_path, 3)
    s, loc = load_spec(str(spec))
    rep = analyse(build_model(s, str(spec)), blame_work=0)
    assert rep.blame_cut and not any(rep.blame.values())
    issues = error_issues(rep, str(spec), loc)
    assert [i.field for i in issues] == ["rule_defs.r0", "rule_defs.r1", "rule_defs.r2"]
    for i, issue in enumerate(issues):
        assert text.splitlines()[issue.line - 1].startswith(f"  r{i}: ")
        assert "stopped at its work budget" in issue.reason and "narrow params" not in issue.reason


def test_240_overflowing_parameters_report_every_error_within_seconds(tmp_path, capsys):
    """Each of 240 parameters overflows through its own rule: the blame once
    ran ~15 range analyses per parameter (600 s and more); now every error is
    reported, located, in seconds."""
    import time

    from .test_hostile_specs import hard_stop

    spec, text = _overflowing(tmp_path, 240)
    lines = text.splitlines()
    t0 = time.monotonic()
    with hard_stop(60, "boidsgen check (240 overflowing parameters)"):
        rc = main(["check", str(spec)])
    took = time.monotonic() - t0
    err = [e for e in capsys.readouterr().err.splitlines() if e.startswith(str(spec))]
    assert rc == 2 and took < 20, took  # ~3 s unloaded
    assert len(err) == 240
    for e in err:
        m = re.match(rf"{re.escape(str(spec))}:(\d+):\d+: (params\.p|rule_defs\.r)(\d+): rule 'r(\d+)'", e)
        assert m and m.group(3) == m.group(4), e
        assert lines[int(m.group(1)) - 1].startswith(f"  {'p' if m.group(2) == 'params.p' else 'r'}{m.group(3)}: ")
    assert "work budget" in err[-1]
