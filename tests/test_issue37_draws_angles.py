"""random(), random_int(a, b), sin, cos, atan2 (turns), unit and rotate in
rules (issue 37), spec-level: the issue's `jitter` exactly as written and
`steer` (every new function) in copies of spec/lab_tft_predator.yaml,
firmware against simulator bit for bit in both update orders, with the grid
(the C visits bands, not index order: the draws are drawn ahead, in index
order), in s15.16; the PRNG's trace row catches a draw too many; the draws
are exactly (boids x draws) a frame, in index order; bad calls are
one-line located errors."""
from __future__ import annotations

import subprocess

import pytest

from codegen.commands.parity import firmware_trace, prepare, run_parity, simulator_trace
from pysim.rng import Rng
from pysim.trace import compare

from .conftest import require_tool
from .deadline import RUN
from .issue37_rules import JITTER, STEER, spec
from .test_rule_lang import bad_rule

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: parity of a spec per rule

JITTER_RULE = "  - {rule: jitter, amount: jitter}\n"
STEER_RULE = "  - {rule: steer, limit: turn_max, odds: wander_odds}\n"


@pytest.fixture(scope="module")
def specs(tmp_path_factory):
    require_tool("gcc")
    require_tool("make")
    root = tmp_path_factory.mktemp("issue37")
    return {
        "jitter": spec(root, "lab_jitter", JITTER_RULE, JITTER),
        "steer": spec(root, "lab_steer", JITTER_RULE + STEER_RULE, JITTER + STEER),
        "grid": spec(root, "lab_jitter_grid", JITTER_RULE + STEER_RULE, JITTER + STEER,
                     {"update_order": "update_order: synchronous", "flock": "flock: {size: 300, capacity: 300}",
                      "performance": "performance: {grid: true}"}),
    }


@pytest.mark.parametrize("order", ["sequential", "synchronous"])
def test_jitter_as_the_issue_writes_it(specs, order):
    res = run_parity(str(specs["jitter"]), frames=2000, order=order)
    assert res.ok, res.summary
    assert "2000 frames x 100 boids bit-exact" in res.summary, res.summary


@pytest.mark.parametrize("order", ["sequential", "synchronous"])
@pytest.mark.parametrize("fmt", [None, "s15.16"])
def test_steer_every_function(specs, order, fmt):
    frames = 2000 if fmt is None else 500
    res = run_parity(str(specs["steer"]), frames=frames, order=order, fmt=fmt)
    assert res.ok, res.summary


def test_grid_draws_in_index_order(specs):
    """The C's grid updates boids band by band; at 300 boids the simulator's
    own grid runs too (engine.GRID_FROM): the same draws reach the same boids."""
    res = run_parity(str(specs["grid"]), frames=400)
    assert res.ok, res.summary
    assert "300 boids" in res.summary and "synchronous" in res.summary
    src = (specs["grid"].parent.parent / "generated" / "lab_jitter_grid" / "firmware" / "boids_flock.c").read_text()
    assert "boids_draws[d] = rng_next(r)" in src and "boids_draws[i * 5 + 0]" in src


