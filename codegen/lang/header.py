"""The rule definition's mapping, before any code is typed: its keys, roles,
neighbours, sections, state declarations, and its blocks parsed.

  description: one line (required)
  seed: "000"                      optional: which seed text the rule follows
  roles: {name: fixed|int|bool}    the parameters it takes (a bool role is an
                                   int parameter read as `!= 0`)
  neighbours: {of: boids|predators|obstacles|food, within: <role>,
               zone: protected|visual, coincident: true|false,
               pick: all|nearest}
  uses: [target, ledge, scouts]    spec sections it reads (target.x ...)
  state: {name: initial}           per-boid state; the initial value is a
                                   number, or an expression over roles,
                                   parameters and index, evaluated at spawn
  before: | ...                    run once per boid ahead of the neighbours;
                                   `return` there ends the boid's frame
  each: |  ...                     run for every neighbour in range
  apply: | ...                     run once per boid (required)

`within` is required for boids (it bounds the pair loop) and optional for
the other kinds (without it every entity of the kind is visited).
`zone` joins the seed's zones (seed 000), which the pair loop tests as one
chain: `if d2 < protected^2 {protected rules} else if d2 < visual^2 {visual
rules}`, both inside the seed's box test |dx|, |dy| < the outer zone's range
(visual, else protected). So a boid inside the protected range is not in the
visual zone. All rules of one zone in a spec share one range parameter.
`coincident: false` leaves out neighbours at the boid's own position
(d2 = 0; the force rules divide by the distance); by default they count, as
in the seed's protected zone.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from fractions import Fraction

from codegen.lang import syntax as s
from codegen.lang.ir import Neighbours, Type
from codegen.lang.locate import block, key_pos, mapping_pos, value_pos
from codegen.lang.parse import NAME_RE, parse_block, parse_expr
from codegen.lang.scope import KINDS, ROLE_RESERVED, SECTIONS

KEYS = ("description", "seed", "override", "roles", "neighbours", "uses", "state", "before", "each", "apply")
NEIGHBOUR_KEYS = ("of", "within", "zone", "coincident", "pick")
ZONES = ("protected", "visual")
ROLE_TYPES = {"fixed": Type.FIXED, "int": Type.INT, "bool": Type.BOOL}
MAX_DESCRIPTION = 500


@dataclass
class Header:
    description: str = ""
    seed: str = ""
    roles: dict = field(default_factory=dict)  # name -> Type
    role_pos: dict = field(default_factory=dict)
    neighbours: Neighbours | None = None
    uses: tuple = ()
    state: dict = field(default_factory=dict)  # name -> untyped initial expression
    state_pos: dict = field(default_factory=dict)
    state_shared: set = field(default_factory=set)  # names declared {init:, shared: true}
    before: tuple = ()
    each: tuple = ()
    apply: tuple = ()
    errors: list = field(default_factory=list)  # (pos, field suffix, reason)


def _did_you_mean(word: str, options) -> str:
    near = difflib.get_close_matches(str(word), list(options), n=1)
    return f" (did you mean '{near[0]}'?)" if near else ""


def _is_map(v) -> bool:
    return hasattr(v, "items") and hasattr(v, "lc")


def read_header(node, lines: list[str]) -> Header:
    h = Header()
    err = h.errors.append
    if not _is_map(node):
        err((mapping_pos(node), "", "a rule definition is a mapping (description, roles, apply, ...)"))
        return h
    for k in node:
        if k not in KEYS:
            err((key_pos(node, k), str(k), f"unknown key '{k}'{_did_you_mean(k, KEYS)}"))
    desc = node.get("description")
    if not isinstance(desc, str) or not desc.strip():
        err((value_pos(node, "description") if "description" in node else mapping_pos(node), "description",
             "a rule needs a description (one line of text)"))
    elif "\n" in desc.strip() or len(desc) > MAX_DESCRIPTION:
        err((value_pos(node, "description"), "description", f"one line, at most {MAX_DESCRIPTION} characters"))
    else:
        h.description = desc.strip()
    if "seed" in node:
        if isinstance(node["seed"], str):
            h.seed = node["seed"]
        else:
            err((value_pos(node, "seed"), "seed", "the seed is text: quote it, such as seed: \"000\""))
    _roles(node, h)
    _uses(node, h)
    _neighbours(node, h)
    _state(node, h, lines)
    for key in ("before", "each", "apply"):
        if key not in node:
            if key == "apply":
                err((mapping_pos(node), "apply", "a rule needs an apply block (what it does to each boid)"))
            continue
        if not isinstance(node[key], str):
            err((value_pos(node, key), key, "a block is text: write it as `key: |` and the code below"))
            continue
        b = block(node, key, lines)
        if isinstance(b, str):
            err((value_pos(node, key), key, b))
            continue
        body, problems = parse_block(b, allow_return=key == "before")
        h.errors.extend((p, key, r) for p, r in problems)
        setattr(h, key, body)
    if "each" in node and h.neighbours is None and "neighbours" not in node:
        err((key_pos(node, "each"), "each", "each needs `neighbours:` (which neighbours it runs for)"))
    return h


def _roles(node, h: Header) -> None:
    roles = node.get("roles")
    if roles is None:
        return
    if not _is_map(roles):
        h.errors.append((value_pos(node, "roles"), "roles", "roles is a mapping: {name: fixed|int|bool}"))
        return
    for name, ty in roles.items():
        where = f"roles.{name}"
        if not isinstance(name, str) or not NAME_RE.match(name):
            h.errors.append((key_pos(roles, name), where, f"'{name}' is not a role name ([a-z][a-z0-9_]*)"))
        elif name in ROLE_RESERVED:
            h.errors.append((key_pos(roles, name), where,
                             f"a role cannot be named '{name}': the language uses that name in every rule"))
        elif ty not in ROLE_TYPES:
            h.errors.append((value_pos(roles, name), where,
                             f"a role's type is fixed, int or bool, not {ty!r}{_did_you_mean(ty, ROLE_TYPES)}"))
        else:
            h.roles[name] = ROLE_TYPES[ty]
            h.role_pos[name] = key_pos(roles, name)


def _uses(node, h: Header) -> None:
    uses = node.get("uses", [])
    if isinstance(uses, str):
        uses = [uses]
    if not isinstance(uses, list):
        h.errors.append((value_pos(node, "uses"), "uses", f"uses is a list of sections: {', '.join(SECTIONS)}"))
        return
    for u in uses:
        if u not in SECTIONS:
            h.errors.append((value_pos(node, "uses"), "uses",
                             f"unknown section {u!r} (sections: {', '.join(SECTIONS)}){_did_you_mean(u, SECTIONS)}"))
    h.uses = tuple(u for u in uses if u in SECTIONS)


def _neighbours(node, h: Header) -> None:
    if "neighbours" not in node:
        return
    nb = node["neighbours"]
    err = h.errors.append
    if not _is_map(nb):
        err((value_pos(node, "neighbours"), "neighbours", "neighbours is a mapping: {of: boids, within: <role>}"))
        return
    for k in nb:
        if k not in NEIGHBOUR_KEYS:
            err((key_pos(nb, k), f"neighbours.{k}", f"unknown key '{k}'{_did_you_mean(k, NEIGHBOUR_KEYS)}"))
    of = nb.get("of")
    ok = True
    if of not in KINDS:
        err((value_pos(nb, "of") if "of" in nb else value_pos(node, "neighbours"), "neighbours.of",
             f"neighbours of what? {', '.join(KINDS)}{_did_you_mean(of, KINDS) if of else ''}"))
        ok = False
    ranges = {}
    for k in ("within",):
        r = nb.get(k)
        if r is None:
            continue
        if r not in h.roles:
            err((value_pos(nb, k), f"neighbours.{k}",
                 f"'{r}' is not a role of this rule (a range is a fixed role){_did_you_mean(r, h.roles)}"))
            ok = False
        elif h.roles[r] != Type.FIXED:
            err((value_pos(nb, k), f"neighbours.{k}", f"the range '{r}' must be a fixed role, not {h.roles[r]}"))
            ok = False
        ranges[k] = r
    if of == "boids" and "within" not in nb:
        err((value_pos(node, "neighbours"), "neighbours.within", "boids need `within: <range role>`"))
        ok = False
    zone = nb.get("zone")
    if zone is not None and (zone not in ZONES or of != "boids"):
        err((value_pos(nb, "zone"), "neighbours.zone",
             f"zone is one of the seed's zones over boids: {', '.join(ZONES)}{_did_you_mean(str(zone), ZONES)}"))
        ok = False
    coincident = nb.get("coincident", True)
    if not isinstance(coincident, bool):
        err((value_pos(nb, "coincident"), "neighbours.coincident", "coincident is true or false"))
        ok = False
    pick = nb.get("pick", "all")
    if pick not in ("all", "nearest"):
        err((value_pos(nb, "pick"), "neighbours.pick", "pick is all or nearest"))
        ok = False
    if ok:
        h.neighbours = Neighbours(of, ranges.get("within"), zone, coincident, pick, value_pos(node, "neighbours"))


def _state(node, h: Header, lines: list[str]) -> None:
    st = node.get("state")
    if st is None:
        return
    if not _is_map(st):
        h.errors.append((value_pos(node, "state"), "state", "state is a mapping: {name: initial value}"))
        return
    for name, init in st.items():
        where = f"state.{name}"
        pos = key_pos(st, name)
        if not isinstance(name, str) or not NAME_RE.match(name):
            h.errors.append((pos, where, f"'{name}' is not a state name ([a-z][a-z0-9_]*)"))
            continue
        h.state_pos[name] = pos
        holder, key = st, name
        if _is_map(init):  # the long form {init: value, shared: true}
            bad = [k for k in init if k not in ("init", "shared")]
            if bad:
                h.errors.append((key_pos(init, bad[0]), f"{where}.{bad[0]}", f"unknown key '{bad[0]}': a state's long "
                                 "form is {init: value, shared: true}"))
                continue
            if not isinstance(init.get("shared", False), bool):
                h.errors.append((value_pos(init, "shared"), f"{where}.shared", "shared is true or false"))
                continue
            if init.get("shared"):
                h.state_shared.add(name)
            holder, key, init = init, "init", init.get("init")
        vpos = value_pos(holder, key)
        if init is None:
            h.errors.append((pos, where, f"state '{name}' needs an initial value (a number, or a role)"))
            h.state[name] = None  # still a state name, so apply's uses of it are not "unknown"
        elif isinstance(init, bool):
            h.state[name] = s.Bool(init, vpos)
        elif isinstance(init, int):
            h.state[name] = s.Num(int(init), False, vpos)
        elif isinstance(init, float):
            h.state[name] = s.Num(Fraction(str(init)), True, vpos)
        elif isinstance(init, str):
            b = block(holder, key, lines)
            expr, problems = parse_expr(b) if not isinstance(b, str) else (None, [(vpos, b)])
            h.errors.extend((p, where, r) for p, r in problems)
            if expr is not None:
                h.state[name] = expr
        else:
            h.errors.append((vpos, where, "an initial value is a number or an expression (text)"))
