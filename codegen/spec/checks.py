"""Semantic checks a schema cannot express; each issue names its YAML node.

They read the plain YAML data defensively (skipping whatever has the wrong
type, which the schema pass reports), so one run shows the schema errors and
these together.
"""
from __future__ import annotations

from fractions import Fraction

from codegen.spec.board_checks import board_issues as _board_issues
from codegen.spec.names import folder_problem, identifier_problem
from codegen.boards.pic32.clock import baud_problem
from codegen.spec.errors import SpecIssue

FORMATS = {"s16.15": 15, "s15.16": 16}

# Entity sections: role -> parameter type.
SECTION_ROLES: dict[str, dict[str, str]] = {
    "predators": {"count": "int", "min_speed": "fixed", "max_speed": "fixed", "turn_factor": "fixed",
                  "left": "fixed", "right": "fixed", "top": "fixed", "bottom": "fixed"},
    "food": {"count": "int", "speed": "fixed"},
    "ledge": {"y": "fixed", "left": "fixed", "right": "fixed"},
    "scouts": {"group1": "int", "group2": "int"},
}


def frac_bits(spec) -> int:
    return FORMATS[spec.fixed_point.format]


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _dict(v) -> dict:
    return v if isinstance(v, dict) else {}


def semantic_issues(data: dict, loc8) -> list[SpecIssue]:
    out: list[SpecIssue] = []
    fp = _dict(data.get("fixed_point")).get("format", "s16.15")
    fb = FORMATS.get(fp, 15)
    limit = Fraction(1 << (31 - fb))  # |value| must stay below this

    params = _dict(data.get("params"))
    ids: dict[int, str] = {}
    for name, p in params.items():
        where = ("params", name)
        why = identifier_problem(name) if isinstance(name, str) else None
        if why:
            out.append(loc8.issue(where, why, key_itself=True))
        if not isinstance(p, dict):
            continue
        ptype = p.get("type", "fixed")
        for key in ("default", "min", "max"):
            v = p.get(key)
            if not _num(v):
                continue
            if ptype == "int" and not float(v).is_integer():
                out.append(loc8.issue(where + (key,), f"{v} is not a whole number (type is int)"))
            elif ptype == "int" and not -(1 << 31) <= v < (1 << 31):
                out.append(loc8.issue(where + (key,), f"{v} does not fit a 32-bit int (type is int)"))
            if ptype == "fixed" and abs(Fraction(str(v))) >= limit:
                out.append(loc8.issue(where + (key,), f"{v} does not fit {fp} (|value| < {limit})"))
        lo, hi, d = p.get("min"), p.get("max"), p.get("default")
        if _num(lo) and _num(hi) and lo > hi:
            out.append(loc8.issue(where + ("min",), f"min {lo} > max {hi}"))
        elif _num(lo) and _num(hi) and _num(d) and not lo <= d <= hi:
            out.append(loc8.issue(where + ("default",), f"default {d} outside [{lo}, {hi}]"))
        pid = p.get("id")
        if isinstance(pid, int) and not isinstance(pid, bool):
            if pid in ids:
                out.append(loc8.issue(where + ("id",), f"id {pid} already used by '{ids[pid]}'"))
            ids[pid] = name

    if len(params) > 256:
        out.append(loc8.issue(("params",), f"{len(params)} parameters: slider ids run 0 to 255, so a spec has "
                              "at most 256", key_itself=True))

    def need(ref, where: tuple, role: str, want: str = "fixed") -> None:
        if not isinstance(ref, str):
            return
        p = params.get(ref)
        if p is None:
            import difflib

            near = difflib.get_close_matches(ref, list(params), n=1)
            hint = f" (did you mean '{near[0]}'?)" if near else (f" (parameters: {', '.join(params)})" if params else "")
            out.append(loc8.issue(where, f"no parameter named '{ref}'{hint}"))
        elif isinstance(p, dict) and p.get("type", "fixed") != want:
            out.append(loc8.issue(where, f"'{ref}' is type {p.get('type', 'fixed')}; {role} needs a {want} parameter"))

    for section, roles in SECTION_ROLES.items():
        sec = data.get(section)
        if isinstance(sec, dict):
            for role, want in roles.items():
                if role in sec:
                    need(sec[role], (section, role), f"{section}.{role}", want)
    hunt = _dict(_dict(data.get("predators")).get("hunt"))
    for role in ("range", "factor"):
        if role in hunt:
            need(hunt[role], ("predators", "hunt", role), f"predators.hunt.{role}")
    pred = _dict(data.get("predators"))
    cnt = params.get(pred.get("count")) if isinstance(pred.get("count"), str) else None
    if isinstance(cnt, dict) and isinstance(pred.get("capacity"), int) and _num(cnt.get("max")) \
            and cnt["max"] > pred["capacity"]:
        out.append(loc8.issue(("params", pred["count"], "max"),
                              f"max {cnt['max']} > predators.capacity {pred['capacity']}"))
    food = _dict(data.get("food"))
    cnt = params.get(food.get("count")) if isinstance(food.get("count"), str) else None
    if isinstance(cnt, dict) and isinstance(food.get("capacity"), int) and _num(cnt.get("max")) \
            and cnt["max"] > food["capacity"]:
        out.append(loc8.issue(("params", food["count"], "max"), f"max {cnt['max']} > food.capacity {food['capacity']}"))
    obst = _dict(data.get("obstacles"))
    if isinstance(obst.get("initial"), list) and isinstance(obst.get("capacity"), int) \
            and len(obst["initial"]) > obst["capacity"]:
        out.append(loc8.issue(("obstacles", "initial"), f"{len(obst['initial'])} obstacles > capacity {obst['capacity']}"))

    spawn = _dict(data.get("spawn"))
    for role in ("left", "right", "top", "bottom", "min_speed", "max_speed"):
        if role in spawn:
            need(spawn[role], ("spawn", role), f"spawn.{role}")

    out.extend(_board_issues(_dict(data.get("board")), loc8))
    out.extend(_world_issues(data, loc8))
    name = data.get("name")
    if isinstance(name, str) and folder_problem(name):
        out.append(loc8.issue(("name",), folder_problem(name)))
    baud = _dict(data.get("serial")).get("baud")
    if isinstance(baud, int) and not isinstance(baud, bool) and baud_problem(baud):
        out.append(loc8.issue(("serial", "baud"), baud_problem(baud)))

    perf = _dict(data.get("performance"))
    if perf.get("grid") is True and data.get("update_order", "sequential") != "synchronous":
        out.append(loc8.issue(("performance", "grid"), "a grid needs update_order: synchronous (sequential "
                              "boids read neighbours updated earlier in the same frame, in index order)"))

    flock = _dict(data.get("flock"))
    size, cap = flock.get("size", 100), flock.get("capacity", 100)
    if isinstance(size, int) and isinstance(cap, int) and size > cap:
        out.append(loc8.issue(("flock", "size"), f"size {size} > capacity {cap}"))
    return out


