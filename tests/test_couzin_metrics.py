"""Issue 37: the measures of Couzin et al. 2005's experiments
(pysim/experiments/metrics.py). The experiment file's `preferred:` key,
misused, is one located error: tests/hostile/experiments/preferred__*.yaml."""
from __future__ import annotations

import pytest

from pysim.experiments import metrics as M

from .conftest import ROOT


def test_direction_is_the_centroids_displacement_in_turns():
    assert M.direction([0, 5, 10], [0, 0, 0]) == 0.0
    assert M.direction([0, 0], [0, 3]) == pytest.approx(0.25)  # +y, as the rules' atan2
    assert M.direction([0, -1], [0, 0]) == pytest.approx(0.5)
    assert M.direction([1], [1]) == 0.0  # one sample: no displacement


def test_accuracy_is_one_minus_the_angle_from_g_over_pi():
    assert M.accuracy(0.0, 0.0) == 1.0
    assert M.accuracy(0.25, 0.0) == pytest.approx(0.5)
    assert M.accuracy(0.5, 0.0) == pytest.approx(0.0)
    assert M.accuracy(-0.45, 0.45) == pytest.approx(0.8)  # the short way round, across +/-1/2


def test_chose_tells_averaging_from_choosing():
    # preferred 0 and 0.25 (90 degrees): the bisector is 0.125
    assert M.chose(0.125, 0.0, 0.25) == 0
    assert M.chose(0.10, 0.0, 0.25) == 0   # 0.025 from the bisector: within a quarter of 0.25
    assert M.chose(0.01, 0.0, 0.25) == 1   # near g1
    assert M.chose(0.24, 0.0, 0.25) == 1   # near g2
    assert M.chose(0.3, 0.0, 0.0) == 0     # one direction: nothing to choose
    # 0.45 and -0.45 are 0.1 apart across +/-1/2: their bisector is 1/2, not 0
    assert M.bisector(0.45, -0.45) % 1.0 == pytest.approx(0.5)
    assert M.chose(0.5, 0.45, -0.45) == 0 and M.chose(0.45, 0.45, -0.45) == 1


def test_toward_majority_follows_the_larger_group():
    assert M.toward_majority(0.01, 0.0, 0.3, 6, 4) == 1
    assert M.toward_majority(0.29, 0.0, 0.3, 6, 4) == 0
    assert M.toward_majority(0.29, 0.0, 0.3, 4, 6) == 1
    assert M.toward_majority(0.01, 0.0, 0.3, 5, 5) == 1  # a tie counts for group 1: chance 1/2


def test_side_gap_is_the_nearest_boids_distance_to_a_side():
    import numpy as np

    assert M.side_gap(np.array([50.0, 900.0]), np.array([300.0, 200.0]), 1000, 400) == 50.0
    assert M.side_gap(np.array([500.0]), np.array([390.0]), 1000, 400) == 10.0


def test_the_committed_couzin_experiments_name_their_preferred_directions():
    from codegen.experiments.file import NEED_PREFERRED, load_experiment

    for name in ("couzin_group_size", "couzin_two_groups", "couzin_majority"):
        exp = load_experiment(ROOT / "experiments" / f"{name}.yaml").exp
        need = max(NEED_PREFERRED.get(m, 0) for m in exp.metrics)
        assert need >= 1 and len(exp.preferred) >= need, name