def test_the_board_firmware_builds_for_the_m4k(specs):
    """The grid's draws array and every new fixed.h function link into the
    PIC32 firmware (mipsel gcc -march=m4k, -Werror, no libgcc: a variable
    64-bit shift would need __ashrdi3) and fit its RAM."""
    require_tool("mipsel-linux-gnu-gcc")
    run_parity(str(specs["grid"]), frames=1)  # generates the folder
    folder = specs["grid"].parent.parent / "generated" / "lab_jitter_grid" / "firmware"
    res = subprocess.run(["make", "m4k-check"], cwd=folder, capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "m4k-check: flash" in res.stdout and "at capacity 300" in res.stdout


def test_the_draws_are_boids_times_calls_a_frame(specs):
    """jitter draws 2 a boid a frame, steer 3 (random_int in before; random_int and
    random in apply), every one at the boid's turn whether reached or not:
    the PRNG row advances by exactly 100 x 5 draws a frame (no predators spawn after frame 0)."""
    m, exe, model = prepare(str(specs["steer"]))
    rows = [ln for ln in firmware_trace(exe, 3, 5, 100, []).splitlines() if ",0,rng," in ln]
    states = [int(r.rsplit(",", 1)[1]) for r in rows]
    for a, b in zip(states[1:], states[2:]):
        r = Rng(a)
        for _ in range(100 * 5):
            r.next()
        assert r.s == b


def test_the_prng_row_catches_a_drift(specs):
    """With amount 0 jitter moves nothing, but it still draws: its boids are
    lab_tft_predator's, and only the trace's rng row tells the two apart."""
    m, exe, model = prepare(str(specs["jitter"]))
    c = firmware_trace(exe, 5, 3, 30, [("jitter", "0")])
    from .conftest import ROOT

    _, plain_exe, _ = prepare(str(ROOT / "spec" / "lab_tft_predator.yaml"))
    p = firmware_trace(plain_exe, 5, 3, 30, [])
    strip = lambda t: [ln for ln in t.splitlines() if not ln.startswith("#") and ",rng," not in ln]  # noqa: E731
    assert strip(c) == strip(p)  # the same flock
    rows = lambda t: [ln for ln in t.splitlines() if not ln.startswith("#")]  # noqa: E731
    differ = [(x, y) for x, y in zip(rows(c), rows(p)) if x != y]
    assert differ and all(",0,rng," in x and ",0,rng," in y for x, y in differ)
    # and parity's compare sees a draw too many in the simulator's trace of the same spec
    sim = simulator_trace(model, 5, 3, 30, [("jitter", "0")]).splitlines()
    assert compare(c.splitlines(), sim) is None
    k = next(i for i, ln in enumerate(sim) if ln.startswith("3,0,rng,"))
    sim[k] = f"3,0,rng,{Rng(int(sim[k].rsplit(',', 1)[1])).next()}"
    diff = compare(c.splitlines(), sim)
    assert diff is not None and "rng" in str(diff), diff


BAD = [
    ("random with an argument", "vx += random(3)", 9, 13, "random() takes 0 arguments, got 1"),
    ("atan2 of one", "vx = atan2(k)", 9, 12, "atan2() takes 2 arguments, got 1"),
    ("sin of an int", "vx = sin(n)", 9, 16, "sin() takes fixed values, got int"),
    ("random_int of fixed", "j = random_int(k, 3)", 9, 22, "random_int() takes int bounds, got fixed"),
    ("unit as a value", "vx = unit(vx, vy)", 9, 12, "unit() gives two values: write `ux, uy = unit(x, y)`"),
    ("rotate of two", "vx, vy = rotate(vx, vy)", 9, 16, "rotate() takes 3 arguments, got 2"),
    ("two names from sin", "vx, vy = sin(k)", 9, 7, "one name per assignment (two only from a function of two"),
    ("rotate of an int", "vx, vy = rotate(vx, vy, n)", 9, 31, "rotate() takes fixed values, got int"),
    ("unit into a role", "k, vy = unit(vx, vy)", 9, 7, "'k' is a role of this rule"),
    ("three names from unit", "a, b, c = unit(vx, vy)", 9, 7, "unit() gives two values: assign two names"),
]


@pytest.mark.parametrize("apply, line, col, reason", [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_call_is_one_located_error(tmp_path, apply, line, col, reason):
    issues = bad_rule(tmp_path, apply=apply)
    assert len(issues) == 1, [str(i) for i in issues]
    (first,) = issues
    assert (first.line, first.col) == (line, col), str(first)
    assert reason in first.reason, str(first)
    assert "\n" not in str(first)


def test_no_draw_in_the_pair_loop(tmp_path):
    issues = bad_rule(tmp_path, each="s += dx * random()")
    assert len(issues) == 1 and (issues[0].line, issues[0].col) == (7, 17), str(issues[0])
    assert "allowed in before and apply, not in each (the pair loop)" in issues[0].reason


def test_ranges_know_the_new_functions(tmp_path):
    """random() in [0, 1), random_int(a, b) in [a, b], sin/cos/unit in [-1, 1],
    atan2 in [-1/2, 1/2]: a product by 60,000 fits s16.15 only with those bounds."""
    from codegen.analysis.intervals import TRANSFER, Fx, Iv

    fx = Fx(15)
    big = Iv(-(2**31), 2**31 - 1)
    assert TRANSFER["random"](fx, Iv(0, 2**32 - 1)) == Iv(0, 32767)
    assert TRANSFER["random_int"](fx, Iv(0, 2**32 - 1), Iv(-3, -3), Iv(9, 9)) == Iv(-3, 9)
    for op in ("sin", "cos"):
        assert TRANSFER[op](fx, big) == Iv(-32768, 32768)
    assert TRANSFER["atan2"](fx, big, big) == Iv(-16384, 16384)
    assert TRANSFER["unit_x"](fx, big, big) == Iv(-32768, 32768)
    assert TRANSFER["rotate_x"](fx, Iv(-10, 5), Iv(-3, 7), big) == Iv(-19, 19)


def test_a_predators_own_rule_may_not_draw(tmp_path):
    """predators.speed runs once a predator inside predators_step, outside the
    boids' draws: a rule that draws is refused there, at the binding."""
    from codegen.output.pipeline import load

    path = spec(tmp_path, "lab_pred_draw", JITTER_RULE, JITTER)
    path.write_text(path.read_text().replace("predators: {capacity: 4,",
                                             "predators: {speed: {rule: jitter, amount: jitter}, capacity: 4,", 1))
    with pytest.raises(Exception) as e:
        load(str(path))
    assert "rule 'jitter' reads random draws; a predator's own rule may read only" in str(e.value)
