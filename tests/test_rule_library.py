"""Each rule of the library in the float simulator against a case computed
by hand from its seed's description (one boid, or two, so the arithmetic can
be followed on paper). Parity with the C is tested in test_specs_parity.py."""
from __future__ import annotations

import math

import numpy as np
import pytest

from pysim.engine import Simulation
from pysim.model_support import load_model

from .conftest import ROOT


def model(name):
    return load_model(ROOT / "generated" / name / "python" / "boids_model.py")


def sim_of(name, boids, order=None, **sets):
    s = Simulation(model(name), "float", order=order, boids=0)
    for k, v in sets.items():
        s.params.set(k, str(v))
    s.reset(boids=0)
    s.load_state(*zip(*boids))
    return s


def boid(s, i=0):
    return (float(s.x[i]), float(s.y[i]), float(s.vx[i]), float(s.vy[i]))


def close(a, b, tol=1e-9):
    assert all(math.isclose(u, v, rel_tol=tol, abs_tol=tol) for u, v in zip(a, b)), (a, b)


def scaled(vx, vy, to):
    s = math.hypot(vx, vy)
    return vx / s * to, vy / s * to


# ---- seed 000 / 002: predators ----

def test_predator_avoidance_sign_rule():
    s = sim_of("lab_tft_predator", [(100, 100, 2, 0)])
    s.W.px, s.W.py, s.W.pvx, s.W.pvy = (np.array([v]) for v in (120.0, 110.0, 2.0, 0.0))
    s.step()
    # offsets (100-120, 100-110) < 0 on both axes: vx -= 0.4, vy -= 0.4 -> (1.6, -0.4),
    # speed 1.649 < 2: rescaled to 2
    vx, vy = scaled(1.6, -0.4, 2)
    close(boid(s), (100 + vx, 100 + vy, vx, vy))


def test_predator_out_of_range_is_ignored():
    s = sim_of("lab_tft_predator", [(100, 100, 2, 0)])
    s.W.px, s.W.py, s.W.pvx, s.W.pvy = (np.array([v]) for v in (160.0, 100.0, 2.0, 0.0))  # 60 px > 50
    s.step()
    close(boid(s), (102, 100, 2, 0))


# ---- seed 001: scouts ----

def test_scout_bias_static():
    # boid 0 is in group 1 (right), boid 10 in group 2 (left); b = 0.001
    boids = [(150 + 35 * i, 150 + 20 * (i % 5), 4, 0) for i in range(11)]
    s = sim_of("scouts_vga", boids, visual_range=1, protected_range=0)
    s.step()
    close(boid(s, 0)[2:], ((1 - 0.001) * 4 + 0.001, 0))
    close(boid(s, 10)[2:], ((1 - 0.001) * 4 - 0.001, 0))
    close(boid(s, 5)[2:], ((1 - 0.001) * 4 + 0.001, 0))  # boid 5 is in group 1 too


def test_scout_bias_dynamic_starts_from_the_groups_biasval():
    """Seed 001: "default biasval: 0.001 (user-changeable, or updated
    dynamically)": a scout's dynamic bias starts from its group's biasval
    (at spawn and for boids added later), then moves by the increment."""
    boids = [(150 + 35 * i, 200, 4, 0) for i in range(11)]
    s = sim_of("scouts_vga", boids, visual_range=1, protected_range=0, dynamic_bias=1, bias2=0.002)
    assert list(s.b["bias"][[0, 9, 10]]) == pytest.approx([0.001, 0.001, 0.002])
    s.step()
    b1 = 0.001 + 0.00004  # group 1 heading its way (right): b = min(max_bias, biasval + inc)
    close(boid(s, 0)[2:], ((1 - b1) * 4 + b1, 0))
    b2 = 0.002 - 0.00004  # group 2 heading right (the wrong way): b = max(inc, biasval - inc)
    close(boid(s, 10)[2:], ((1 - b2) * 4 - b2, 0))
    assert s.b["bias"][0] == pytest.approx(b1) and s.b["bias"][10] == pytest.approx(b2)
    s.set_count(10)
    s.add_boid(300, 300, 4, 0)  # boid 10 again, in group 2
    assert s.b["bias"][10] == pytest.approx(0.002)


# ---- seed 003: vector forces ----

