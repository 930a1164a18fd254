"""Everything derived from a validated spec, computed once for every emitter:
raw fixed-point values, the parameter/command table, zones, the spec hash.
Templates only render what is here."""
from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from pysim.fxdecimal import format_raw, from_number, to_float
from pysim.model_support import ParamDef

from codegen import VERSION
from codegen.lang.ir import RuleIR, Type
from codegen.spec.checks import frac_bits
from codegen.spec.number_text import decimal_text
from codegen.lang.library import library
from codegen.spec.schema import BOARD_SECTIONS, Board, Spec
from codegen.model.state_table import StateKind, state_kinds
from codegen.model.serial_commands import Command, commands_for


def spec_hash(spec: Spec) -> str:
    """16 hex digits of SHA-256 over the canonical JSON of the validated spec
    (comments and layout do not count; every value does)."""
    data = spec.model_dump(mode="json")
    if not data.get("rule_defs"):  # specs without rules of their own keep the hash they always had
        data.pop("rule_defs", None)
    if data.get("performance", {}).get("optimize") == "fast":  # the default: hashes from before the key stay
        data["performance"].pop("optimize")
    board_defaults = Board().model_dump(mode="json")
    for key in ("target", *BOARD_SECTIONS):  # keys newer than the hashes: counted once they are not the default
        if data["board"].get(key) == board_defaults[key]:
            data["board"].pop(key)
    for section in ("predators", "food"):  # their rules are newer than the hashes: counted once given
        if isinstance(data.get(section), dict) and not data[section].get("rules"):
            data[section].pop("rules", None)
    canon = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class ParamInfo(ParamDef):
    """A parameter as the emitters see it: the generated model's ParamDef
    (the same fields, rendered into it) plus C spellings."""

    @property
    def upper(self) -> str:
        return self.name.upper()

    @property
    def c_type(self) -> str:
        return "fx" if self.type == "fixed" else "int32_t"


@dataclass(frozen=True)
class QuantRow:
    name: str
    field: str  # default / min / max
    text: str
    raw: int
    represents: str  # exact decimal of raw
    rel_error: float  # (represented - intended) / intended; 0 when exact


@dataclass(frozen=True)
class RuleTraits:
    """What the emitters ask of a rule, read off its IR once."""

    zone: str | None  # 'protected' / 'visual' (the seed's chain), 'radius' (other boid ranges), None
    requires: str | None  # the spec section it reads (predators, obstacles, food, target, ledge, scouts)
    int_roles: tuple[str, ...]  # roles that take int parameters (int and bool roles)
    state: tuple[tuple[str, str], ...]  # per-boid state: (name, 'fx' | 'int')
    needs_dist: bool  # its pair code reads `dist`, the exact distance
    pre: bool  # it has a `before` block (code ahead of the pair loop)
    summary: str
    seed: str

    @classmethod
    def of(cls, ir: RuleIR) -> "RuleTraits":
        nb = ir.neighbours
        zone = None if nb is None or nb.of != "boids" else (nb.zone or "radius")
        requires = nb.of if nb is not None and nb.of != "boids" else (ir.uses[0] if ir.uses else None)
        return cls(zone, requires, tuple(r.name for r in ir.roles if r.type in (Type.INT, Type.BOOL)),
                   tuple((s.name, "fx" if s.type == Type.FIXED else "int") for s in ir.state),
                   ir.needs_dist, bool(ir.before), ir.description, ir.seed)


@dataclass(frozen=True)
class RuleInfo:
    index: int
    name: str
    refs: dict  # role -> parameter name
    spec: Spec
    ir: RuleIR  # the rule's definition, compiled (codegen/lang); emitters read this

    @property
    def defn(self) -> RuleTraits:
        return RuleTraits.of(self.ir)

    def c(self, role: str) -> str:
        return f"P->{self.refs[role]}"

    def py(self, role: str) -> str:
        return f"P.{self.refs[role]}"

    def sec_c(self, section: str, role: str) -> str:
        """A parameter named by an entity section (e.g. scouts.group1), in C."""
        return f"P->{getattr(getattr(self.spec, section), role)}"

    def sec_py(self, section: str, role: str) -> str:
        return f"P.{getattr(getattr(self.spec, section), role)}"

    @property
    def zone_range(self) -> str | None:
        """The parameter bounding its neighbours (its `within` role's)."""
        nb = self.ir.neighbours
        return self.refs[nb.within] if nb is not None and nb.within else None

    @property
    def zone_var(self) -> str:
        z = self.defn.zone
        return f"z_r_{self.refs[self.ir.neighbours.within]}" if z == "radius" else f"z_{z}"

    @property
    def count_var(self) -> str:
        z = self.defn.zone
        return f"n_r_{self.refs[self.ir.neighbours.within]}" if z == "radius" else f"n_{z}"


