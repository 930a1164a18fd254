"""Parse a rule block with Python's `ast` and keep only the language.

The block is ordinary Python syntax, parsed by `ast.parse` (no code is ever
compiled or run), then walked against a WHITELIST: every node class not
handled here is refused with a located reason, so anything Python adds later
is refused too. Kept: assignments (one plain name, or self.vx / self.vy, per
`=`), `+=` `-=` `*=`, if / elif / else, pass, and `return` in a before
block; `+ - * /`, unary `-` and `+`,
comparisons (chains become `and`), `and or not`, `a if c else b`, calls of a
plain name with positional arguments, names, `base.field` attributes one
level deep, int / decimal / True / False literals.

Bounds, so a hostile body costs little: at most MAX_LINES lines and
MAX_CHARS characters, expressions at most MAX_DEPTH deep, if-statements
nested at most MAX_NESTING deep. Names are lower-case ASCII
([a-z][a-z0-9_]*): no dunders, no look-alike letters. Before `ast` sees
the text, `lexscan` refuses what its parser would silently change or build
at any cost: non-ASCII letters (NFKC folds `ｖｘ` into `vx`) and numbers
past codegen/spec/number_text.py's bounds (`1e999999999`).
"""
from __future__ import annotations

import ast
import re
from fractions import Fraction

from codegen.lang import syntax as s
from codegen.lang.ir import Pos
from codegen.lang.lexscan import lexical_problems
from codegen.lang.locate import Block
from codegen.lang.scope import FUNCTIONS, PAIRS

MAX_LINES = 200
MAX_CHARS = 16000
MAX_DEPTH = 32
MAX_NESTING = 16
INT_MAX = 2**31 - 1

NAME_RE = re.compile(r"[a-z][a-z0-9_]*\Z")

_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
_REFUSED_BINOP = {
    ast.Mod: "% is not in the language (its sign differs between C and Python)",
    ast.FloorDiv: "// is not in the language (Python floors, C truncates): use /, which truncates",
    ast.Pow: "** is not in the language: write x * x",
    ast.LShift: "shifts are not in the language", ast.RShift: "shifts are not in the language",
    ast.BitAnd: "bitwise operators are not in the language", ast.BitOr: "bitwise operators are not in the language",
    ast.BitXor: "bitwise operators are not in the language", ast.MatMult: "@ is not in the language",
}
_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_REFUSED_EXPR = {
    ast.Lambda: "lambdas are not allowed", ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed", ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "comprehensions are not allowed", ast.JoinedStr: "f-strings are not allowed",
    ast.FormattedValue: "f-strings are not allowed", ast.NamedExpr: "the walrus operator (:=) is not allowed",
    ast.Subscript: "subscripts (a[i]) are not allowed", ast.Starred: "* unpacking is not allowed",
    ast.List: "lists are not values in a rule", ast.Tuple: "tuples are not values in a rule",
    ast.Set: "sets are not values in a rule", ast.Dict: "dicts are not values in a rule",
    ast.Await: "await is not allowed", ast.Yield: "yield is not allowed", ast.YieldFrom: "yield is not allowed",
    ast.Slice: "slices are not allowed",
}
_REFUSED_STMT = {
    ast.For: "loops are not allowed (each already runs once per neighbour)",
    ast.AsyncFor: "loops are not allowed (each already runs once per neighbour)",
    ast.While: "loops are not allowed (each already runs once per neighbour)",
    ast.FunctionDef: "function definitions are not allowed",
    ast.AsyncFunctionDef: "function definitions are not allowed",
    ast.ClassDef: "class definitions are not allowed", ast.Import: "imports are not allowed",
    ast.ImportFrom: "imports are not allowed", ast.AnnAssign: "no annotations: types are inferred",
    ast.Expr: "an expression alone does nothing (assign it, or compare it in an if)",
}


