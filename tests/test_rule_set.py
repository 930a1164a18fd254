"""A spec's rules: the library plus its own rule_defs, and the `rules:` list
bound against them (codegen/model/rule_set.py); `boidsgen rules`."""
from __future__ import annotations

from pathlib import Path

import pytest

from codegen.commands.cli import main
from codegen.output.pipeline import load
from codegen.spec.errors import SpecError

from .conftest import ROOT
from .issue_examples import WIND as WIND_RULE

BOIDS = (ROOT / "spec" / "boids.yaml").read_text(encoding="utf-8")
EXTRA_PARAMS = """  wind_x: {default: 0.05, min: -1, max: 1, unit: px/frame^2}
  wind_y: {default: 0, min: -1, max: 1, unit: px/frame^2}
  gust: {default: 1, min: 0, max: 5, type: int}
"""
WIND = "\nrule_defs:\n" + WIND_RULE


def _spec(tmp_path: Path, rule_line: str, defs: str = WIND) -> Path:
    text = BOIDS.replace("  visual_range:", EXTRA_PARAMS + "  visual_range:", 1)
    text = text.replace("  - {rule: speed_limit", rule_line + "\n  - {rule: speed_limit", 1) + defs
    path = tmp_path / "spec" / "x.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if needle in ln)


def _issues(path: Path) -> list:
    with pytest.raises(SpecError) as e:
        load(path)
    return e.value.issues


def test_a_spec_rule_is_used_like_a_library_rule(tmp_path):
    m = load(_spec(tmp_path, "  - {rule: wind, x: wind_x, y: wind_y}"))
    wind = next(r for r in m.rules if r.name == "wind")
    assert wind.refs == {"x": "wind_x", "y": "wind_y"} and wind.ir.path.endswith("x.yaml")
    assert [r.name for r in m.rules][-2:] == ["wind", "speed_limit"]


@pytest.mark.parametrize("rule_line, defs, needle, reason", [
    ("  - {rule: wind, x: wind_x}", WIND, "rule: wind", "needs role 'y'"),
    ("  - {rule: wind, x: wind_x, y: wind_y, z: wind_x}", WIND, "rule: wind", "unknown key 'z'"),
    ("  - {rule: wind, x: gust, y: wind_y}", WIND, "rule: wind", "needs a fixed parameter"),
    ("  - {rule: wind, x: wind_xx, y: wind_y}", WIND, "rule: wind", "did you mean 'wind_x'"),
    ("  - {rule: wnd, x: wind_x, y: wind_y}", WIND, "rule: wnd", "did you mean 'wind'"),
    ("  - {rule: wind, x: wind_x, y: wind_y}", WIND.replace("wind:", "gravity:"), "  gravity:",
     "is a library rule"),
    ("  - {rule: wind, x: wind_x, y: wind_y}", WIND.replace("roles:", "override: true\n    roles:"),
     "override: true", "no library rule 'wind' to override"),
    ("  - {rule: wind, x: wind_x, y: wind_y}", WIND.replace("vy += y", "vy += y + q"), "vy += y + q",
     "unknown name 'q'"),
    ("  - {rule: predator_flee, range: wind_x, weight: wind_y}", WIND, "rule: predator_flee",
     "needs a 'predators:' section"),
])
def test_bad_rule_uses_are_located(tmp_path, rule_line, defs, needle, reason):
    path = _spec(tmp_path, rule_line, defs)
    issues = _issues(path)
    assert any(reason in i.reason and i.line == _line_of(path, needle) for i in issues), [str(i) for i in issues]


def test_override_replaces_the_library_rule(tmp_path):
    defs = """
rule_defs:
  gravity:
    override: true
    description: gravity that also slows
    roles: {g: fixed}
    apply: |
      vy += g
      vx -= vx * g
"""
    m = load(_spec(tmp_path, "  - {rule: gravity, g: wind_x}", defs))
    g = next(r for r in m.rules if r.name == "gravity")
    assert g.ir.description == "gravity that also slows" and g.ir.path.endswith("x.yaml")


