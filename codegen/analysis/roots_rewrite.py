"""Square roots only where a rule reads the magnitude itself (issue 16): the rewrite and its proof.

`speed = mag(vx, vy)` is an exact 64-bit integer square root (fixed.h's
fx_isqrt64, ~660 M4K cycles), yet speed_limit only COMPARES the speed with
its limits, and reads the speed itself only for the boids it rescales. For
integers r = floor(sqrt(s)) and a 32-bit m:

    r <  m  <=>  m > 0 and s < m^2          r >  m  <=>  m < 0 or s >= (m + 1)^2
    r == m  <=>  m >= 0 and m^2 <= s < (m + 1)^2   (<=, >=, != their negations)

so the rule is rewritten (IR to IR, before either emitter prints it):

    speed = mag(vx, vy)          speed_sq = mag2(vx, vy)             # exact x^2 + y^2 (uint64)
    if speed < min:        ->    if mag_lt(speed_sq, min):
        if speed == 0: ...           if mag_eq(speed_sq, 0): ...
        else: vx = vx / speed...     else: speed = mag_root(speed_sq); vx = vx / speed ...
    elif speed > max: ...        elif mag_gt(speed_sq, max): speed = mag_root(speed_sq); ...

All named ops (ops.py; fixed.h fx_mag2 ... fx_mag_ne and pysim/fx_mag.py's
twins, tested against each other on every target). The root is inserted
before the first statement of a path that reads the magnitude other than in
a compare. `mag_root` saturates at INT32_MAX where fx_hypot would wrap.

When. A local assigned once from `hypot(x, y)`, or from `mag(x, y)` with the
exact magnitude (`fixed_point.magnitude: exact`; alpha-max-plus-beta-min is
left as it is), read in compares of fixed values, and only then if some path
skips the root (a magnitude only tested against 0, or read right away, is
left alone: nothing to gain). The rewrite is kept where the range analysis
of the rewritten rules (ranges.py, over every parameter's range) finds the
squared magnitude's operands exact (not wrapped by an earlier overflow):
then the squared magnitude is exact in 64 bits and every compare is exactly
the compare of the true magnitude. Where the analysis also bounds the
squared magnitude below 2^62 the root fits int32, fx_hypot never wraps, and
the rewritten rule is the very same computation as the rule as written:
results are bit-identical (every committed spec). Above 2^62 (a speed of
65,536 px/frame at s16.15) the written rule's fx_hypot wraps to a negative
speed and its rescaling divides by it; the rewritten one compares the true
speed and rescales by the saturated root, so speed_limit keeps |v| within
its limits whatever comes in -- which is what lets the analysis keep the
speed bound at capacities where the separation push alone can exceed that
speed (boids.yaml at capacity 500: `boidsgen check` says which case holds).

The rewrite lives in the analysis stage because the analysis decides it, and
itself reads the rules as the emitters print them (range_check.analyse);
codegen/passes/roots.py holds the two passes that apply it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from codegen.lang.ir import Assign, Const, If, Local, Op, Ref, Type

CMP_TO_MAG = {"lt": "mag_lt", "le": "mag_le", "gt": "mag_gt", "ge": "mag_ge", "eq": "mag_eq", "ne": "mag_ne"}
FLIP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}
LIMIT62 = 1 << 62  # s below it: floor(sqrt(s)) <= INT32_MAX, fx_hypot does not wrap


@dataclass
class Rooted:
    """One rewritten magnitude: rule instance, local, and what the analysis said."""
    rule_index: int
    rule: str
    local: str
    local_sq: str
    block: str
    kept: bool = True
    exact_bound: int | None = None  # the analysis's bound on the squared magnitude (raw^2)
    why: str = ""

    @property
    def identical(self) -> bool:
        return self.kept and self.exact_bound is not None and self.exact_bound < LIMIT62


def _reads(e, name: str) -> bool:
    if isinstance(e, Ref):
        return e.kind == "local" and e.name == name
    if isinstance(e, Op):
        return any(_reads(a, name) for a in e.args)
    return False


def _is_l(e, name):
    return isinstance(e, Ref) and e.kind == "local" and e.name == name


def _raw(e, name: str) -> bool:
    """Does e read the local other than as one side of a fixed compare?"""
    if isinstance(e, Op):
        if e.op in CMP_TO_MAG and e.args[0].type == Type.FIXED and e.args[1].type == Type.FIXED:
            a, b = e.args
            if _is_l(a, name) and not _reads(b, name):
                return False
            if _is_l(b, name) and not _reads(a, name):
                return False
        return any(_raw(a, name) for a in e.args)
    return _is_l(e, name)


def _compares(e, name: str, out: list) -> None:
    if isinstance(e, Op):
        if e.op in CMP_TO_MAG and (_is_l(e.args[0], name) or _is_l(e.args[1], name)):
            out.append(e.args[1] if _is_l(e.args[0], name) else e.args[0])
            return
        for a in e.args:
            _compares(a, name, out)


def _rewrite_cond(e, name: str, sq: Ref):
    if isinstance(e, Op):
        if e.op in CMP_TO_MAG:
            a, b = e.args
            if _is_l(a, name):
                return Op(CMP_TO_MAG[e.op], (sq, b), Type.BOOL, e.pos)
            if _is_l(b, name):
                return Op(CMP_TO_MAG[FLIP[e.op]], (sq, a), Type.BOOL, e.pos)
        return replace(e, args=tuple(_rewrite_cond(a, name, sq) for a in e.args))
    return e


def _stmt_reads(st, name: str) -> bool:
    if isinstance(st, Assign):
        return _reads(st.value, name)
    if isinstance(st, If):
        return _reads(st.cond, name) or any(_stmt_reads(s, name) for s in st.then + st.orelse)
    return _reads(getattr(st, "value", None), name)


def _assigns(stmts, name: str) -> int:
    n = 0
    for st in stmts:
        if isinstance(st, Assign) and st.target.kind == "local" and st.target.name == name:
            n += 1
        elif isinstance(st, If):
            n += _assigns(st.then, name) + _assigns(st.orelse, name)
    return n


class _Rewrite:
    def __init__(self, name: str, sq: Ref, root_pos):
        self.name, self.sq, self.pos = name, sq, root_pos
        self.skips = False  # some path ends without the root
        self.top_root = False  # the root is needed at the top level right away

    def root(self):
        target = Ref("local", self.name, Type.FIXED, self.pos)
        return Assign(target, Op("mag_root", (self.sq,), Type.FIXED, self.pos), self.pos)

    def stmts(self, stmts, top=False) -> tuple:
        out = []
        for k, st in enumerate(stmts):
            if not _stmt_reads(st, self.name):
                out.append(st)
                continue
            if isinstance(st, If) and not _raw(st.cond, self.name):
                then, orelse = self.stmts(st.then), self.stmts(st.orelse)
                out.append(replace(st, cond=_rewrite_cond(st.cond, self.name, self.sq), then=then, orelse=orelse))
                continue
            if top:  # at the rule's own level: every path takes the root, nothing to gain
                self.top_root = True
            out.append(self.root())
            out.extend(stmts[k:])
            return tuple(out)
        self.skips = True
        return tuple(out)


def _fresh(ir, base: str) -> str:
    taken = {lc.name for lc in ir.locals} | {s.name for s in ir.state} | {s.name for s in ir.sums} | \
        {r.name for r in ir.roles}
    cand, k = f"{base}_sq", 2
    while cand in taken:
        cand = f"{base}_sq{k}"
        k += 1
    return cand


def _candidate(ir, exact: bool, block: str):
    """(index, local name) of the first magnitude in `block` worth rewriting, or None."""
    stmts = getattr(ir, block)
    for k, st in enumerate(stmts):
        if not (isinstance(st, Assign) and st.target.kind == "local" and isinstance(st.value, Op)):
            continue
        v = st.value
        if not (v.op == "hypot" or (v.op == "mag" and exact)):
            continue
        name = st.target.name
        if _assigns(getattr(ir, block), name) != 1 or any(_reads(a, name) for a in v.args):
            continue
        others: list = []
        for s2 in stmts[k + 1:]:
            _walk_compares(s2, name, others)
        if not others or all(isinstance(o, Const) and o.value == 0 for o in others):
            continue  # only tested against 0 (or never compared): the root is taken anyway
        return k, name
    return None


def _walk_compares(st, name, out):
    if isinstance(st, If):
        _compares(st.cond, name, out)
        for s in st.then + st.orelse:
            _walk_compares(s, name, out)


def rewrite_rule(ir, exact: bool):
    """(new IR, [(block, local, local_sq)]) with each worthwhile magnitude rewritten."""
    done = []
    for block in ("before", "apply"):
        while True:
            c = _candidate(ir, exact, block)
            if c is None:
                break
            k, name = c
            stmts = getattr(ir, block)
            st = stmts[k]
            sq_name = _fresh(ir, name)
            sq = Ref("local", sq_name, Type.SQUARE, st.pos)
            rw = _Rewrite(name, sq, st.pos)
            rest = rw.stmts(stmts[k + 1:], top=True)
            if rw.top_root or not rw.skips:
                break
            first = Assign(sq, Op("mag2", st.value.args, Type.SQUARE, st.value.pos), st.pos)
            new = stmts[:k] + (first,) + rest
            locs = ir.locals + (Local(sq_name, Type.SQUARE, block, st.pos),)
            ir = replace(ir, locals=locs, **{block: new})
            done.append((block, name, sq_name))
    return ir, done


def _rules_rewritten(m, which=None):
    exact = m.spec.fixed_point.magnitude == "exact"
    rules, found = [], []
    for i, r in enumerate(m.rules):
        if which is not None and i not in which:
            rules.append(r)
            continue
        ir, done = rewrite_rule(r.ir, exact)
        rules.append(replace(r, ir=ir) if done else r)
        found += [Rooted(i, r.name, name, sq, block) for block, name, sq in done]
    return replace(m, rules=tuple(rules)), found


def _sq_sites(res, m, found):
    """The analysis's site of each rewritten mag2 (keyed by its node)."""
    sites = {s.key: s for s in res.sites}
    out = {}
    for f in found:
        ir = m.rules[f.rule_index].ir
        for st in getattr(ir, f.block):
            if isinstance(st, Assign) and st.target.name == f.local_sq:
                out[id(f)] = sites.get((f"r{f.rule_index}", id(st.value)))
    return out


