"""Issue 37: a predator's own rule (predators.speed) may see the flock:
`neighbours: {of: boids, ...}` with sums, count and pick: nearest, compiled
into predators_step (C) and the kernel's twin, bit-exact in both orders."""
from __future__ import annotations

from pathlib import Path

import pytest

from codegen.commands.parity import prepare, run_parity, simulator_trace

from .conftest import ROOT, require_tool

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: parity of a spec per rule

STALK = """\
  stalk:
    description: a predator picks the nearest boid in range and steers at it
    roles: {range: fixed, pull: fixed}
    neighbours: {of: boids, within: range, pick: nearest}
    each: |
      tx += -dx
      ty += -dy
    apply: |
      if count > 0:
          vx += tx * pull
          vy += ty * pull
"""

# a plain sum over every boid in range: toward their centroid (the built-in hunt's centroid mode)
CENTRE = """\
  centre:
    description: a predator steers toward the centre of the boids in range
    roles: {range: fixed, pull: fixed}
    neighbours: {of: boids, within: range}
    each: |
      sx -= dx
      sy -= dy
    apply: |
      if count > 0:
          vx += sx / count * pull
          vy += sy / count * pull
"""

PARAMS = ('  stalk_range:      {default: 60, min: 0, max: 200, unit: px, id: 15, description: "stalking distance"}\n'
          '  stalk_pull:       {default: 0.01, min: 0, max: 0.1, id: 16, description: "steer at the boid"}\n')


def predator_spec(folder: Path, name: str, defs: str, rule: str) -> Path:
    """spec/lab_tft_predator.yaml named `name`, with stalk_range and
    stalk_pull, `defs` as its rule_defs and `rule` bound to the predators."""
    text = (ROOT / "spec" / "lab_tft_predator.yaml").read_text(encoding="utf-8")
    text = text.replace("name: lab_tft_predator", f"name: {name}", 1)
    text = text.replace("\n  margin: ", "\n" + PARAMS + "  margin: ", 1)
    text = text.replace("predators: {capacity: 4,",
                        f"predators: {{speed: {{rule: {rule}, range: stalk_range, pull: stalk_pull}}, capacity: 4,", 1)
    text += "\nrule_defs:\n" + defs
    path = folder / "spec" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# a predator's rule over the food (nearest in range) and one over the obstacles (every one in range)
GRAZE = STALK.replace("stalk:", "graze:").replace("of: boids", "of: food")
DODGE = """\
  dodge:
    description: a predator steers away from the obstacles in range
    roles: {range: fixed, pull: fixed}
    neighbours: {of: obstacles, within: range}
    each: |
      sx += dx
      sy += dy
    apply: |
      if count > 0:
          vx += sx * pull
          vy += sy * pull
"""
WORLD = ("\nfood: {capacity: 3, count: food_count, speed: food_speed}\n"
         "obstacles: {capacity: 4, initial: [[100, 100, 15], [220, 150, 20]]}\n")
WORLD_PARAMS = ('  food_count:       {default: 2, min: 0, max: 3, type: int, id: 17}\n'
                '  food_speed:       {default: 0.5, min: 0, max: 2, unit: px/frame, id: 18}\n')


