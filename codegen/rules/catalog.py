"""What each rule is: its spec model, its parameter roles and its zone.

Zones are the seed's two nested neighbourhoods, tested once per pair in the
generated loop: `protected` (squared distance < range^2) and `visual`
(outside protected, squared distance < range^2). Rules in one zone must share
its range parameter; the pair loop is shared, so its cost is paid once.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import spec_model as m


@dataclass(frozen=True)
class RuleDef:
    name: str
    model: type
    zone: str | None  # 'protected', 'visual' or None (per-boid only)
    summary: str

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(f for f in self.model.model_fields if f != "rule")


CATALOG: dict[str, RuleDef] = {
    d.name: d
    for d in (
        RuleDef("separation", m.Separation, "protected",
                "steer away from boids inside the protected range: v += sum(self - other) * factor"),
        RuleDef("alignment", m.Alignment, "visual",
                "match the mean velocity of visible boids: v += (mean(v_other) - v) * factor"),
        RuleDef("cohesion", m.Cohesion, "visual",
                "steer toward the centre of visible boids: v += (mean(p_other) - p) * factor"),
        RuleDef("edges", m.Edges, None,
                "turn by factor when inside a margin of the screen edge"),
        RuleDef("speed_limit", m.SpeedLimit, None,
                "rescale the velocity into [min, max] speed (zero speed: (min, 0))"),
    )
}

RULE_MODELS = {name: d.model for name, d in CATALOG.items()}