class _Src:
    """The block's lines, to find operators between two ast nodes and to turn
    ast's UTF-8 byte columns into character columns."""

    def __init__(self, text: str) -> None:
        self.lines = [ln.encode("utf-8") for ln in text.split("\n")]

    def char_col(self, line: int, byte_col: int) -> int:
        raw = self.lines[line - 1] if 0 < line <= len(self.lines) else b""
        return len(raw[:byte_col].decode("utf-8", errors="replace"))

    def token_after(self, line: int, col: int) -> tuple[int, int]:
        """The first character at or after (line, byte col) that is not space,
        `)`, a line continuation or a comment: an operator's first character."""
        while 0 < line <= len(self.lines):
            raw = self.lines[line - 1]
            while col < len(raw):
                ch = raw[col:col + 1]
                if ch == b"#":
                    break
                if ch not in (b" ", b"\t", b")", b"\\", b"\r", b"\f"):
                    return line, col
                col += 1
            line, col = line + 1, 0
        return line, 0


class Parser:
    def __init__(self, block: Block, allow_return: bool = False) -> None:
        self.block = block
        self.allow_return = allow_return
        self.src = _Src(block.text)
        self.errors: list[tuple[Pos, str]] = []

    # --- positions ---
    def pos(self, node: ast.AST) -> Pos:
        return self.at(node.lineno, node.col_offset)

    def at(self, line: int, byte_col: int) -> Pos:
        return self.block.where(line, self.src.char_col(line, byte_col))

    def between(self, left: ast.AST, right: ast.AST) -> Pos:
        line, col = self.src.token_after(left.end_lineno, left.end_col_offset)
        if (line, col) > (right.lineno, right.col_offset):
            return self.pos(right)
        return self.at(line, col)

    def error(self, pos: Pos, reason: str) -> None:
        self.errors.append((pos, reason))

    def lexically_clean(self, text: str) -> bool:
        """Report the tokens lexscan refuses; True when there are none."""
        problems = lexical_problems(text)
        for line, col, reason in problems:
            self.error(self.block.where(line, col), reason)
        return not problems

    # --- entry ---
    def parse(self) -> tuple:
        text = self.block.text
        lines = text.split("\n")
        if len(lines) > MAX_LINES + 1 or (len(lines) == MAX_LINES + 1 and lines[-1].strip()):
            self.error(self.block.where(MAX_LINES + 1, 0), f"a block holds at most {MAX_LINES} lines")
            return ()
        if len(text) > MAX_CHARS:
            self.error(self.block.start, f"a block holds at most {MAX_CHARS} characters")
            return ()
        if not self.lexically_clean(text):
            return ()
        try:
            tree = ast.parse(text, mode="exec")
        except SyntaxError as e:
            line = e.lineno or 1
            col = max((e.offset or 1) - 1, 0)  # SyntaxError.offset counts characters from 1
            self.error(self.block.where(line, col), f"syntax error: {e.msg}")
            return ()
        except (RecursionError, MemoryError):
            self.error(self.block.start, f"nested too deeply to parse (expressions nest at most {MAX_DEPTH} deep)")
            return ()
        except ValueError as e:  # a NUL character
            self.error(self.block.start, f"cannot parse: {e}")
            return ()
        return self.stmts(tree.body, 0)

    # --- statements ---
    def stmts(self, body: list, nesting: int) -> tuple:
        out = []
        for node in body:
            st = self.stmt(node, nesting)
            if isinstance(st, tuple):  # a, b = unit(...): its statements (pair_assign)
                out.extend(st)
            elif st is not None:
                out.append(st)
        return tuple(out)

    def stmt(self, node: ast.stmt, nesting: int):
        if isinstance(node, ast.Assign):
            if len(node.targets) != 1:
                return self.error(self.pos(node), "one target per assignment (a = b = c is not allowed)")
            if isinstance(node.targets[0], ast.Tuple):
                return self.pair_assign(node)
            target = self.target(node.targets[0])
            value = self.expr(node.value, 1) if target is not None else None
            if value is None:
                return None
            return s.SAssign(target, value, self.between(node.targets[0], node.value))
        if isinstance(node, ast.AugAssign):
            op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}.get(type(node.op))
            where = self.between(node.target, node.value)
            if op is None:
                return self.error(where, "only +=, -= and *= update a name in place")
            target = self.target(node.target)
            value = self.expr(node.value, 1) if target is not None else None
            if value is None:
                return None
            return s.SAug(target, op, value, where)
        if isinstance(node, ast.If):
            if nesting >= MAX_NESTING:
                return self.error(self.pos(node), f"if-statements nest at most {MAX_NESTING} deep")
            cond = self.expr(node.test, 1)
            body = self.stmts(node.body, nesting + 1)
            orelse = self.stmts(node.orelse, nesting + 1)
            return None if cond is None else s.SIf(cond, body, orelse, self.pos(node))
        if isinstance(node, ast.Pass):
            return s.SPass(self.pos(node))
        if isinstance(node, ast.Return):
            if not self.allow_return:
                return self.error(self.pos(node), "return is only allowed in before (it ends the boid's frame)")
            if node.value is not None:
                return self.error(self.pos(node.value), "return takes no value (it ends the boid's frame)")
            return s.SReturn(self.pos(node))
        reason = _REFUSED_STMT.get(type(node))
        if reason is None:
            word = type(node).__name__.lower()
            reason = f"'{word}' statements are not in the language"
        return self.error(self.pos(node), reason)

    def pair_assign(self, node: ast.Assign):
        """`a, b = unit(x, y)` / `rotate(x, y, t)`: a hidden local takes the first
        component, b the second, then a the local, so the arguments are read
        before either target changes (`vx, vy = rotate(vx, vy, t)`)."""
        tup, call = node.targets[0], node.value
        where = self.between(tup, call)
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in PAIRS):
            return self.error(self.pos(tup), "one name per assignment (two only from a function of two "
                                             "values: `ux, uy = unit(x, y)`, `rx, ry = rotate(x, y, a)`)")
        if len(tup.elts) != 2:
            return self.error(self.pos(tup), f"{call.func.id}() gives two values: assign two names")
        want = FUNCTIONS[call.func.id]
        if len(call.args) != want or call.keywords:
            return self.error(self.pos(call.func), f"{call.func.id}() takes {want} arguments, got {len(call.args)}")
        a, b = (self.target(e) for e in tup.elts)
        value = self.expr(call, 1) if a is not None and b is not None else None
        if value is None:
            return None
        first, second = PAIRS[call.func.id]
        hidden = s.Name(f"{call.func.id}_{value.pos.line}_{value.pos.col}", value.pos)
        return (s.SPairHead(hidden, s.Call(first, value.args, value.pos), where),
                s.SAssign(b, s.Call(second, value.args, value.pos), where),
                s.SAssign(a, hidden, where))

    def target(self, node: ast.expr):
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Attribute):
            return self.attr(node)
        if isinstance(node, (ast.Tuple, ast.List)):
            return self.error(self.pos(node), "one name per assignment (no unpacking)")
        return self.error(self.pos(node), "only a name (or self.vx, self.vy) can be assigned")

    # --- expressions ---
    def expr(self, node: ast.expr, depth: int):
        if depth > MAX_DEPTH:
            return self.error(self.pos(node), f"expression nested deeper than {MAX_DEPTH} levels")
        d = depth + 1
        if isinstance(node, ast.BinOp):
            where = self.between(node.left, node.right)
            op = _ARITH.get(type(node.op))
            if op is None:
                return self.error(where, _REFUSED_BINOP.get(type(node.op), "operator not in the language"))
            left = self.expr(node.left, d)
            right = self.expr(node.right, d) if left is not None else None  # one error per expression
            return None if right is None else s.Binary(op, left, right, where)
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand, d)
            if isinstance(node.op, ast.UAdd):
                return operand
            op = {ast.USub: "-", ast.Not: "not"}.get(type(node.op))
            if op is None:
                return self.error(self.pos(node), "bitwise operators are not in the language")
            return None if operand is None else s.Unary(op, operand, self.pos(node))
        if isinstance(node, ast.Compare):
            return self.compare(node, d)
        if isinstance(node, ast.BoolOp):
            op = "and" if isinstance(node.op, ast.And) else "or"
            parts = self.all(node.values, d)
            if parts is None:
                return None
            out = parts[0]
            for i in range(1, len(parts)):
                out = s.Logic(op, out, parts[i], self.between(node.values[i - 1], node.values[i]))
            return out
        if isinstance(node, ast.IfExp):
            parts = self.all([node.test, node.body, node.orelse], d)
            return None if parts is None else s.IfElse(*parts, self.pos(node))
        if isinstance(node, ast.Call):
            return self.call(node, d)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Attribute):
            return self.attr(node)
        if isinstance(node, ast.Constant):
            return self.constant(node)
        reason = _REFUSED_EXPR.get(type(node), f"'{type(node).__name__}' is not in the language")
        return self.error(self.pos(node), reason)

    def all(self, nodes: list, d: int):
        """The expressions, or None at the first that fails (one error per expression)."""
        out = []
        for n in nodes:
            x = self.expr(n, d)
            if x is None:
                return None
            out.append(x)
        return out

    def compare(self, node: ast.Compare, d: int):
        items = [node.left] + list(node.comparators)
        parts = self.all(items, d)
        if parts is None:
            return None
        out = None
        for i, op in enumerate(node.ops):
            where = self.between(items[i], items[i + 1])
            sym = _CMP.get(type(op))
            if sym is None:
                word = {ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}[type(op)]
                return self.error(where, f"'{word}' is not in the language: compare with == or !=")
            cmp = s.Compare(sym, parts[i], parts[i + 1], where)
            out = cmp if out is None else s.Logic("and", out, cmp, where)
        return out

    def call(self, node: ast.Call, d: int):
        if not isinstance(node.func, ast.Name):
            return self.error(self.pos(node.func), "only the language's functions can be called, by their plain name")
        if not NAME_RE.match(node.func.id):
            return self.error(self.pos(node.func), f"'{node.func.id}' is not a function of the rule language")
        if node.keywords:
            return self.error(self.pos(node.keywords[0].value), "no keyword arguments")
        args = self.all(node.args, d)
        return None if args is None else s.Call(node.func.id, tuple(args), self.pos(node.func))

    def name(self, node: ast.Name):
        if not NAME_RE.match(node.id):
            return self.error(self.pos(node), f"'{node.id}' is not a name of the language "
                                              "(lower-case ASCII letters, digits and _, starting with a letter)")
        return s.Name(node.id, self.pos(node))

    def attr(self, node: ast.Attribute):
        if not isinstance(node.value, ast.Name):
            return self.error(self.pos(node), "attribute chains are not allowed: only name.field, such as other.x")
        base = self.name(node.value)
        if base is None:
            return None
        if not NAME_RE.match(node.attr):
            return self.error(self.pos(node), f"'{node.attr}' is not a field name")
        return s.Attr(base.id, node.attr, base.pos)

    def constant(self, node: ast.Constant):
        v = node.value
        if isinstance(v, bool):
            return s.Bool(v, self.pos(node))
        if isinstance(v, int):
            if abs(v) > INT_MAX:
                return self.error(self.pos(node), f"literal {v} is too large (beyond 32 bits)")
            return s.Num(v, False, self.pos(node))
        if isinstance(v, float):
            text = ast.get_source_segment(self.block.text, node) or repr(v)
            try:
                value = Fraction(text.replace("_", ""))
            except (ValueError, ZeroDivisionError):
                value = Fraction(v) if v == v and abs(v) != float("inf") else Fraction(2**40)
            if abs(value) > INT_MAX:
                return self.error(self.pos(node), f"literal {text} is too large for fixed point")
            return s.Num(value, True, self.pos(node))
        kind = {str: "strings are", bytes: "bytes are", complex: "complex numbers are"}.get(type(v), f"{v!r} is")
        return self.error(self.pos(node), f"{kind} not a value in a rule")


def parse_expr(block: Block) -> tuple[object, list[tuple[Pos, str]]]:
    """One expression (a state's initial value): (untyped tree or None, errors)."""
    p = Parser(block)
    if len(block.text) > MAX_CHARS:
        p.error(block.start, f"an expression holds at most {MAX_CHARS} characters")
        return None, p.errors
    if not p.lexically_clean(block.text):
        return None, p.errors
    try:
        tree = ast.parse(block.text.strip(), mode="eval")
    except SyntaxError as e:
        p.error(block.where(e.lineno or 1, max((e.offset or 1) - 1, 0)), f"syntax error: {e.msg}")
        return None, p.errors
    except (RecursionError, MemoryError):
        p.error(block.start, f"nested too deeply to parse (expressions nest at most {MAX_DEPTH} deep)")
        return None, p.errors
    except ValueError as e:
        p.error(block.start, f"cannot parse: {e}")
        return None, p.errors
    return p.expr(tree.body, 1), p.errors


def parse_block(block: Block, allow_return: bool = False) -> tuple[tuple, list[tuple[Pos, str]]]:
    """The block's statements (untyped) and its errors, each (position, reason)."""
    p = Parser(block, allow_return)
    body = p.parse()
    return body, p.errors
