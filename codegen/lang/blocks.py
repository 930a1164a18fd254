"""Check the statements of `each` and `apply` and lower them to IR statements.

Which names a block defines (decided before checking, Python-style, for the
whole block):
- each: a name assigned with `=` anywhere in each is a local of one
  neighbour's visit; a name only ever updated with `+=` / `-=` is a SUM,
  64-bit and exact, 0 for every boid before its neighbours are visited,
  readable in apply only. `*=` cannot make a sum.
- before, apply: a name assigned that is not vx, vy or a state variable is
  a local of that block.
Locals have one type for the whole block (from their assignments; an
untyped literal alone makes an int) and must be assigned on every path
before they are read (C declares them; Python would raise). The velocity
changes and state is written in before and apply only.
"""
from __future__ import annotations

from codegen.lang import syntax as s
from codegen.lang.type_errors import TypeErr
from codegen.lang.ir import Accumulate, Assign, If, Ref, Return, Type
from codegen.lang.tvar import LIT, TVar, resolve

F, I, B = Type.FIXED, Type.INT, Type.BOOL


def _targets(body, out: list) -> list:
    """(statement, name) of every assignment, in order, nested ones included."""
    for st in body:
        if isinstance(st, (s.SAssign, s.SAug)) and isinstance(st.target, s.Name):
            out.append((st, st.target.id))
        elif isinstance(st, s.SIf):
            _targets(st.body, out)
            _targets(st.orelse, out)
    return out