def test_rule_defs_change_the_spec_hash(tmp_path):
    a = load(_spec(tmp_path, "  - {rule: wind, x: wind_x, y: wind_y}"))
    b = load(_spec(tmp_path, "  - {rule: wind, x: wind_x, y: wind_y}", WIND.replace("vx += x", "vx -= x")))
    assert a.hash != b.hash


def test_rules_command(tmp_path, capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "separation" in out and "speed_limit" in out and "23 rules" in out and "hunt_nearest" in out
    assert main(["rules", "gravity"]) == 0
    assert "vy += g" in capsys.readouterr().out
    path = _spec(tmp_path, "  - {rule: wind, x: wind_x, y: wind_y}")
    assert main(["rules", "--spec", str(path)]) == 0
    assert "wind" in capsys.readouterr().out
    assert main(["rules", "wind", "--spec", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "wind:" and "vx += x" in out
    assert main(["rules", "gravty"]) == 2
    assert "did you mean 'gravity'" in capsys.readouterr().err


PREDATOR = (ROOT / "spec" / "lab_tft_predator.yaml").read_text(encoding="utf-8")


def _predator_spec(tmp_path: Path, speed: str, defs: str = "") -> Path:
    text = PREDATOR.replace("bottom: margin}\nspawn:", f"bottom: margin,\n            speed: {speed}}}\nspawn:", 1)
    assert "speed: " + speed in text
    path = tmp_path / "spec" / "p.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + defs, encoding="utf-8")
    return path


def test_predators_run_their_own_speed_rule_only_when_the_spec_says(tmp_path):
    """Seeds 000/002: a predator's only velocity updates are the edge turns; a
    clamp (or any self-only rule, the spec's own too) is an option stated
    in predators.speed, and it reaches the firmware's predators_step."""
    from codegen.output.render import render

    plain = load(ROOT / "spec" / "lab_tft_predator.yaml")
    assert [r.name for r in plain.predator_motion] == ["edges"]
    m = load(_predator_spec(tmp_path, "{rule: speed_limit, min: predator_min_speed, max: predator_max_speed}"))
    assert [(r.name, r.refs) for r in m.predator_motion][1] == (
        "speed_limit", {"min": "predator_min_speed", "max": "predator_max_speed"})

    def predators_step(model):
        c = render(model)["firmware/boids_flock.c"]
        return c[c.index("static void predators_step"):c.index("\n}\n", c.index("static void predators_step"))]
    assert "P->predator_max_speed" in predators_step(m) and "predator_max_speed" not in predators_step(plain)
    own = WIND.replace("wind:", "drag:").replace("roles: {x: fixed, y: fixed}", "roles: {k: fixed}").replace(
        "vx += x\n      vy += y", "vx -= vx * k\n      vy -= vy * k")
    m = load(_predator_spec(tmp_path, "{rule: drag, k: predator_turn_factor}", own))
    assert "P->predator_turn_factor" in predators_step(m).split("edges")[-1]


@pytest.mark.parametrize("speed, reason", [
    ("{rule: speed_limt, min: predator_min_speed, max: predator_max_speed}", "unknown rule 'speed_limt' (did you mean 'speed_limit'?)"),
    ("{rule: speed_limit, min: predator_min_speed}", "needs role 'max'"),
    ("{rule: speed_limit, min: predator_count, max: predator_max_speed}", "needs a fixed parameter"),
    ("{rule: cohesion, range: predator_range, factor: predator_turn_factor}", "reads neighbours"),
])
def test_a_bad_predator_speed_rule_is_located(tmp_path, speed, reason):
    path = _predator_spec(tmp_path, speed)
    issues = _issues(path)
    assert any(reason in i.reason for i in issues), [str(i) for i in issues]
    assert all(i.line == _line_of(path, "speed: {rule") for i in issues), [str(i) for i in issues]