@dataclass(frozen=True)
class MoverRule:
    """A rule a predator or a food source runs on itself (mover_motion)."""

    name: str
    ir: RuleIR
    refs: dict  # role -> parameter


@dataclass(frozen=True)
class GenModel:
    spec: Spec
    source: str
    hash: str
    tool_version: str
    frac_bits: int
    params: tuple[ParamInfo, ...]
    rules: tuple[RuleInfo, ...]
    zones: dict = field(default_factory=dict)  # 'protected'/'visual' -> range parameter name
    radius_zones: tuple[str, ...] = ()  # range parameters of radius zones, in first-use order
    quant: tuple[QuantRow, ...] = ()
    amb_alpha_raw: int = 0
    amb_beta_raw: int = 0
    obstacles_raw: tuple[tuple[int, int, int], ...] = ()
    target_raw: tuple[int, int] = (0, 0)
    predator_motion: tuple[MoverRule, ...] = ()
    food_motion: tuple[MoverRule, ...] = ()
    # where each key of the spec file sits, for errors found after the model
    # is built (the range gate, the output's owner): the load's own, not a second read
    locator: object = field(default=None, compare=False, repr=False, hash=False)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def seed_box(self) -> str | None:
        """The seed's box test range (abs(dx) < visual_range): the outer seed zone's."""
        return self.zones.get("visual") or self.zones.get("protected")

    @property
    def box_ranges(self) -> tuple[str, ...]:
        """Ranges whose maximum bounds the pair loop's box test."""
        return tuple(r for r in ((self.seed_box,) if self.seed_box else ()) + self.radius_zones)

    @property
    def has_pairs(self) -> bool:
        return bool(self.box_ranges)

    @property
    def zone_needs_dist(self) -> dict:
        return {z: any(r.defn.needs_dist for r in self.rules if r.defn.zone == "radius" and r.zone_range == z)
                for z in self.radius_zones}

    @property
    def boid_state(self) -> tuple[tuple[str, str], ...]:
        seen = []
        for r in self.rules:
            for st in r.defn.state:
                if st not in seen:
                    seen.append(st)
        return tuple(seen)

    @property
    def state_kinds(self) -> tuple[StateKind, ...]:
        return state_kinds(self)

    @property
    def commands(self) -> tuple[Command, ...]:
        return commands_for(self.spec)

    @functools.cached_property
    def course(self) -> tuple:
        """The course interface's table: (kind, id, value, command line) entries (codegen/model/course.py)."""
        from codegen.model.course import spec_entries

        return spec_entries(self.spec)

    @property
    def has_pre(self) -> bool:
        return any(r.defn.pre for r in self.rules)

    @property
    def board_pins(self) -> list[tuple[str, str, int]]:
        """(macro stem, port letter, bit) for each pin the board layer drives."""
        b = self.spec.board
        pins = [("BOARD_TFT_DC", b.tft.dc), ("BOARD_TFT_CS", b.tft.cs), ("BOARD_TFT_RST", b.tft.rst),
                ("BOARD_TFT_SDO", b.tft.sdo), ("BOARD_UART_RX", b.uart.rx), ("BOARD_UART_TX", b.uart.tx)]
        return [(stem, pin[1], int(pin[2:])) for stem, pin in pins]

    @property
    def panel(self):
        """The ILI9340 panel and the world's scale on it (codegen/boards/pic32/panel.py)."""
        from codegen.boards.pic32.panel import spec_panel

        return spec_panel(self.spec)

    @property
    def pps(self) -> dict:
        from codegen.spec.board_checks import pps_codes

        b = self.spec.board
        return pps_codes(b.tft.sdo, b.uart.rx, b.uart.tx)

    @property
    def boid_rgb565(self) -> int:
        c = self.spec.display.boid.color
        r, g, b = int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
        return ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3)

    @property
    def magnitude(self) -> str:
        return self.spec.fixed_point.magnitude

    @property
    def tunable(self) -> tuple[ParamInfo, ...]:
        return tuple(p for p in self.params if p.tunable)

    def param(self, name: str) -> ParamInfo:
        return next(p for p in self.params if p.name == name)


def _exact_decimal(raw: int, fb: int) -> str:
    d = Decimal(raw) / (Decimal(2) ** fb)
    s = format(d, "f")
    return s.rstrip("0").rstrip(".") if "." in s else s


