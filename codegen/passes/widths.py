"""Widths from the range analysis (issue 16): which neighbour sums the C keeps
in 32 bits, and what it would take to narrow the others.

A neighbour sum over boids is, by the language, an exact 64-bit sum
(`fx_acc`): on the M4K every `+=` is four instructions and the mean a
software `__divdi3`. The range analysis (ranges.py) bounds each sum as the
neighbours' number (capacity - 1) times one visit's increment, over every
parameter's whole range. Where that bound lies inside int32 (strictly above
INT32_MIN, so no quotient can overflow) and does not rest on the analysis's
assumed position margin (a sum of absolute positions does: at extreme
parameters cohesion and alignment can carry a whole flock past the edges'
pull, so positions are assumed, not proven; tests/test_shadow_check.py
drives them there) the sum is NARROWED:

  IR       Sum.bits = 32; `sum += v` becomes the statement op `acc32_add`
           (`acc32_sub`), and every read of the sum goes through the named
           op `sum_wrap32` (the sum's low 32 bits, two's complement);
  C        the sum is an `fx_acc32` (int32_t) accumulated by fx_add/fx_sub
           (wrapping, one instruction), its mean `fx_acc32_mean` (the M4K's
           32/32 `div`: one instruction, ~35 cycles, not ~700);
  Python   unchanged int64 sums, `fx_wrap32` at each read (fxops' wrap32;
           the checked kernel's ck_wrap32 reports a sum that left 32 bits).

Wrapping addition is associative, so the C's 32-bit running sum and the
simulator's wrapped 64-bit one are the same bits in EVERY case: C and Python
agree whatever happens. Where the bound holds (every parameter within its
range, positions within the analysis's assumed margin) the wrap is the
identity, so the flock is also the very flock of 64-bit sums, frame for
frame. A sum whose bound leaves int32 stays 64-bit; `report(m)` says which
parameter range (or the capacity) to narrow to unlock 32 bits, and what it
saves at the M4K (`boidsgen check` prints it).

Sums of a rule over predators, obstacles or food stay 64-bit (a handful of
visits: nothing to gain).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from codegen.passes.pipeline import Pass
from codegen.lang.ir import If, Op, Ref, map_stmts

INT32_MAX = (1 << 31) - 1
# M4K cycle model (codegen/drivers/pic32/budget/m4k_cycles.py) per in-range pair and per sum: a 64-bit
# `+=` (addu, sltu, addu, addu, with the sign word) against one addu; per boid
# and per mean: libgcc's __divdi3 (~300 cycles measured in the profile) against
# `div` + mflo and the guards (~40).
SAVE_PER_PAIR = 4
SAVE_PER_MEAN = 260


@dataclass
class SumWidth:
    rule_index: int
    rule: str
    sum: str
    text: str  # the accumulation as the report prints it
    lo: int  # the analysis's bound on the whole sum (raw)
    hi: int
    bits: int  # 32 or 64
    neighbours: int  # how many it sums (capacity - 1)
    term: int  # the worst |one visit's increment| (raw)
    means: int  # reads of it as a mean (sum / count)
    on_positions: bool = False  # its bound grows with the assumed position margin


def _fits(lo: int, hi: int) -> bool:
    return -INT32_MAX <= lo and hi <= INT32_MAX


def _mean_reads(stmts, name: str) -> int:
    n = 0

    def walk_e(e):
        nonlocal n
        if isinstance(e, Op):
            if e.op in ("sum_mean", "sum_idiv") and isinstance(e.args[0], Ref) and e.args[0].name == name:
                n += 1
            for a in e.args:
                walk_e(a)

    for st in _walk(stmts):
        for e in (getattr(st, "value", None), getattr(st, "cond", None)):
            if e is not None:
                walk_e(e)
    return n


def _walk(stmts):
    for st in stmts:
        yield st
        if isinstance(st, If):
            yield from _walk(st.then)
            yield from _walk(st.orelse)


def sum_widths(m, res=None, ranges=None, only=None) -> list[SumWidth]:
    """Every neighbour sum over boids with its bound and chosen width (`res`:
    m's range analysis, if already run; `ranges`: parameter -> (lo, hi) raw
    narrower than the spec's, as analyse() takes them: guards.py). `only`:
    the sums ({(rule index, sum)}) a caller asks about (guards.py's search),
    the others left out; the second analysis then runs only when one of them
    could still be 32-bit."""
    from codegen.analysis.ranges import Assumptions, analyse

    res = res if res is not None else analyse(m, ranges=ranges)
    sites = {s.key: s for s in res.sites}
    converged = res.stats.get("converged", False)
    asked = None if only is None else {(f"r{i}", ("sum", s)) for i, s in only}
    # The same analysis with positions assumed twice as far off screen: a sum
    # whose bound moves rests on the position assumption (absolute positions).
    far_sites = None
    if asked is None or (converged and any(not sites[k].overflows and _fits(sites[k].lo, sites[k].hi)
                                           for k in asked if k in sites)):
        far = Assumptions(position_margin_px=2 * max(m.spec.display.width, m.spec.display.height))
        far_sites = {s.key: (s.lo, s.hi) for s in analyse(m, ranges=ranges, assume=far).sites}
    out = []
    k = max(m.spec.flock.capacity - 1, 0)
    for i, r in enumerate(m.rules):
        nb = r.ir.neighbours
        if nb is None or nb.of != "boids":
            continue
        n = 1 if nb.pick == "nearest" else k
        for s in r.ir.sums:
            site = sites.get((f"r{i}", ("sum", s.name)))
            if site is None or (asked is not None and site.key not in asked):
                continue
            on_pos = far_sites is not None and far_sites.get(site.key) != (site.lo, site.hi)
            ok = converged and not site.overflows and not on_pos and _fits(site.lo, site.hi)
            term = -(-max(abs(site.lo), abs(site.hi)) // max(n, 1))
            out.append(SumWidth(i, r.name, s.name, site.expr, site.lo, site.hi, 32 if ok else 64, n, term,
                                _mean_reads(r.ir.apply, s.name) + _mean_reads(r.ir.before, s.name), on_pos))
    return out


# --- the IR rewrite ---------------------------------------------------------------------------

def _read(e, names: frozenset):
    """e with every read of a narrowed sum wrapped in `sum_wrap32`."""
    if isinstance(e, Ref):
        if e.kind == "sum" and e.name in names:
            return Op("sum_wrap32", (e,), e.type, e.pos)
        return e
    if isinstance(e, Op):
        return replace(e, args=tuple(_read(a, names) for a in e.args))
    return e


def _stmts(stmts, names: frozenset):
    def acc(st):
        op = {"acc_add": "acc32_add", "acc_sub": "acc32_sub"}[st.op] if st.sum in names else st.op
        return replace(st, op=op, value=_read(st.value, names))

    return map_stmts(stmts, lambda e: _read(e, names), acc)


def narrow_ir(ir, names: frozenset):
    """The rule's IR with the sums `names` narrowed (see the module's docstring)."""
    if not names:
        return ir
    sums = tuple(replace(s, bits=32) if s.name in names else s for s in ir.sums)
    return replace(ir, sums=sums, each=_stmts(ir.each, names), apply=_stmts(ir.apply, names),
                   before=_stmts(ir.before, names))


def proved(m, res=None, ranges=None) -> dict:
    """{rule index: {sum}} of the sums sum_widths proves 32 bits enough for."""
    by_rule: dict = {}
    for w in sum_widths(m, res, ranges):
        if w.bits == 32:
            by_rule.setdefault(w.rule_index, set()).add(w.sum)
    return by_rule


def narrow_rules(m, by_rule: dict):
    """m with the sums `by_rule` ({rule index: {sum}}) narrowed."""
    if not by_rule:
        return m
    rules = tuple(replace(r, ir=narrow_ir(r.ir, frozenset(by_rule.get(i, ())))) for i, r in enumerate(m.rules))
    return replace(m, rules=rules)


def narrowed(m, res=None, ranges=None):
    """m with its rules' IR narrowed where sum_widths proves 32 bits enough."""
    return narrow_rules(m, proved(m, res, ranges))


class Widths(Pass):
    """widths: a neighbour sum over boids becomes 32-bit (`acc32_add`, reads
    through `sum_wrap32`) where the range analysis bounds it inside int32
    over every parameter's whole range, not resting on the assumed position
    margin.

    Assumes: the IR after offsets and roots (their analysis, if roots ran).
    Preserves: every bit, in every case: the C's wrapping 32-bit sum and the
    simulator's 64-bit sum wrapped at each read are the same bits; where
    the bound holds (always, parameters in range) both are the exact sum.
    A shared pass: the simulator's kernel reads the narrowed IR too."""
    name = "widths"
    requires = ("offsets",)
    stage = "ir"

    def apply(self, low):
        by_rule = proved(low.rooted, low.res)
        return replace(low, m=narrow_rules(low.rooted, by_rule), written=narrow_rules(low.written, by_rule))


def lowered(m):
    """The shared passes' result (codegen/passes/shared.py: Offsets, Roots,
    Widths, run by pipeline.run for the targets): sums of positions taken as
    offsets (offsets.py), exact magnitudes compared as squares (roots.py),
    then the neighbour sums narrowed where the analysis of those rules proves
    32 bits enough. What the simulator's kernel prints and the C target's
    own passes start from; for the reports and tests (one call, no Lowered)."""
    from codegen.passes.offsets import offset
    from codegen.analysis.roots_rewrite import rooted

    m2, res, _ = rooted(offset(m))
    return narrowed(m2, res)


# --- the report -------------------------------------------------------------------------------

def px(raw: int, one: int) -> str:
    return f"{raw / one:,.6g}"


def report(m) -> list[str]:
    """Lines for `boidsgen check`: each neighbour sum's width, and for a
    64-bit one what would unlock 32 bits and what it would save."""
    from codegen.passes.offsets import offset, rewritten
    from codegen.analysis.roots_rewrite import report as roots_report, rooted

    m2, res, found = rooted(offset(m))
    ws = sum_widths(m2, res)
    extra = roots_report(found, 1 << m.frac_bits)
    if not ws:
        return extra
    one = 1 << m.frac_bits
    lines = ["neighbour sums (C widths from the range analysis; the simulator keeps them exact and wraps "
             "each read to 32 bits, the same bits):"]
    lines += [f"  {r}.{s}: a sum of positions, taken as offsets from the boid (the same mean, exactly: "
              f"codegen/passes/offsets.py)" for r, s in rewritten(m)]
    for w in ws:
        worst = max(abs(w.lo), abs(w.hi))
        what = f"{w.rule}.{w.sum}: {w.text}: |sum| <= {px(worst, one)}"
        if w.bits == 32:
            lines.append(f"  32-bit  {what} (x{INT32_MAX / max(worst, 1):.3g} headroom in int32)")
            continue
        if w.on_positions:
            lines.append(f"  64-bit  {what} with positions within the assumed margin, but it sums absolute "
                         f"positions, which no parameter range bounds (a flock can leave the screen): sum "
                         f"offsets (other.x - x, within the zone's range) to unlock 32 bits; would save "
                         f"~{SAVE_PER_PAIR} cycles per in-range pair")
            continue
        if w.term >= INT32_MAX // 2:  # one visit's increment already spans int32: wrapped upstream
            lines.append(f"  64-bit  {what}: its term is not bounded (a value it sums can overflow: narrow the "
                         f"parameter the range analysis blames, then the capacity)")
            continue
        cap = INT32_MAX // max(w.term, 1)  # neighbours the int32 holds at this term
        save_pair = SAVE_PER_PAIR
        save_boid = SAVE_PER_MEAN * w.means
        lines.append(f"  64-bit  {what}: 32 bits need |sum| <= {px(INT32_MAX, one)}: a capacity of at most "
                     f"{cap + 1} boids, or a term bounded by {px(INT32_MAX // max(w.neighbours, 1), one)} "
                     f"(narrow the range of what it sums); would save ~{save_pair} cycles per in-range pair"
                     + (f" and ~{save_boid} per boid (the mean as a 32/32 div)" if save_boid else ""))
    return extra + lines
