"""Type a rule's code in two passes and build its IR pieces.

Pass 1 infers: every state variable, sum and local starts as an open type
(TVar) and is bound by the first concrete type it meets (`urge + rate` with
a fixed role makes urge fixed); the order is init, each (then sums are fixed:
a sum of ints is sum_int), before, apply; whatever is still open becomes int (only
untyped literals reached it). Errors are dropped. Pass 2 checks with the
types now known: it records every error at its position and lowers the code
to IR.
"""
from __future__ import annotations

from codegen.lang.blocks import Blocks
from codegen.lang.exprs import Exprs
from codegen.lang.type_errors import TypeErr
from codegen.lang.ir import Local, Ref, Reads, StateVar, Sum, Type
from codegen.lang.parse import INT_MAX
from codegen.lang.scope import Scope
from codegen.lang import syntax as s
from codegen.lang.tvar import TVar, is_open, resolve

F, I = Type.FIXED, Type.INT


def _close(types: dict) -> dict:
    """Open types to int (only untyped literals reached them), the rest resolved."""
    out = {}
    for k, t in types.items():
        r = resolve(t)
        out[k] = I if isinstance(r, TVar) else r
    return out


def _init_pass(scope: Scope, ex: Exprs, state: dict, types: dict, final: bool, errors: list) -> dict:
    """Type the initial values; -> name -> typed IR (final pass)."""
    scope.block = "init"
    out = {}
    for name, init in state.items():
        if init is None:
            continue
        try:
            if isinstance(init, s.Num) and not init.decimal and abs(init.value) > INT_MAX:
                raise TypeErr(init.pos, f"literal {init.value} is too large (beyond 32 bits)")
            x = ex.narrow(ex.expr(init))
            me = Ref("state", name, types[name], init.pos)
            (_, x), t = ex.unify([me, x], init.pos, f"the initial value of {name}", allow_bool=True)
            out[name] = x
        except TypeErr as e:
            if final:
                errors.append((e.pos, f"state.{name}", e.reason))
    return out


def _reads(scope: Scope, block: str) -> Reads:
    r = scope.reads.get(block, {})
    get = lambda k: frozenset(r.get(k, ()))  # noqa: E731
    return Reads(roles=get("role"), params=get("param"), state=get("state"), sums=get("sum"),
                 self_fields=get("self"), other_fields=get("other"), pair=get("pair"), world=get("world"),
                 screen=get("screen"), count=bool(r.get("count")), index=bool(r.get("index")))


def check(h, params: dict, fixed_limit: int) -> tuple[dict, list]:
    """-> (IR pieces for RuleIR, errors as (pos, field suffix, reason))."""
    errors: list = []
    state_types = {n: TVar() for n in h.state}
    scope = Scope(dict(h.roles), params, state_types, h.neighbours, frozenset(h.uses))
    for name in h.state:
        why = scope.define_problem(name, "state variable")
        if why:
            errors.append((h.state_pos[name], f"state.{name}", why))

    # pass 1: infer
    ex = Exprs(scope, fixed_limit)
    infer = Blocks(scope, ex, final=False)
    _init_pass(scope, ex, h.state, state_types, False, errors)
    infer.declare("before", h.before)
    infer.run("before", h.before)
    infer.declare("each", h.each)
    infer.run("each", h.each)
    scope.sums = _close(scope.sums)
    scope.locals["each"] = _close(scope.locals["each"])
    infer.declare("apply", h.apply)
    infer.run("apply", h.apply)
    scope.state = _close(scope.state)
    scope.locals["apply"] = _close(scope.locals["apply"])
    scope.locals["before"] = _close(scope.locals["before"])

    # pass 2: check and lower
    scope.reads, scope.writes, scope.draws = {}, set(), 0
    final = Blocks(scope, ex, final=True)
    inits = _init_pass(scope, ex, h.state, scope.state, True, errors)
    final.declare("before", h.before)
    before = final.run("before", h.before)
    errors.extend((p, "before", r) for p, r in final.errors)
    final.errors = []
    final.declare("each", h.each)
    each = final.run("each", h.each)
    errors.extend((p, "each", r) for p, r in final.errors)
    final.errors = []
    final.declare("apply", h.apply)
    apply = final.run("apply", h.apply)
    errors.extend((p, "apply", r) for p, r in final.errors)
    assert not any(is_open(t) for t in scope.state.values())

    sums = tuple(Sum(n, Type.SUM_INT if t == I else Type.SUM_FIXED, final.first.get(("each", n)))
                 for n, t in scope.sums.items())
    local_list = tuple(Local(n, t, b, final.first.get((b, n))) for b in ("before", "each", "apply")
                       for n, t in scope.locals[b].items())
    state = tuple(StateVar(n, scope.state[n], inits[n], h.state_pos[n], n in h.state_shared)
                  for n in h.state if n in inits)
    pieces = dict(state=state, sums=sums, locals=local_list, before=before, each=each, apply=apply,
                  reads_before=_reads(scope, "before"),
                  reads_each=_reads(scope, "each"), reads_apply=_reads(scope, "apply"),
                  writes=frozenset(scope.writes), draws=scope.draws)
    return pieces, errors
