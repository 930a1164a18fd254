"""The range analysis's interpreter: rule blocks over intervals.

`Machine` runs a block of IR statements over an environment that maps each
name a rule can see, keyed `(ref kind, name)` as ir.Ref has them, to a
`Val`: an interval (intervals.Iv, raw units) and what is known about how it
relates to other values. Every arithmetic op is recorded at its site (its
rule instance and IR node): the widest exact result it reached, whether it
left its type's limits (an overflow), and whether its operands had already
wrapped (then it is not the root cause).

What a Val knows beyond its interval, kept sound by tokens:
  tok   the identity of the concrete value. An assignment shares it
        (`b = bias`: narrowing b narrows bias); a join of two different
        values, or any op, makes a new one.
  mag   (tok_x, tok_y, estimate): this is mag/hypot of those values. A
        condition bounding it from above bounds |x|, |y| (intervals.Fx.
        mag_bound), and a component divided by its own magnitude is at most
        intervals.Fx.ratio_bound: `vx / speed` is 1.0, not vx / 1 LSB.
  sq    (tok_x, tok_y): a squared distance of those (d2): d2 < r^2 bounds them.
  absof tok: this is abs() of that value.
  acc   (neighbour set, one visit's increment): a neighbour sum. The mean
        `s / count` over the same set lies within one visit's increment.
  cnt   the neighbour set this count counts.
Conditions narrow (`cond`): in `if count > 0` count is at least 1; in the
else of `if speed == 0` the speed is at least 1 LSB; `and`, `or`, `not`
and `a if c else b` narrow their branches. A branch no value can take is
not analysed. `If` joins its branches; `Return` ends a path (the caller
collects `returned`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import isqrt

from codegen.analysis.intervals import (I32, LIMITS, MAG_CMP, NEGATED, QUIET, TRANSFER, U64, Fx, Iv, compare, narrow, root_narrow,
                        root_range, t_mean_about, wrapped)
from codegen.analysis.range_values import Val, join_envs, join_vals, lerp, new_token
from codegen.lang.ir import Accumulate, Assign, Const, If, Op, Ref, Return

CMP = ("lt", "le", "gt", "ge", "eq", "ne")

@dataclass
class Site:
    """One expression's record: the widest exact value it reached."""
    key: tuple
    rule: str  # the rule as the report names it ('separation', 'predators: edges', 'move', ...)
    path: str | None  # the file the expression is written in (a rule file or the spec)
    pos: object  # ir.Pos, or None (a hand-written transfer)
    op: str
    kind: str  # '32' (wraps to 32 bits), '64' (a 64-bit sum) or 'u64' (a square)
    lim: tuple
    lo: int
    hi: int
    text_fn: object = None
    type: str = "fixed"  # the IR type of the result (ints print unscaled)
    overflows: bool = False  # it can leave its type's range
    root: bool = False  # ... from operands that had not wrapped: a cause, not a consequence
    fed_wrapped: bool = False  # some operand had already wrapped (its value is not the exact one)
    _text: str | None = field(default=None, repr=False)

    @property
    def expr(self) -> str:
        if self._text is None:
            self._text = self.text_fn() if callable(self.text_fn) else str(self.text_fn)
        return self._text

    @property
    def worst(self) -> int:
        return max(abs(self.lo), abs(self.hi))

    @property
    def live(self) -> bool:  # every value the IR computes is used as the C computes it
        return self.overflows

    @property
    def site(self) -> "Site":  # the old SiteRecord.site, for callers that read s.site.expr
        return self

    @property
    def where(self) -> str:
        return f"{self.path}:{self.pos}" if self.path and self.pos else ""


@dataclass
class Context:
    """The rule instance being run: names its sites and prints its text."""
    label: str  # unique per rule instance: site keys start with it
    rule: str  # the name the report shows
    path: str | None
    names: dict  # role -> parameter (for the text)
    shadow: frozenset = frozenset()  # roles hiding self fields (printed self.x)


def kind_of(lim) -> str:
    return "32" if lim == I32 else ("u64" if lim == U64 else "64")