def rooted(m, assume=None):
    """(m with its worthwhile exact magnitudes rewritten where the analysis
    keeps them exact, the analysis of that m, [Rooted])."""
    from codegen.analysis.ranges import analyse

    m2, found = _rules_rewritten(m)
    if not found:
        return m, analyse(m, assume=assume), []
    res = analyse(m2, assume=assume)
    converged = res.stats.get("boids_converged", False)  # the predators' own speed may still grow
    sites = _sq_sites(res, m2, found)
    bad = set()
    for f in found:
        s = sites.get(id(f))
        if s is None or s.fed_wrapped or not converged:
            f.kept = False
            f.why = ("the velocity bound does not converge" if not converged else
                     "its operands can wrap before it (an earlier overflow)")
            bad.add(f.rule_index)
        else:
            f.exact_bound = s.hi
    if bad:
        keep = {f.rule_index for f in found} - bad
        m2, _ = _rules_rewritten(m, keep)
        res = analyse(m2, assume=assume) if keep else analyse(m, assume=assume)
        if not keep:
            m2 = m
    return m2, res, found


def report(found, one: int) -> list[str]:
    """Lines for `boidsgen check`."""
    if not found:
        return []
    lines = ["square roots (codegen/analysis/roots_rewrite.py: an exact magnitude compared as its square, the root taken "
             "only where the magnitude itself is read):"]
    for f in found:
        what = f"{f.rule}.{f.local} = mag(...)"
        if not f.kept:
            lines.append(f"  root always  {what}: {f.why}")
        elif f.identical:
            lines.append(f"  root on demand  {what}: |{f.local}| <= {(f.exact_bound ** 0.5) / one:,.6g} "
                         f"(squared below 2^62: bit for bit the rule as written)")
        else:
            lines.append(f"  root on demand  {what}: |{f.local}| up to {(f.exact_bound ** 0.5) / one:,.6g} before "
                         f"the compare (squared above 2^62: where the written rule's magnitude would wrap, "
                         f"its root saturates and the limit still holds)")
    return lines


def as_written_is_identical(found) -> bool:
    """Whether every magnitude the roots pass rewrote is, by the analysis,
    bit for bit the rule as written (a rewrite not kept changed nothing)."""
    return all(f.identical for f in found if f.kept)