def test_separation_force():
    s = sim_of("vector_forces", [(300, 240, 0, 0), (310, 240, 0, 0)], alignment_weight=0, cohesion_weight=0)
    s.step()
    # unit(self - other) / d = (-1, 0) / 10, mean over one neighbour, weight 1
    close(boid(s), (300, 240, -0.1, 0))  # seed 003 moves by the velocity the frame started with (0)


def test_alignment_force_is_limited():
    s = sim_of("vector_forces", [(300, 240, 1, 0), (350, 240, 0, 2)], separation_weight=0, cohesion_weight=0)
    s.step()
    # mean(v_other) = (0, 2), limited to max_force 0.03
    close(boid(s)[2:], (1, 0.03))


def test_cohesion_force_is_limited():
    s = sim_of("vector_forces", [(300, 240, 1, 0), (350, 240, 1, 0)], separation_weight=0, alignment_weight=0)
    s.step()
    close(boid(s)[2:], (1.03, 0))  # mean offset (50, 0) limited to 0.03


def test_speed_cap_and_multiplier():
    s = sim_of("vector_forces", [(300, 240, 4, 3)], speed_multiplier=0.5)
    s.step()
    close(boid(s)[2:], (4 / 5 * 3 * 0.5, 3 / 5 * 3 * 0.5))


def test_target_seek():
    s = sim_of("vector_forces", [(300, 240, 1, 0)])
    s.set_target(400.0, 300.0)
    s.step()
    close(boid(s)[2:], (1 + 100 * 0.002, 60 * 0.002))
    s.set_target(400.0, 300.0, on=False)
    s.step()
    close(boid(s)[2:], (1.2, 0.12))  # no pull while off


def test_seed_003_moves_by_the_previous_velocity():
    """Seed 003: the new velocity is computed, then `position = self.position
    + self.velocity` with the velocity of before (vector_forces: move_by:
    previous_velocity); every other spec moves by the new one."""
    s = sim_of("vector_forces", [(300, 240, 1, 0)])
    s.set_target(400.0, 300.0)
    s.step()
    close(boid(s), (301, 240, 1.2, 0.12))
    s.step()
    close(boid(s)[:2], (302.2, 240.12))
    t = sim_of("boids", [(10, 100, 2.5, 0)])  # in the left margin: the edge turns it, then it moves
    t.step()
    assert float(t.vx[0]) != 2.5 and float(t.x[0]) == pytest.approx(10 + float(t.vx[0]))


# ---- seed 004 ----

ISOLATE = dict(alignment_weight=0, cohesion_weight=0, regulation=0, predator_count=0)


def test_separation_inverse():
    s = sim_of("obstacles", [(300, 240, 0, 0), (310, 240, 0, 0)], **ISOLATE)
    s.step()
    close(boid(s)[2:], (-1.5 / 11, 0))  # unit (-1, 0) / (1 + 10), weight 1.5


def test_alignment_unit():
    s = sim_of("obstacles", [(300, 240, 1, 0), (340, 240, 0, 2)], **dict(ISOLATE, alignment_weight=0.3))
    s.step()
    close(boid(s)[2:], (1, 0.3))  # unit(mean v) = (0, 1), weight 0.3


def test_cohesion_radius():
    s = sim_of("obstacles", [(300, 240, 1, 0), (340, 240, 1, 0)], **dict(ISOLATE, cohesion_weight=0.01))
    s.step()
    close(boid(s)[2:], (1 + 40 * 0.01, 0))


def test_obstacle_avoidance_head_on():
    # heading straight down at the obstacle (200, 160, r 30) from (200, 110):
    # surface 20 px away; push (0, -1)/21; v is along u so the steer takes the
    # left normal (1, 0)/21; weight 4
    s = sim_of("obstacles", [(200, 110, 0, 2)], **ISOLATE)
    s.step()
    close(boid(s)[2:], (4 / 21, 2 - 4 / 21))


def test_obstacle_avoidance_passing_by_steers_sideways():
    # heading down-right past the obstacle's left side: the steer is the part of
    # v normal to u, normalised
    s = sim_of("obstacles", [(180, 110, 1, 2)], **ISOLATE)
    s.step()
    ex, ey = 180 - 200, 110 - 160
    dc = math.hypot(ex, ey)
    ux, uy = ex / dc, ey / dc
    sc = 1 / (1 + dc - 30)
    dot = 1 * ux + 2 * uy
    px, py = 1 - dot * ux, 2 - dot * uy
    pm = math.hypot(px, py)
    close(boid(s)[2:], (1 + 4 * (ux * sc + px / pm * sc), 2 + 4 * (uy * sc + py / pm * sc)))


