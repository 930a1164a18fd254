"""What each rule is: its spec model, its parameter roles, its zone and what
else it needs.

Zones are tested once per pair in the generated neighbour loop:
  protected  squared distance < range^2                 (seed 000)
  visual     outside protected, squared distance < range^2 (seed 000's else-if)
  radius     0 < distance, squared distance < range^2   (force rules; one zone per range)
Rules in the protected or visual zone must share that zone's range parameter.
Rules with zone None only act on the boid itself (or on the spec's entities).
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import spec_model as m


@dataclass(frozen=True)
class RuleDef:
    name: str
    model: type
    zone: str | None
    summary: str
    seed: str
    requires: str | None = None  # a spec section the rule needs (predators, obstacles, ...)
    int_roles: tuple[str, ...] = ()  # roles that name int parameters; the rest are fixed
    state: tuple[tuple[str, str], ...] = ()  # per-boid state it keeps: (name, 'fx' | 'int')
    needs_dist: bool = False  # its pair code uses `dist`, the exact distance
    pre: bool = False  # it has pre-loop code that may skip the boid's update

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(f for f in self.model.model_fields if f != "rule")


_DEFS = (
    RuleDef("separation", m.Separation, "protected", "v += sum(self - other) * factor over the protected zone", "000"),
    RuleDef("alignment", m.Alignment, "visual", "v += (mean(v_other) - v) * factor over the visual zone", "000"),
    RuleDef("cohesion", m.Cohesion, "visual", "v += (mean(p_other) - p) * factor over the visual zone", "000"),
    RuleDef("edges", m.Edges, None, "turn by factor inside a margin of each screen edge", "000"),
    RuleDef("speed_limit", m.SpeedLimit, None, "rescale v into [min, max] speed; zero speed becomes (min, 0)", "000"),
    RuleDef("predator_avoidance", m.PredatorAvoidance, None,
            "turn by factor away from the summed offset of predators in range (sign rule)", "000/002",
            requires="predators"),
    RuleDef("scout_bias", m.ScoutBias, None,
            "vx = (1 - b) vx + b * dir for scout groups; b static or dynamic", "001",
            requires="scouts", int_roles=("dynamic",), state=(("bias", "fx"),)),
    RuleDef("separation_force", m.SeparationForce, "radius",
            "v += weight * mean(unit(self - other) / d) over the radius", "003", needs_dist=True),
    RuleDef("alignment_force", m.AlignmentForce, "radius",
            "v += weight * limit(mean(v_other), max_force) over the radius", "003"),
    RuleDef("cohesion_force", m.CohesionForce, "radius",
            "v += weight * limit(mean(p_other - p), max_force) over the radius", "003"),
    RuleDef("speed_cap", m.SpeedCap, None, "v = limit(v, max) * multiplier", "003"),
    RuleDef("target_seek", m.TargetSeek, None, "v += (target - p) * factor while the target is on", "003",
            requires="target"),
    RuleDef("separation_inverse", m.SeparationInverse, "radius",
            "v += weight * sum(unit(self - other) / (1 + d)) over the radius", "004", needs_dist=True),
    RuleDef("alignment_unit", m.AlignmentUnit, "radius",
            "v += weight * unit(mean(v_other)) over the radius", "004"),
    RuleDef("cohesion_radius", m.CohesionRadius, "radius",
            "v += weight * (mean(p_other) - p) over the radius", "004"),
    RuleDef("obstacle_avoidance", m.ObstacleAvoidance, None,
            "push from each obstacle within range by 1/(1+d), and steer normal to it when it is ahead", "004",
            requires="obstacles"),
    RuleDef("predator_flee", m.PredatorFlee, None,
            "v += weight * sum(unit(self - predator) / (1 + d)) over predators in range", "004",
            requires="predators"),
    RuleDef("speed_regulation", m.SpeedRegulation, None,
            "speed -= rate * (speed - default), direction kept", "004"),
    RuleDef("gravity", m.Gravity, None, "vy += g: dives gain speed, climbs lose it", "000 extension"),
    RuleDef("food_tracking", m.FoodTracking, None, "v += (food - p) * factor toward the nearest food in range",
            "000 extension", requires="food"),
    RuleDef("perching", m.Perching, None,
            "land on the ledge when crossing it from above, rest `time` frames, take off upward", "000 extension",
            requires="ledge", int_roles=("time",), state=(("perch", "int"),), pre=True),
)

CATALOG: dict[str, RuleDef] = {d.name: d for d in _DEFS}
RULE_MODELS = {name: d.model for name, d in CATALOG.items()}

# Entity sections: role -> parameter type.
SECTION_ROLES: dict[str, dict[str, str]] = {
    "predators": {"count": "int", "min_speed": "fixed", "max_speed": "fixed", "turn_factor": "fixed",
                  "left": "fixed", "right": "fixed", "top": "fixed", "bottom": "fixed"},
    "food": {"count": "int", "speed": "fixed"},
    "ledge": {"y": "fixed", "left": "fixed", "right": "fixed"},
    "scouts": {"group1": "int", "group2": "int"},
}
