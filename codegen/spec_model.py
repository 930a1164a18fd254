"""The spec's shape, as Pydantic v2 models: structure and types only.

Cross-field meaning (a rule naming a missing parameter, min > max, ...) is
checked in spec_checks.py, which can name the exact YAML node at fault.
`boidsgen schema` prints the JSON Schema of `Spec`.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

Name = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
Number = Union[int, float]


class Strict(BaseModel):
    # strict: a quoted "20" is a string, not a number; YAML already typed it
    model_config = ConfigDict(extra="forbid", strict=True)


class Display(Strict):
    width: int = Field(320, gt=0, le=4096, description="pixels")
    height: int = Field(240, gt=0, le=4096, description="pixels")


class FixedPoint(Strict):
    format: Literal["s16.15", "s15.16"] = Field(
        "s16.15",
        description="sIII.FF in a 32-bit int: s16.15 is XC32's _Accum and the RP2040's fix15",
    )


class Flock(Strict):
    size: int = Field(100, ge=0, description="boids spawned at reset")
    capacity: int = Field(100, ge=1, le=65535, description="compile-time array size (max boids)")
    spawn_per_second: int = Field(
        0, ge=0, description="boids the timing thread adds each second up to size (0: all at reset)"
    )


class Spawn(Strict):
    """Where new boids appear and how fast they fly: parameter names."""

    left: Name = Field(description="spawn x >= this parameter")
    right: Name = Field(description="spawn x < width - this parameter")
    top: Name = Field(description="spawn y >= this parameter")
    bottom: Name = Field(description="spawn y < height - this parameter")
    min_speed: Name
    max_speed: Name


class Param(Strict):
    default: Number
    min: Number
    max: Number
    type: Literal["fixed", "int"] = "fixed"
    unit: str = ""
    description: str = ""
    tunable: bool = Field(True, description="settable at run time over the serial link")
    id: int | None = Field(None, ge=0, le=255, description="slider id for the course's `s ID VALUE` form")


class Serial(Strict):
    baud: int = Field(115200, gt=0)
    line_max: int = Field(64, ge=16, le=255, description="longest command line accepted")


# ---- rules: one model per rule; `rule` names it. The fields are parameter
# ---- names; the catalog (codegen/rules/catalog.py) says what each one means.


class Separation(Strict):
    rule: Literal["separation"]
    range: Name
    factor: Name


class Alignment(Strict):
    rule: Literal["alignment"]
    range: Name
    factor: Name


class Cohesion(Strict):
    rule: Literal["cohesion"]
    range: Name
    factor: Name


class Edges(Strict):
    rule: Literal["edges"]
    left: Name
    right: Name
    top: Name
    bottom: Name
    factor: Name


class SpeedLimit(Strict):
    rule: Literal["speed_limit"]
    min: Name
    max: Name


Rule = Annotated[
    Union[Separation, Alignment, Cohesion, Edges, SpeedLimit],
    Field(discriminator="rule"),
]


class Spec(Strict):
    name: Name
    description: str = ""
    display: Display = Display()
    fixed_point: FixedPoint = FixedPoint()
    frame_rate: int = Field(30, ge=1, le=1000)
    flock: Flock = Flock()
    seed: int = Field(1, ge=0, le=0xFFFFFFFF)
    update_order: Literal["sequential", "synchronous"] = "sequential"
    params: dict[Name, Param]
    spawn: Spawn
    rules: list[Rule] = Field(min_length=1)
    serial: Serial = Serial()