class Machine:
    def __init__(self, fx: Fx, sites: dict):
        self.fx = fx
        self.sites = sites
        self.ctx: Context | None = None
        self.returned: list = []
        self.numbers: dict = {}  # (op, operand tokens) -> the result's token: see expr
        self.evaluations = 0  # expressions evaluated: the analysis's work (range_check budgets the blame by it)

    # ------------------------------------------------------------ sites
    def record(self, key, op: str, tname: str, iv: Iv, taint: bool, text, pos=None, ctx=None):
        """Note iv at the site; -> (the value that flows on, tainted)."""
        ctx = ctx or self.ctx
        lim = LIMITS[tname]
        k = (ctx.label, key)
        s = self.sites.get(k)
        if s is None:
            s = self.sites[k] = Site(k, ctx.rule, ctx.path if pos is not None else None, pos, op, kind_of(lim),
                                     lim, iv.lo, iv.hi, text, tname)
        else:
            s.lo, s.hi = min(s.lo, iv.lo), max(s.hi, iv.hi)
        s.fed_wrapped = s.fed_wrapped or taint
        if iv.within(lim):
            return iv, taint
        s.overflows = True
        s.root = s.root or not taint
        return wrapped(tname), True

    def _text(self, node):
        from codegen.analysis.range_text import unparse

        ctx = self.ctx
        return lambda: unparse(node, ctx.names, ctx.shadow)

    # ------------------------------------------------------------ expressions
    def const(self, c: Const) -> Iv:
        from pysim.fxdecimal import to_raw_exact

        t = c.type.value
        if t == "bool":
            return Iv.point(1 if c.value else 0)
        if t == "fixed":
            return Iv.point(to_raw_exact(c.value, self.fx.frac_bits))
        if t == "square":
            return Iv.point(to_raw_exact(c.value, 2 * self.fx.frac_bits))
        return Iv.point(int(c.value))

    def expr(self, e, env) -> Val:
        self.evaluations += 1
        if isinstance(e, Const):
            return Val(self.const(e))
        if isinstance(e, Ref):
            if e.kind == "draw":  # a raw PRNG draw: any uint32 (read only by random, random_int)
                return Val(Iv(0, (1 << 32) - 1))
            try:
                return env[(e.kind, e.name)]
            except KeyError:
                raise KeyError(f"range analysis: {self.ctx.rule}: no value for {e.kind} {e.name}") from None
        op = e.op
        if op in CMP or op in MAG_CMP or op in ("and", "or", "not"):
            t, f = self.cond(e, env)
            return Val(Iv(0 if f is not None else 1, 1 if t is not None else 0))
        if op == "select":
            t, f = self.cond(e.args[0], env)
            vals = ([self.expr(e.args[1], t)] if t is not None else []) + \
                   ([self.expr(e.args[2], f)] if f is not None else [])
            return join_vals(vals) if vals else Val(Iv(0, 0))
        args = [self.expr(a, env) for a in e.args]
        taint = any(a.taint for a in args)
        ivs = [a.iv for a in args]
        iv = TRANSFER[op](self.fx, *ivs)
        if op in ("sub", "isub") and args[0].tok != args[1].tok:
            iv = self._difference(env, args, iv)
            if op == "sub" and not taint:
                iv = lerp(self, e, env, args[0], iv)
        elif op == "div":
            iv = self._own_magnitude(args, iv)
        elif op in ("sum_mean", "sum_idiv"):
            iv = self._mean(args, iv)
        elif op == "sum_mean_about":  # the offsets' mean (as sum_mean's) about the base
            iv = t_mean_about(self.fx, self._mean(args[:2], TRANSFER["sum_mean"](self.fx, args[0].iv, args[1].iv)),
                              args[2].iv, args[1].iv)
        if op not in QUIET:
            iv, taint = self.record(id(e), op, e.type.value, iv, taint, self._text(e), e.pos)
        # one op of the same concrete operands is the same concrete value (value numbering): in
        # `fixed(tx) / hypot(fixed(tx), fixed(ty))` both fixed(tx) are one value, as through a local
        v = Val(iv, tok=self.numbers.setdefault((op, *(a.tok for a in args)), new_token()) if not taint else None,
                taint=taint)
        if not taint:
            if op in ("mag", "hypot"):
                v.mag = (args[0].tok, args[1].tok, op == "mag" and self.fx.amb)
            elif op == "abs":
                v.absof = args[0].tok
            elif op == "mag2":  # codegen/passes/roots.py: a bound on it bounds x and y, as d2's
                v.sq = (args[0].tok, args[1].tok)
            elif op == "mag_root" and args[0].sq is not None:  # the magnitude of those x, y
                v.mag = (args[0].sq[0], args[0].sq[1], False)
        return v

    def _difference(self, env, args, iv: Iv) -> Iv:
        """a - b within what the conditions on this path say of it."""
        a, b = args
        up, down = env.get(("diff", a.tok, b.tok)), env.get(("diff", b.tok, a.tok))
        lo, hi = (-down.iv.hi if down else iv.lo), (up.iv.hi if up else iv.hi)
        return iv.meet(lo, hi) or iv

    def _own_magnitude(self, args, iv: Iv) -> Iv:
        a, b = args
        if b.mag is None or a.tok not in b.mag[:2]:
            return iv
        r = self.fx.ratio_bound(max(b.iv.lo, 1), b.mag[2])
        return iv if r is None else (iv.meet(-r, r) or Iv(0, 0))

    def _mean(self, args, iv: Iv) -> Iv:
        s, n = args
        if s.acc is None or n.cnt is None or n.cnt != s.acc[0]:
            return iv
        inc = s.acc[1]
        out = inc if n.iv.hi >= 1 else None  # the mean of one visit's increments, truncated toward 0
        if n.iv.lo <= 0:
            out = Iv(0, 0) if out is None else out.hull(Iv(0, 0))
        return out.meet(iv.lo, iv.hi) or out

    # ------------------------------------------------------------ conditions
    def cond(self, e, env):
        """(env where e holds, env where it does not); None: impossible there."""
        if isinstance(e, Const):
            return (env, None) if e.value else (None, env)
        if isinstance(e, Op) and e.op == "not":
            t, f = self.cond(e.args[0], env)
            return f, t
        if isinstance(e, Op) and e.op == "and":
            t1, f1 = self.cond(e.args[0], env)
            t2, f2 = self.cond(e.args[1], t1) if t1 is not None else (None, None)
            return t2, join_envs(f1, f2)
        if isinstance(e, Op) and e.op == "or":
            t1, f1 = self.cond(e.args[0], env)
            t2, f2 = self.cond(e.args[1], f1) if f1 is not None else (None, None)
            return join_envs(t1, t2), f2
        if isinstance(e, Op) and e.op in MAG_CMP:  # floor(sqrt(s)) OP m (roots.py)
            a, b = self.expr(e.args[0], env), self.expr(e.args[1], env)
            c = MAG_CMP[e.op]
            can_t, can_f = compare(c, root_range(a.iv), b.iv)
            t = self._narrow_root(env, c, a, b) if can_t else None
            f = self._narrow_root(env, NEGATED[c], a, b) if can_f else None
            return t, f
        if isinstance(e, Op) and e.op in CMP:
            a, b = self.expr(e.args[0], env), self.expr(e.args[1], env)
            can_t, can_f = compare(e.op, a.iv, b.iv)
            t = self._narrow(env, e.op, a, b) if can_t else None
            f = self._narrow(env, NEGATED[e.op], a, b) if can_f else None
            if not (a.taint or b.taint):  # exact values: what the comparison says of their terms
                t, f = self._facts(t, e.op, e.args), self._facts(f, NEGATED[e.op], e.args)
            return t, f
        v = self.expr(e, env)  # a bool role, target.on, a bool select
        return (env if v.iv.hi >= 1 else None), (env if v.iv.lo <= 0 else None)

    def _linear(self, e, env, sign: int, terms: dict, const: list) -> bool:
        """Add sign * e to terms (token -> [coefficient, interval]) and const
        ([lo, hi]) when e is a sum or difference of values; else False."""
        if isinstance(e, Const):
            c = self.const(e)
            const[0], const[1] = const[0] + min(sign * c.lo, sign * c.hi), const[1] + max(sign * c.lo, sign * c.hi)
            return True
        if isinstance(e, Ref):
            v = env[(e.kind, e.name)]
            terms.setdefault(v.tok, [0, v.iv])[0] += sign
            return True
        if isinstance(e, Op) and e.op in ("add", "iadd", "sub", "isub"):
            second = -sign if e.op in ("sub", "isub") else sign
            return self._linear(e.args[0], env, sign, terms, const) and \
                self._linear(e.args[1], env, second, terms, const)
        if isinstance(e, Op) and e.op in ("neg", "ineg"):
            return self._linear(e.args[0], env, -sign, terms, const)
        return False

    def _facts(self, env, op, args):
        """env plus the differences `p - q <= bound` that `args[0] op args[1]`
        implies, p and q two of its terms (the others at their extremes):
        in perching, `y + vy >= ledge.y` gives ledge.y - y <= max(vy)."""
        if env is None or op in ("eq", "ne"):
            return env
        terms, const = {}, [0, 0]
        sign = 1 if op in ("lt", "le") else -1  # to the form: sum of terms + const <= bound
        if not (self._linear(args[0], env, sign, terms, const) and self._linear(args[1], env, -sign, terms, const)):
            return env
        if len(terms) > 3:
            return env
        bound = -1 if op in ("lt", "gt") else 0
        for p, (cp, _) in terms.items():
            for q, (cq, _) in terms.items():
                if cp != 1 or cq != -1:
                    continue
                rest = const[0] + sum(min(c * iv.lo, c * iv.hi) for t, (c, iv) in terms.items() if t not in (p, q))
                top = bound - rest
                cur = env.get(("diff", p, q))
                if cur is None or top < cur.iv.hi:
                    env = dict(env)
                    env[("diff", p, q)] = Val(Iv(min(top, -(1 << 66)), top))
        return env

    def _narrow_root(self, env, op, s: Val, m: Val):
        ns, nm = root_narrow(op, s.iv, m.iv)
        if ns is None or nm is None:
            return None
        env = self.refine(env, s, ns)
        return None if env is None else self.refine(env, m, nm)

    def _narrow(self, env, op, a: Val, b: Val):
        na, nb = narrow(op, a.iv, b.iv)
        if na is None or nb is None:
            return None
        env = self.refine(env, a, na)
        return None if env is None else self.refine(env, b, nb)

    def refine(self, env, v: Val, new: Iv):
        """env where the value v lies within new (and what follows from it)."""
        bounds = [(v.tok, new.lo, new.hi)]
        if v.mag is not None:
            m = self.fx.mag_bound(new.hi, v.mag[2])
            if m is not None:
                bounds += [(v.mag[0], -m, m), (v.mag[1], -m, m)]
        if v.sq is not None and new.hi >= 0:
            r = isqrt(new.hi)
            bounds += [(v.sq[0], -r, r), (v.sq[1], -r, r)]
        if v.absof is not None:
            bounds.append((v.absof, -new.hi, new.hi))
        out = env
        for tok, lo, hi in bounds:
            for k, x in env.items():
                if x.tok != tok:
                    continue
                cur = out[k].iv
                m_ = cur.meet(lo, hi)
                if m_ is None:
                    return None
                if m_ != cur:
                    if out is env:
                        out = dict(env)
                    out[k] = out[k].with_iv(m_)
        return out

    # ------------------------------------------------------------ statements
    def block(self, stmts, env):
        for s in stmts:
            if env is None:
                return None
            if isinstance(s, Assign):
                v = self.expr(s.value, env)
                env = dict(env)
                env[(s.target.kind, s.target.name)] = v
            elif isinstance(s, Accumulate):
                v = self.expr(s.value, env)
                key = ("acc", s.sum)
                acc = env[key]
                iv = (Iv(acc.iv.lo + v.iv.lo, acc.iv.hi + v.iv.hi) if s.op in ("acc_add", "acc32_add")
                      else Iv(acc.iv.lo - v.iv.hi, acc.iv.hi - v.iv.lo))
                env = dict(env)
                env[key] = Val(iv, taint=acc.taint or v.taint)
            elif isinstance(s, If):
                t, f = self.cond(s.cond, env)
                env = join_envs(self.block(s.then, t) if t is not None else None,
                                self.block(s.orelse, f) if f is not None else None)
            elif isinstance(s, Return):
                self.returned.append(env)
                env = None
            else:  # pragma: no cover - the checker makes only these
                raise TypeError(f"range analysis: unknown statement {s!r}")
        return env


def clip(iv: Iv, lim=I32) -> Iv:
    return Iv(max(iv.lo, lim[0]), min(iv.hi, lim[1])) if iv.lo <= lim[1] and iv.hi >= lim[0] else Iv(*lim)