def test_runtime_obstacles():
    s = sim_of("obstacles", [(300, 240, 2, 0)], **ISOLATE)
    s.clear_obstacles()
    s.add_obstacle(320.0, 240.0, 10.0)  # 10 px ahead of the surface
    s.step()
    # push (-1, 0)/11; dot = -2 < 0 with v along -u: left normal of u=(-1,0) is (0, -1)
    close(boid(s)[2:], (2 - 4 / 11, -4 / 11))


def test_predator_flee():
    s = sim_of("obstacles", [(300, 240, 1, 0)], **dict(ISOLATE, predator_count=1))
    s.W.px, s.W.py, s.W.pvx, s.W.pvy = (np.array([v]) for v in (330.0, 240.0, 2.0, 0.0))
    s.step()
    close(boid(s)[2:], (1 - 8 / 31, 0))  # unit (-1, 0) / (1 + 30), weight 8


def test_speed_regulation():
    s = sim_of("obstacles", [(300, 240, 3, 4)], **dict(ISOLATE, regulation=0.7))
    s.step()
    target = 5 - 0.7 * (5 - 2.5)
    close(boid(s)[2:], (0.6 * target, 0.8 * target))


# ---- the lab's extensions ----

EXT = dict(predator_count=0, food_count=0, gravity=0)


def test_gravity():
    s = sim_of("extensions", [(160, 120, 2, 0)], **dict(EXT, gravity=0.02))
    s.step()
    vx, vy = 2, 0.02  # speed 2.0001 inside [2, 3]
    close(boid(s), (160 + vx, 120 + vy, vx, vy))


def test_food_tracking():
    s = sim_of("extensions", [(160, 120, 2, 0)], **dict(EXT, food_count=1, food_speed=0))
    s.W.fx, s.W.fy, s.W.fvx, s.W.fvy = (np.array([v]) for v in (200.0, 120.0, 0.0, 0.0))
    s.step()
    close(boid(s)[2:], (2 + 40 * 0.002, 0))


def test_food_bounces():
    s = sim_of("extensions", [(100, 100, 2, 0)], **dict(EXT, food_count=1))
    s.W.fx, s.W.fy, s.W.fvx, s.W.fvy = (np.array([v]) for v in (319.8, 100.0, 0.5, 0.0))
    s.step()
    assert (float(s.W.fx[0]), float(s.W.fvx[0])) == pytest.approx((319.3, -0.5))


def test_perching_lands_rests_and_takes_off():
    s = sim_of("extensions", [(160, 199, 0, 2.5)], **EXT)
    s.step()
    close(boid(s), (160, 200, 0, 1))  # landed exactly on the ledge
    assert s.b["perch"][0] == 60
    for _ in range(59):  # frames 2..60: resting
        s.step()
        close(boid(s), (160, 200, 0, 0))
    s.step()  # frame 61: takes off straight up at takeoff speed 2, then the rules run:
    # y = 200 is inside the bottom margin (240 - 50), so edges add -0.2
    close(boid(s), (160, 197.8, 0, -2.2))


def test_hunting_predator_turns_toward_nearest_boid():
    s = sim_of("extensions", [(130, 100, 0, 2), (100, 150, 0, 2)], **dict(EXT, predator_count=1, predator_range=0))
    s.W.px, s.W.py, s.W.pvx, s.W.pvy = (np.array([v]) for v in (100.0, 100.0, 2.0, 0.0))
    s.step()
    # the predator moves after the boids: the nearest boid is now at (130, 102);
    # v += (30, 2) * 0.02 = (2.6, 0.04), speed above 2.5: rescaled to 2.5
    vx, vy = scaled(2.6, 0.04, 2.5)
    close((float(s.W.pvx[0]), float(s.W.pvy[0])), (vx, vy))


def test_alpha_max_beta_min_in_fixed_point():
    m = model("combo_scouts_predators_obstacles")
    s = Simulation(m, "fixed", boids=0)
    one = 1 << m.FRAC_BITS
    got = int(s.A.mag(4 * one, -3 * one))
    want = (m.AMB_ALPHA_RAW * 4 * one >> m.FRAC_BITS) + (m.AMB_BETA_RAW * 3 * one >> m.FRAC_BITS)
    assert got == want and abs(got / one - 5) < 5 * 0.04
