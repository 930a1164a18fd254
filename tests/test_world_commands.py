"""Serial commands for the world's run-time state (obstacles, target), on the
host firmware of the specs that declare them: replies, capacity errors, and
nothing changed by a rejected command."""
from __future__ import annotations

import subprocess

import pytest

from codegen.commands.parity import prepare

from .stamps import unstamp
from .conftest import ROOT, require_tool


def talk(exe, lines):
    res = subprocess.run([str(exe)], input="".join(l + "\n" for l in lines).encode(), capture_output=True,
                         timeout=30)
    assert res.returncode == 0, res.stderr
    return [unstamp(l) for l in res.stdout.decode().splitlines()]


@pytest.fixture(scope="module")
def obstacles_exe():
    require_tool("gcc")
    return prepare(str(ROOT / "spec" / "obstacles.yaml"))[1]


@pytest.fixture(scope="module")
def target_exe():
    require_tool("gcc")
    return prepare(str(ROOT / "spec" / "vector_forces.yaml"))[1]


def test_obstacle_list_add_remove_clear(obstacles_exe):
    out = talk(obstacles_exe, ["obstacle list", "obstacle add 100 50.5 12", "obstacle list", "obstacle remove 0",
                               "obstacle list", "obstacle clear", "obstacle list"])
    assert out[:3] == ["obstacle 0 x=200 y=160 r=30", "obstacle 1 x=440 y=320 r=45", "ok obstacles=2"]
    assert out[3] == "ok obstacle=2"
    assert out[4:8] == ["obstacle 0 x=200 y=160 r=30", "obstacle 1 x=440 y=320 r=45",
                        "obstacle 2 x=100 y=50.5 r=12", "ok obstacles=3"]
    assert out[8] == "ok obstacles=2"
    assert out[9:12] == ["obstacle 0 x=440 y=320 r=45", "obstacle 1 x=100 y=50.5 r=12", "ok obstacles=2"]
    assert out[12:] == ["ok obstacles=0", "ok obstacles=0"]


def test_obstacle_capacity_and_bad_input_change_nothing(obstacles_exe):
    adds = [f"obstacle add {10 * i} 10 5" for i in range(6)]  # 2 initial + 6 = capacity 8
    out = talk(obstacles_exe, adds + ["obstacle add 1 1 1", "obstacle add x 1 1", "obstacle add 1 1 0",
                                      "obstacle remove 8", "obstacle remove -1", "obstacle frob", "obstacle list"])
    assert out[:6] == [f"ok obstacle={k}" for k in range(2, 8)]
    assert out[6] == "err obstacle: all places in use (capacity 8)"
    assert out[7] == "err obstacle: X Y R must be decimal numbers"
    assert out[8] == "err obstacle: R must be above 0"
    assert out[9] == out[10] == "err obstacle: no such obstacle (try: obstacle list)"
    assert out[11].startswith("err usage: obstacle add X Y R")
    assert out[-1] == "ok obstacles=8" and len(out) == 12 + 9


def test_target(target_exe):
    out = talk(target_exe, ["target", "target 100 200.25", "target off", "target on", "target 1", "target a b"])
    assert out == ["ok target x=320 y=240 on=0", "ok target x=100 y=200.25 on=1", "ok target x=100 y=200.25 on=0",
                   "ok target x=100 y=200.25 on=1", "err usage: target X Y | target on | target off | target",
                   "err target: X Y must be decimal numbers"]


def test_world_commands_absent_from_the_default_spec(default_build):
    out = talk(default_build[1], ["obstacle list", "target 1 2"])
    assert out == ["err unknown command 'obstacle' (try: help)", "err unknown command 'target' (try: help)"]


def test_predator_count_is_a_parameter(default_build):
    exe = prepare(str(ROOT / "spec" / "lab_tft_predator.yaml"))[1]
    out = talk(exe, ["set predator_count 3", "set predator_count 5"])
    assert out == ["ok predator_count=3 raw=3", "err predator_count: 5 outside [0, 4]"]
