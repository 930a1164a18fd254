"""The pair loop's zone groups, read from the rules' IR alone: the rules over
boids that share one test (the seed's zone chain, a radius zone, a nearest
pick) and so one count. The C target's passes decide from them
(codegen/passes/pairs_once.py, window_sums.py, zones.py) and its printer
(codegen/targets/c/emit.py) names them: one grouping, no C names here.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ZoneGroup:
    key: tuple  # (test, coincident, pick); test: ('seed', zone) | ('radius', param, coincident)
    base: str  # the start of its C names: visual, protected_apart, r_<p>, in_<p>, ... (+ _nearest)
    rules: tuple  # positions in the model's rules, in spec order
    counted: bool  # a rule's apply reads `count`
    nearest: bool  # pick nearest


@dataclass(frozen=True)
class ZoneForm:
    groups: tuple  # ZoneGroup, first use first
    zone_range: dict  # 'protected' / 'visual' -> its range parameter (the first rule's)
    radius: tuple  # (param, coincident) of each radius test, first use first

    def group(self, key) -> ZoneGroup:
        return next(g for g in self.groups if g.key == key)


def zone_form(rules) -> ZoneForm:
    """The groups of `rules` (a model's: each with .ir and .refs)."""
    zone_range: dict = {}
    radius: list = []
    keys: dict = {}  # key -> (base, [positions])
    for pos, r in enumerate(rules):
        nb = r.ir.neighbours
        if nb is None or nb.of != "boids":
            continue
        param = r.refs[nb.within]
        if nb.zone:
            zone_range.setdefault(nb.zone, param)
            test = ("seed", nb.zone)
            base = nb.zone + ("" if nb.coincident else "_apart")
        else:
            if (param, nb.coincident) not in radius:
                radius.append((param, nb.coincident))
            test = ("radius", param, nb.coincident)
            base = ("r_" if not nb.coincident else "in_") + param
        key = (test, nb.coincident, nb.pick)
        keys.setdefault(key, (base + ("_nearest" if nb.pick == "nearest" else ""), []))[1].append(pos)
    groups = tuple(ZoneGroup(key, base, tuple(ps), any(rules[p].ir.reads_apply.count for p in ps),
                             key[2] == "nearest") for key, (base, ps) in keys.items())
    return ZoneForm(groups, zone_range, tuple(radius))


def boid_bytes(rules) -> int:
    """sizeof(boid_t): x, y, vx, vy and one field per state name (rules that
    declare the same name share it), 4 bytes each."""
    return 4 * (4 + len(dict.fromkeys(s.name for r in rules for s in r.ir.state)))
