"""The mirror's additions to the other boid's ring entry (pairs_once,
printed by codegen/targets/c/mirror.py), software-pipelined: each field is
loaded two statements before its add.

At -O1 GCC emits them in source order, so `q0->s = fx_add(q0->s, e)` is a
load and, right after it, the add that waits for it: one load-use cycle on
the M4K each field, each pair in range (500-boid grid: 40k cycles a frame).
Loaded ahead, no add waits, and at most two loaded values are live, so no
register spills. Each load is followed by FX_LOADED (fixed.h): a value read
once would otherwise be sunk back to its add. Only straight runs are moved:
the statements of the mirror's own block that add to a field of the entry,
each field once, from values that read no field of the entry. Same loads,
same stores, in the same order per field: the same bits.

GCC -O1's alone: the ring_sched pass (gcc_o1.py) records `pipelined` as
Lowered.mirror_sched, and the C printer applies what it finds there."""
from __future__ import annotations

import re

_ACC = re.compile(r"^(q\d+)->(\w+)(\+\+|--| = fx_(add|sub)\(\1->\2, (.*)\));$")  # ++, --, a 32-bit sum
_ACC64 = re.compile(r"^fx_acc_(add|sub)_to\(&(q\d+)->(\w+), (.*)\);$")  # a 64-bit sum (fixed_sums.h)
_READS_ENTRY = re.compile(r"\bq\d*\b")


def _parse(line: str):
    """(pointer, field, new value of `{v}`) of an addition to an entry field, else None."""
    m64 = _ACC64.match(line)
    if m64:
        op, ptr, field, value = m64.groups()
        fn = f"fx_acc_{op}"
    else:
        m = _ACC.match(line)
        if not m:
            return None
        ptr, field, how = m.group(1), m.group(2), m.group(3)
        if how in ("++", "--"):
            return ptr, field, "{v} " + how[0] + " 1"
        fn, value = f"fx_{m.group(4)}", m.group(5)
    if _READS_ENTRY.search(value):
        return None
    return ptr, field, f"{fn}({{v}}, {value})"


def pipelined(plan, body: list, ctypes: dict) -> list:
    """The mirror's body with its runs of additions pipelined; other lines as they are."""
    out, run = [], []  # run: (comments before it, pointer, field, value, the line)
    pending: list = []  # comment lines not yet placed

    def flush():
        if len(run) < 2:
            for comments, *_, line in run:
                out.extend(comments + [line])
        else:
            names = [plan.alloc_name(f"was_{field}") for _, _, field, _, _ in run]

            def load(i):
                _, ptr, field, _, _ = run[i]
                return [f"const {ctypes[field]} {names[i]} = {ptr}->{field};", f"FX_LOADED({names[i]});"]

            for i in range(2):
                out.extend(load(i))
            for i, (comments, ptr, field, value, _) in enumerate(run):
                out.extend(comments)
                out.append(f"{ptr}->{field} = {value.format(v=names[i])};")
                if i + 2 < len(run):
                    out.extend(load(i + 2))
        run.clear()

    for line in body:
        if line.startswith("/*") and line.endswith("*/"):
            pending.append(line)
            continue
        acc = _parse(line)
        if acc and all(acc[1] != f for _, _, f, _, _ in run):
            run.append((pending[:], *acc, line))
            pending.clear()
            continue
        flush()
        out.extend(pending)
        pending.clear()
        if acc:
            run.append(([], *acc, line))
        else:
            out.append(line)
    flush()
    out.extend(pending)
    return out