class Blocks:
    """One pass over the blocks. final=False infers (errors dropped, types
    may stay open); final=True checks, records errors and builds the IR."""

    def __init__(self, scope, ex, final: bool) -> None:
        self.scope, self.ex, self.final = scope, ex, final
        self.errors: list = []  # (pos, reason)
        self.bad_targets: set = set()  # assignments already refused while declaring
        self.first: dict = {}  # (block, name) -> position of the first assignment

    def error(self, pos, reason: str) -> None:
        if self.final:
            self.errors.append((pos, reason))

    # --- declaring locals and sums ---
    def declare(self, block: str, body) -> None:
        sc = self.scope
        targets = _targets(body, [])
        plain = {n for st, n in targets if isinstance(st, s.SAssign)}
        for st, name in targets:
            known = name in sc.locals[block] or (block == "each" and name in sc.sums)
            if known:
                self.first.setdefault((block, name), st.target.pos)
            if known or (block != "each" and (name in ("vx", "vy") or name in sc.state)):
                continue
            if block != "each" and name in sc.sums:
                self._refuse(st, f"'{name}' is a neighbour sum: read-only in {block} (each writes it with += or -=)")
                continue
            if block == "each" and (name in ("vx", "vy") or name in sc.state):
                what = "the velocity" if name in ("vx", "vy") else "state"
                self._refuse(st, f"'{name}': {what} changes in apply, not in each")
                continue
            is_sum = block == "each" and name not in plain
            if is_sum and isinstance(st, s.SAug) and st.op == "*":
                self._refuse(st, f"'{name}' is a sum: it grows with += or -= only")
                continue
            why = sc.define_problem(name, "sum" if is_sum else "local")
            if why:
                self._refuse(st, why)
                continue
            self.first[(block, name)] = st.target.pos
            if is_sum:
                sc.sums.setdefault(name, TVar())
            else:
                sc.locals[block].setdefault(name, TVar())

    def _refuse(self, st, reason: str) -> None:
        self.bad_targets.add(id(st))
        self.error(st.target.pos, reason)

    # --- statements ---
    def run(self, block: str, body) -> tuple:
        self.scope.block = block
        self.scope.assigned = set() if self.final else None
        return self.stmts(body)

    def stmts(self, body) -> tuple:
        out = []
        skip = 0
        for st in body:
            if skip:  # the rest of a failed `a, b = unit(...)`
                skip -= 1
                continue
            try:
                r = self.stmt(st)
            except TypeErr as e:
                self.error(e.pos, e.reason)
                skip = 2 if isinstance(st, s.SPairHead) else 0
                continue
            if r is not None:
                out.append(r)
        return tuple(out)

    def stmt(self, st):
        if isinstance(st, s.SPass):
            return None
        if isinstance(st, s.SReturn):
            return Return(st.pos)
        if isinstance(st, s.SIf):
            try:
                cond = self.ex.cond(st.cond, "if")
            except TypeErr as e:  # still check the branches: every error of the rule is reported
                self.error(e.pos, e.reason)
                cond = None
            before = self.scope.assigned
            then = self._branch(st.body, before)
            after_then = self.scope.assigned
            orelse = self._branch(st.orelse, before)
            if before is not None:
                self.scope.assigned = after_then & self.scope.assigned
            return None if cond is None else If(cond, then, orelse, st.pos)
        if id(st) in self.bad_targets:
            return None
        if self.scope.block == "each" and isinstance(st, s.SAug) and isinstance(st.target, s.Name) \
                and st.target.id in self.scope.sums:
            return self.accumulate(st)
        target = self.target(st.target)
        value = self.ex.expr(st.value)
        if isinstance(st, s.SAug):
            self.scope.note_read(target)  # `vx += e` reads vx
            value = self.ex.binary(st.op, target, value, st.pos)
        value = self.ex.narrow(value)
        (_, value), t = self.ex.unify([target, value], st.pos, f"the assignment to {target.name}", allow_bool=True)
        if self.scope.assigned is not None and target.kind == "local":
            self.scope.assigned.add(target.name)
        if isinstance(t, TVar) or t == LIT:
            return None  # only inferring
        return Assign(target, value, st.pos)

    def _branch(self, body, before):
        if before is not None:
            self.scope.assigned = set(before)
        return self.stmts(body)

    def target(self, node) -> Ref:
        sc = self.scope
        if isinstance(node, s.Attr):
            if node.base == "self" and node.field in ("vx", "vy"):
                node = s.Name(node.field, node.pos)
            elif node.base == "self":
                raise TypeErr(node.pos, f"self.{node.field} is read-only: a rule changes vx, vy and its state")
            else:
                raise TypeErr(node.pos, f"{node.base}.{node.field} is read-only")
        name = node.id
        if name in ("vx", "vy"):
            if sc.block == "each":
                raise TypeErr(node.pos, f"'{name}': the velocity changes in apply, not in each")
            sc.writes.add(name)
            return Ref("self", name, F, node.pos)
        if name in sc.locals[sc.block]:
            return Ref("local", name, sc.locals[sc.block][name], node.pos)
        if sc.block != "each" and name in sc.state:
            sc.writes.add(name)
            return Ref("state", name, sc.state[name], node.pos)
        raise TypeErr(node.pos, sc.define_problem(name, "local") or f"'{name}' cannot be assigned here")

    def accumulate(self, st: s.SAug) -> Accumulate | None:
        name = st.target.id
        value = self.ex.expr(st.value)
        tv, te = resolve(value.type), resolve(self.scope.sums[name])
        if tv in (B, Type.SQUARE) or tv in (Type.SUM_FIXED, Type.SUM_INT):
            raise TypeErr(st.pos, f"a sum adds fixed or int values, not {tv}")
        if isinstance(te, TVar):
            if tv in (F, I):
                te.ref = tv
            elif isinstance(tv, TVar) and tv is not te:
                tv.ref = te
            return None
        if tv == LIT:
            value = self.ex.settle(value, te)
        elif isinstance(tv, TVar):
            tv.ref = te
            return None
        elif tv != te:
            raise TypeErr(st.pos, f"type mismatch: the sum '{name}' adds {te} values, this is {tv}")
        return Accumulate(name, "acc_add" if st.op == "+" else "acc_sub", value, st.pos)