def next_free_id(used: set[int]) -> int:
    """A parameter written without `id:` takes the id after the largest one in
    use (so it comes after the spec's own sliders, not as id 0 before them),
    else the lowest free one; spec/checks.py caps a spec at 256 parameters."""
    after = max(used, default=0) + 1
    return next(i for i in [*range(after, 256), *range(0, after)] if i not in used)


def build_model(spec: Spec, source: str | Path, locator=None) -> GenModel:
    fb = frac_bits(spec)
    params = []
    quant = []
    used_ids = {p.id for p in spec.params.values() if p.id is not None}
    for index, (name, p) in enumerate(spec.params.items()):
        pid = p.id if p.id is not None else next_free_id(used_ids)
        used_ids.add(pid)
        raws = {}
        for key in ("default", "min", "max"):
            v = getattr(p, key)
            if p.type == "int":
                raws[key] = int(v)
                continue
            raw = from_number(v, fb)
            raws[key] = raw
            intended = Decimal(decimal_text(v))
            represented = Decimal(raw) / (Decimal(2) ** fb)
            rel = 0.0 if intended == represented else (
                float((represented - intended) / intended) if intended != 0 else float("inf"))
            quant.append(QuantRow(name, key, decimal_text(v), raw, _exact_decimal(raw, fb), rel))
        params.append(ParamInfo(
            index=index, name=name, id=pid, type=p.type, tunable=p.tunable, unit=p.unit,
            description=p.description, default=decimal_text(p.default), min=decimal_text(p.min), max=decimal_text(p.max),
            default_raw=raws["default"], min_raw=raws["min"], max_raw=raws["max"],
        ))
    rules = []
    zones: dict[str, str] = {}
    radius: list[str] = []
    known = spec._rules or library(fb)
    for i, r in enumerate(spec.rules):
        ir = known[r.rule]
        refs = {role.name: r.model_extra[role.name] for role in ir.roles}
        info = RuleInfo(i, r.rule, refs, spec, ir)
        rules.append(info)
        z = info.defn.zone
        if z == "radius":
            if info.zone_range not in radius:
                radius.append(info.zone_range)
        elif z:
            zones.setdefault(z, info.zone_range)
    fp = spec.fixed_point
    obstacles = tuple(tuple(from_number(v, fb) for v in o) for o in (spec.obstacles.initial if spec.obstacles else ()))
    target = (from_number(spec.target.x, fb), from_number(spec.target.y, fb)) if spec.target else (0, 0)
    motion, food = mover_motion(spec, known, fb)
    from codegen.spec.project import source_name as _source_name

    source_name = _source_name(source)
    return GenModel(
        spec=spec, source=source_name, hash=spec_hash(spec), tool_version=VERSION,
        frac_bits=fb, params=tuple(params), rules=tuple(rules), zones=zones, radius_zones=tuple(radius),
        quant=tuple(quant), amb_alpha_raw=from_number(fp.alpha, fb), amb_beta_raw=from_number(fp.beta, fb),
        obstacles_raw=obstacles, target_raw=target, predator_motion=motion, food_motion=food,
        locator=locator,
    )


def mover_motion(spec: Spec, known: dict, fb: int) -> tuple[tuple[MoverRule, ...], tuple[MoverRule, ...]]:
    """(the predators' own rules, the food's) in the order they run: for a
    predator the hunt (`hunt:` is the library's hunt_<mode>, its range and
    factor the roles), the library's edges with its margins, then `speed:`
    or `rules:`; for food its `rules:`."""
    lib = library(fb)

    def bind(uses) -> tuple:
        return tuple(MoverRule(u.rule, known[u.rule], {r.name: u.model_extra[r.name] for r in known[u.rule].roles})
                     for u in uses)

    motion: tuple = ()
    if spec.predators:
        pr = spec.predators
        if pr.hunt:
            name = f"hunt_{pr.hunt.mode}"
            motion += (MoverRule(name, lib[name], {"range": pr.hunt.range, "factor": pr.hunt.factor}),)
        motion += (MoverRule("edges", lib["edges"], {"left": pr.left, "right": pr.right, "top": pr.top,
                                                    "bottom": pr.bottom, "factor": pr.turn_factor}),)
        motion += bind(([pr.speed] if pr.speed else []) + list(pr.rules))
    return motion, bind(spec.food.rules) if spec.food else ()


def raw_text(raw: int, fb: int) -> str:
    return format_raw(raw, fb)


def raw_float(raw: int, fb: int) -> float:
    return to_float(raw, fb)