def _world_issues(data: dict, loc8) -> list[SpecIssue]:
    """Obstacles and the target on the screen: the range analysis assumes
    entities within the screen and radii up to its larger side."""
    out = []
    disp = _dict(data.get("display"))
    w, h = disp.get("width", 320), disp.get("height", 240)
    if not (_num(w) and _num(h)):
        return out
    init = _dict(data.get("obstacles")).get("initial")
    for i, o in enumerate(init if isinstance(init, list) else []):
        if not (isinstance(o, list) and len(o) == 3 and all(_num(v) for v in o)):
            continue
        x, y, r = o
        where = ("obstacles", "initial", i)
        if not (0 <= x <= w and 0 <= y <= h):
            out.append(loc8.issue(where, f"obstacle at ({x}, {y}) is off the {w}x{h} screen"))
        if not 0 < r <= max(w, h):
            out.append(loc8.issue(where, f"obstacle radius {r} must be above 0 and at most {max(w, h)} "
                                  "(the screen's larger side)"))
    tgt = _dict(data.get("target"))
    for key, top in (("x", w), ("y", h)):
        v = tgt.get(key)
        if _num(v) and not 0 <= v <= top:
            out.append(loc8.issue(("target", key), f"target {key} = {v} is off the screen [0, {top}]"))
    return out
