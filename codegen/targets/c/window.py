"""The grid's own band by its window's sums, printed: the window_sums pass
(codegen/passes/window_sums.py) chose the group and its terms
(Lowered.window, a WindowPlan); this prints the window's struct, its reset
at a band's start, the walk of each boid, and the corrections of a visited
pair out of the zone."""
from __future__ import annotations

from dataclasses import replace

from codegen.targets.c.mirror import mirror
from codegen.targets.c.pairs import each

_FLIP = {"acc32_add": "acc32_sub", "acc32_sub": "acc32_add",  # an added term taken back, and back
         "acc_add": "acc_sub", "acc_sub": "acc_add"}


def _by_type(window) -> dict:
    """{C type: the fields whose running sums have it}: fx_acc where a 64-bit sum reads the field."""
    out: dict = {}
    for f in window.fields:
        out.setdefault("fx_acc" if window.bits(f) == 64 else "fx", []).append(f)
    return out


def struct(window) -> list:
    """The window's running sums (flock_grid.j2), kept in memory between
    boids like band_win; a field's is 64-bit where a 64-bit sum reads it."""
    return (["static volatile struct {"] + [f"    {t} {', '.join(fs)};" for t, fs in _by_type(window).items()]
            + ["} band_sums;"])


def reset(window) -> list:
    """At a band's start: an empty window."""
    return [" = ".join(f"band_sums.{f}" for f in window.fields) + " = 0;"]


def walk(fc, window) -> list:
    """Per boid: the own band's window slid to the boid's x (o_end: its end,
    the once-only loop's too), and its sums, the boid's own taken out, added
    to the boid's group sums and count."""
    fs = window.fields
    g = fc.groups[window.key]
    win = {f: fc.alloc_name(f"win_{f}") for f in fs}

    def step(sign: str, at: str) -> list:
        return [f"    fx_acc_{sign}_to(&{win[f]}, {at}->{f});" if window.bits(f) == 64 else
                f"    {win[f]} = fx_{sign}({win[f]}, {at}->{f});" for f in fs]

    # the boid enters its window first (a band's first boid; any, were box <= 0), so
    # the window holds it and lo stops there
    out = ["const boid_t *const w_end = band_win.end[1];",
           "const boid_t *o_end = band_win.hi[1], *lo = band_win.lo[1];"]
    out += [f"{t} " + ", ".join(f"{win[f]} = band_sums.{f}" for f in group) + ";"
            for t, group in _by_type(window).items()]
    out += ["if (o_end == me) {"]
    out += step("add", "o_end") + ["    o_end++;", "}", "for (; o_end != w_end && fx_sub(o_end->x, x) < box; o_end++) {"]
    out += step("add", "o_end") + ["}", "for (; lo != me && fx_sub(x, lo->x) >= box; lo++) {"]
    out += step("sub", "lo") + ["}", "band_win.hi[1] = o_end;", "band_win.lo[1] = lo;"]
    out += [f"band_sums.{f} = {win[f]};" for f in fs]
    if g.count:
        out.append(f"{g.count} += (int32_t)(o_end - lo) - 1; /* the window less the boid */")
    for pos, s, f, sign, bits in window.terms:
        c = fc.rules[pos].sums[s]
        own = f if fc.start_locals and f in ("x", "y", "vx", "vy") else f"me->{f}"  # as the mirror reads it
        if bits == 64:  # the window's 64-bit sum less the boid's own term, exact
            out.append(f"{c} {'+' if sign > 0 else '-'}= {win[f]} - {own};")
        else:  # a 64-bit window's low word is the 32-bit sum's (modulo 2^32)
            w = f"fx_wrap64({win[f]})" if window.bits(f) == 64 else win[f]
            out.append(f"{c} = fx_{'add' if sign > 0 else 'sub'}({c}, fx_sub({w}, {own}));")
    return out


def _negated(r):
    """The rule with its `each` subtracting what it added (and back)."""
    each_ = tuple(replace(st, op=_FLIP[st.op]) for st in r.ir.each)
    return replace(r, ir=replace(r.ir, each=each_))


def corrections(fc, window, mirrored: bool = True) -> list:
    """A visited pair of the own band out of the group's zone: the window's
    terms taken back from the boid's sums and (`mirrored`) from the other's
    ring entry."""
    g = fc.groups[window.key]
    rules = [_negated(r) for r in g.rules]
    body = [f"{g.count}--;"] if g.count else []
    for r in rules:
        body += each(fc, r)
    body = (fc.hints.visit(body) if fc.hints else []) + body
    if not mirrored:
        return ["/* out of the zone: the window counted it, taken back */"] + body
    return ["/* out of the zone: the window counted it, taken back on both sides */"] + body + \
        mirror(fc, [replace(g, rules=rules)], count_op="--")