def world_spec(folder: Path, name: str, defs: str, rule: str) -> Path:
    """predator_spec with food and obstacles."""
    path = predator_spec(folder, name, defs, rule)
    text = path.read_text(encoding="utf-8").replace("\n  margin: ", "\n" + WORLD_PARAMS + "  margin: ", 1)
    path.write_text(text.replace("\nspawn: {", WORLD + "spawn: {", 1), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def specs(tmp_path_factory):
    require_tool("gcc")
    require_tool("make")
    root = tmp_path_factory.mktemp("predrules")
    committed = (ROOT / "spec" / "lab_tft_stalk.yaml").read_text(encoding="utf-8")
    assert STALK in committed and "speed: {rule: stalk, range: stalk_range, pull: stalk_pull}" in committed
    (root / "spec").mkdir()
    (root / "spec" / "lab_tft_stalk.yaml").write_text(committed, encoding="utf-8")  # the issue's example, as committed
    return {"stalk": root / "spec" / "lab_tft_stalk.yaml",
            "centre": predator_spec(root, "lab_centre", CENTRE, "centre"),
            "graze": world_spec(root, "lab_graze", GRAZE, "graze"),
            "dodge": world_spec(root, "lab_dodge", DODGE, "dodge")}


@pytest.mark.parametrize("order", ["sequential", "synchronous"])
@pytest.mark.parametrize("which", ["stalk", "centre", "graze", "dodge"])
def test_a_predator_rule_over_the_boids_is_bit_exact(specs, which, order):
    res = run_parity(str(specs[which]), frames=2000, order=order)
    assert res.ok, res.summary
    assert "2000 frames x 100 boids bit-exact" in res.summary, res.summary


@pytest.mark.parametrize("which", ["stalk", "centre", "graze", "dodge"])
def test_the_rule_steers_the_predator(specs, which):
    """With the pull at 0 the flock runs otherwise: the rule reached the predators."""
    m, _, model = prepare(str(specs[which]))
    on = simulator_trace(model, 200, m.spec.seed, None, ())
    off = simulator_trace(model, 200, m.spec.seed, None, [("stalk_pull", "0")])
    assert on != off


def test_the_c_holds_the_loop_over_the_boids(specs):
    prepare(str(specs["stalk"]))
    src = (specs["stalk"].parent.parent / "generated" / "lab_tft_stalk" / "firmware" / "boids_flock.c").read_text()
    body = src[src.index("static void predators_step"):]
    body = body[:body.index("\n}\n")]
    assert "for (k = 0; k < f->count; k++) {" in body and "uint64_t d2_best = fx_sq64(P->stalk_range);" in body


def _load_issues(path: Path) -> list[str]:
    """The spec's errors, the range gate's included (pipeline.checked_model)."""
    from codegen.output.pipeline import checked_model

    with pytest.raises(Exception) as e:
        checked_model(str(path))
    return [ln for ln in str(e.value).splitlines() if ln.strip()]


def test_a_before_block_in_a_predator_rule_is_one_located_error(tmp_path):
    """Neighbours of predators and state are allowed now (tests/test_mover_rules.py); `before` is not."""
    path = predator_spec(tmp_path, "lab_bad", STALK.replace("    each: |\n", "    before: |\n      vx += 1\n    each: |\n", 1),
                         "stalk")
    lines = _load_issues(path)
    assert len(lines) == 1, lines
    assert "a predator's own rule may read only" in lines[0], lines[0]
    assert "rule 'stalk' reads a before block" in lines[0] and "lab_bad.yaml:" in lines[0], lines[0]
    assert "predators.speed.rule" in lines[0], lines[0]


def test_unknown_neighbours_is_one_located_error(tmp_path):
    path = predator_spec(tmp_path, "lab_bad2", STALK.replace("of: boids", "of: flock"), "stalk")
    lines = _load_issues(path)
    assert len(lines) == 1, lines
    assert "lab_bad2.yaml:" in lines[0] and "rule_defs.stalk.neighbours.of: Input should be 'boids'" in lines[0], lines


def test_the_range_gate_bounds_the_sum_over_the_whole_flock(tmp_path):
    """A predator visits every boid (capacity 100, not 99): 100 x 4 x 200 px
    = 80,000 overflows s16.15 where the sum is read as fixed."""
    big = CENTRE.replace("sx -= dx\n", "sx -= dx * 4\n").replace("vx += sx / count * pull", "vx += sx * pull")
    lines = _load_issues(predator_spec(tmp_path, "lab_big", big, "centre"))
    hits = [ln for ln in lines if "rule 'predators: centre'" in ln]
    assert len(hits) == 1, lines
    assert "`sx`" in hits[0] and "can reach -80,000..80,000" in hits[0], hits[0]


def _frames(trace: str) -> list[str]:
    return [ln for ln in trace.splitlines() if not ln.startswith(("# spec", "# spec_hash"))]


@pytest.mark.parametrize("mode, defs, rule", [("nearest", STALK, "stalk"), ("centroid", CENTRE, "centre")])
def test_the_builtin_hunt_is_such_a_rule(tmp_path, mode, defs, rule):
    """predators.hunt (hunt, then edges) and its rule as predators.speed
    (edges, then the rule) give the same trace: the velocity's additions wrap,
    so their order does not change the bits; the offset -dx is other - self."""
    as_rule = predator_spec(tmp_path, f"lab_{rule}", defs, rule)
    text = as_rule.read_text(encoding="utf-8").replace(
        f"speed: {{rule: {rule}, range: stalk_range, pull: stalk_pull}}",
        f"hunt: {{range: stalk_range, factor: stalk_pull, mode: {mode}}}", 1)
    built_in = as_rule.with_name(f"lab_{rule}_hunt.yaml")
    built_in.write_text(text.replace(f"name: lab_{rule}", f"name: lab_{rule}_hunt", 1), encoding="utf-8")
    traces = []
    for path in (as_rule, built_in):
        m, _, model = prepare(str(path))
        traces.append(_frames(simulator_trace(model, 300, m.spec.seed, None, ())))
    assert "hunt:" in built_in.read_text() and "speed: {rule:" not in built_in.read_text()
    assert traces[0] == traces[1]
    off = prepare(str(as_rule))[2]
    assert _frames(simulator_trace(off, 300, 1, None, [("stalk_pull", "0")])) != traces[0]


def test_a_zone_rule_is_refused_for_predators(tmp_path):
    """cohesion joins the boids' protected/visual chain, which a predator has not."""
    path = predator_spec(tmp_path, "lab_zone", STALK, "stalk")
    path.write_text(path.read_text().replace("speed: {rule: stalk, range: stalk_range, pull: stalk_pull}",
                                             "speed: {rule: cohesion, range: stalk_range, factor: stalk_pull}"))
    lines = _load_issues(path)
    assert len(lines) == 1 and "rule 'cohesion' reads neighbours in a zone" in lines[0], lines


def test_index_in_each_is_refused_for_predators(tmp_path):
    """`index` is the boid's; a predator's loop over the boids has none to give."""
    path = predator_spec(tmp_path, "lab_index", STALK.replace("tx += -dx\n", "tx += -dx * index\n"), "stalk")
    lines = _load_issues(path)
    assert len(lines) == 1 and "rule 'stalk' reads index; a predator's own rule" in lines[0], lines


def test_food_without_a_food_section_is_one_located_error(tmp_path):
    lines = _load_issues(predator_spec(tmp_path, "lab_nofood", GRAZE, "graze"))
    assert len(lines) == 1 and "rule 'graze' needs a 'food:' section in the spec" in lines[0], lines
    assert "predators.speed.rule" in lines[0], lines
