"""Issue 37: rules for predators and food. `predators: {rules: [...]}` and
`food: {rules: [...]}` run in order on each mover, with neighbours of any
kind (a mover skips itself in its own kind); `predators.hunt` is the
library's hunt_nearest / hunt_centroid, one code path with the same bits as
the separate hunt code it replaced."""
from __future__ import annotations

import hashlib
import io
import shutil
from pathlib import Path

import pytest

from codegen.commands.parity import prepare, run_parity, simulator_trace

from .conftest import ROOT, require_tool

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: parity of a spec per rule

FOOD = ROOT / "spec" / "lab_tft_food.yaml"

# sha256 of the simulator's 2000-frame traces (the `# spec` lines left out) of spec/extensions.yaml and
# of its twin with `mode: centroid`, made by the separate hunt code before it became a library rule
# (`boidsgen sim SPEC --frames 2000 --order O --trace T` on main at 1995d6b)
BEFORE = {("nearest", "sequential"): "baaafa717bf89086b7b3734290f5aba69990b68d40b8738bcf8355aa51f3aae9",
          ("nearest", "synchronous"): "6b8735f414262ac9f571ff0a497a655d1f1a4722a4c324da21dbadb9114c7859",
          ("centroid", "sequential"): "391b9f17a61b10ec9226706d65863872caa0fbdf390c2938fbd6647ddc69f452",
          ("centroid", "synchronous"): "b2ae6fff85fb7bd2dbe7392eb3c07aea2280b44e8bcf7c000d57935790d736b4"}


def _trace(path: Path, frames: int, order: str | None = None, sets=()) -> str:
    from pysim import trace
    from pysim.engine import Simulation

    m, _, model = prepare(str(path))
    sim = Simulation(model, "fixed", seed=m.spec.seed, order=order)
    for k, v in sets:
        sim.params.set(k, v)
    sim.reset(m.spec.seed, None)
    buf = io.StringIO()
    trace.write_run(sim, frames, buf)
    return buf.getvalue()


def _copy(folder: Path, src: Path, name: str, edit=lambda t: t) -> Path:
    text = src.read_text(encoding="utf-8")
    old = text[text.index("\nname: ") + 7:text.index("\n", text.index("\nname: ") + 1)]
    path = folder / "spec" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(edit(text.replace(f"\nname: {old}\n", f"\nname: {name}\n", 1)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    require_tool("gcc")
    require_tool("make")
    root = tmp_path_factory.mktemp("movers")
    (root / "spec").mkdir()
    shutil.copy(FOOD, root / "spec" / FOOD.name)
    return root


@pytest.mark.parametrize("order", ["sequential", "synchronous"])
@pytest.mark.parametrize("mode", ["nearest", "centroid"])
def test_the_hunt_as_a_library_rule_keeps_the_bits_of_before(project, mode, order):
    path = _copy(project, ROOT / "spec" / "extensions.yaml", f"ext_{mode}",
                 lambda t: t.replace("mode: nearest", f"mode: {mode}", 1))
    m = prepare(str(path))[0]
    assert [r.name for r in m.predator_motion][:2] == [f"hunt_{mode}", "edges"]
    frames = "".join(ln + "\n" for ln in _trace(path, 2000, order).splitlines() if not ln.startswith("# spec"))
    assert hashlib.sha256(frames.encode()).hexdigest() == BEFORE[(mode, order)]


def test_the_c_has_no_hunt_of_its_own(project):
    from codegen.output.render import render

    m = prepare(str(_copy(project, ROOT / "spec" / "extensions.yaml", "ext_c")))[0]
    c = render(m)["firmware/boids_flock.c"]
    step = c[c.index("static void predators_step"):]
    step = step[:step.index("\n}\n")]
    assert "hunt_range" in step and "best_d2" not in step and "seen" not in step.replace("n_seen", "")


@pytest.mark.parametrize("order", ["sequential", "synchronous"])
def test_the_food_spec_is_bit_exact(project, order):
    res = run_parity(str(project / "spec" / FOOD.name), frames=2000, order=order)
    assert res.ok, res.summary
    assert "2000 frames x 100 boids bit-exact" in res.summary, res.summary


def _body(trace: str) -> list[str]:
    return [ln for ln in trace.splitlines() if not ln.startswith("#")]


def _rows(trace: str, kind: str) -> list[str]:
    return [ln for ln in trace.splitlines() if ln.split(",")[2:3] == [kind]]


@pytest.mark.parametrize("param, kind", [("flee_push", "food"), ("food_drag", "food"), ("apart_push", "predator"),
                                         ("chase_frames", "predator"), ("panic_frames", "food")])
def test_each_mover_rule_reaches_its_movers(project, param, kind):
    """Turning one mover rule's parameter off changes that kind's rows (the
    state's too: a predator's rest after a chase, a food source's panic)."""
    path = project / "spec" / FOOD.name
    off = {"flee_push": "0", "food_drag": "1", "apart_push": "0", "chase_frames": "10", "panic_frames": "0"}[param]
    on, changed = _trace(path, 300), _trace(path, 300, sets=[(param, off)])
    assert _rows(on, kind) and _rows(on, kind) != _rows(changed, kind)


KICK = """\
  kick:
    description: a mover with another of its kind anywhere is kicked right
    roles: {k: fixed}
    neighbours: {of: food}
    apply: |
      if count > 0:
          vx += k
"""


def test_a_mover_is_not_its_own_neighbour(project):
    """One food source: `count` over the food is 0 (itself skipped), so the
    kick changes nothing; two: it does."""
    def edit(t):
        assert "rules: [{rule: flee_boids," in t
        t = t.replace("rules: [{rule: flee_boids,", "rules: [{rule: kick, k: kick_k}, {rule: flee_boids,", 1)
        t = t.replace("\n  margin: ", "\n  kick_k: {default: 0.5, min: 0, max: 1, id: 40}\n  margin: ", 1)
        return t.replace("\nrule_defs:\n", "\nrule_defs:\n" + KICK, 1)
    path = _copy(project, FOOD, "lab_kick", edit)
    for n, same in (("1", True), ("2", False)):
        kicked, still = (_body(_trace(path, 200, sets=[("food_count", n)] + k)) for k in ([], [("kick_k", "0")]))
        assert (kicked == still) is same, n
    res = run_parity(str(path), frames=500, order="sequential", sets=[("food_count", "1")])
    assert res.ok, res.summary


def test_predators_see_earlier_predators_where_they_moved(project):
    """Predators update in place in index order: the generated C reads
    f->predator[k] as it stands and writes p->x after the rules."""
    m = prepare(str(project / "spec" / FOOD.name))[0]
    from codegen.output.render import render

    c = render(m)["firmware/boids_flock.c"]
    step = c[c.index("static void predators_step"):]
    step = step[:step.index("\n}\n")]
    assert "const mover_t *o = &f->predator[k];" in step and "o != p && d2 < r2" in step
    assert step.index("o != p") < step.index("p->x = fx_add(p->x, vx);")
