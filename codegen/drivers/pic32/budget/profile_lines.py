"""Which part of a frame each line of a generated boids_flock.c belongs to,
for `boidsgen budget --profile` (codegen/drivers/pic32/budget/profile.py): read from the
structure of the generated boids_step (codegen/targets/c/emit.py prints it):
the boid loop, the pair loop inside it with its box test, each rule's code
under its `/* rule */` comment, the grid's sort, band walk and windows.
A line the reading does not place is "other" (never dropped: the profile's
parts always add up to the frame).
"""
from __future__ import annotations

import re

PAIR_CAND = "pair loop: per candidate pair (load, dx, dy, box test)"
PAIR_ROW = "pair loop: per window (grid)"
PAIR_BOX = "pair loop: per in-box pair (squared distance, range tests)"
BOID = "per boid: loop, loads, stores, position"
DIV = "divisions (__divdi3 & co., div)"
SQRT = "square roots (fx_isqrt64)"
GRID_BUILD = "grid build (sort by band and x)"
GRID_WALK = "grid: band walk"
SETUP = "frame setup"
MEM = "memcpy/memset"
OTHER = "other"
HARNESS = "harness (the markers' call and return)"


def pair_rule(name: str) -> str:
    return f"pair loop: {name} sums"


def boid_rule(name: str) -> str:
    return f"per boid: {name}"


def _close(lines: list[str], start: int) -> int:
    """Index of the line closing the brace opened on or after `start`."""
    depth = 0
    opened = False
    for i in range(start, len(lines)):
        for ch in lines[i]:
            if ch == "{":
                depth += 1
                opened = True
            elif ch == "}":
                depth -= 1
        if opened and depth <= 0:
            return i
    return len(lines) - 1


def _y_test(line: str) -> bool:
    """The line ending a candidate's part: its box test, or the grid
    window's y line (flock_grid.j2: a test, or none in an inner band)."""
    return "fx_outside_box(" in line or "/* y: " in line


def rule_names(text: str) -> list[str]:
    m = re.search(r"The rules, in spec order: ([^.]*)\.", text)
    return [r.strip() for r in m.group(1).split(",")] if m else []


def label_lines(text: str) -> dict[int, str]:
    """1-based line number -> part, for the lines of boids_step and of the
    grid's helper (grid_band)."""
    lines = text.splitlines()
    rules = set(rule_names(text))
    out: dict[int, str] = {}

    def put(i: int, lab: str):
        out[i + 1] = lab

    # the grid's helpers (flock_grid.j2): the sort, the windows, a band's start
    helpers = ((r"static (inline )?(int32_t|void) (grid_band|band_sort)\(", GRID_BUILD),
               (r"static inline const boid_t \*band_(window(_hi)?|left)\(", PAIR_ROW),
               (r"static inline void band_window_start\(", GRID_WALK))
    for i, ln in enumerate(lines):
        for pattern, lab in helpers:
            if re.match(pattern, ln):
                for k in range(i, _close(lines, i) + 1):
                    put(k, lab)
    # the fast copy when there are two (guards.py, pairs_once.py): the one the default parameters run;
    # and its twin for a frame with flagged boids (pairs_once.py), which runs after it
    copies = [i for i, ln in enumerate(lines) if re.match(r"(BOIDS_STEP_COPY\(\w+\) |void )boids_step(_guarded|_once)?\(", ln)][:1]
    copies += [i for i, ln in enumerate(lines) if ln.startswith("BOIDS_STEP_COPY(void) boids_step_flagged(")]
    for f0 in copies:
        _label_copy(lines, f0, rules, put)
    return out


def _label_copy(lines: list[str], f0: int, rules: set, put) -> None:
    """The parts of the lines of one copy of boids_step, from its first line `f0`."""
    comment = re.compile(r"^\s*/\* (\w+) \*/\s*$")
    f1 = _close(lines, f0)
    body = next((i for i in range(f0, f1) if re.search(r"boid_t \*(const )?b = ", lines[i])), None)
    if body is None:
        for k in range(f0, f1 + 1):
            put(k, OTHER)
        return
    head = next(i for i in range(body, f0, -1) if lines[i].lstrip().startswith("for ("))
    hend = _close(lines, head)
    # the band walk: the last gy loop before the boid loop (a ring check may loop over the bands before it)
    walk = next((i for i in range(head, f0, -1) if re.match(r"\s*for \(gy = ", lines[i])), None)
    pre_end = walk if walk is not None else head
    state = SETUP
    for k in range(f0, pre_end):
        if state == SETUP and re.search(r"\bcell\b|grid_|band_", lines[k]) and "previous" not in lines[k]:
            state = GRID_BUILD
        put(k, state)
    if walk is not None:
        for k in list(range(walk, head)) + list(range(hend + 1, _close(lines, walk) + 1)):
            put(k, GRID_WALK)
    for k in range(_close(lines, walk) + 1 if walk is not None else hend + 1, f1 + 1):
        put(k, SETUP)
    # the pair loops (the grid's once-only loop has one a window or two), each with its y or box test
    loop = re.compile(r"\s*for \((;; |; [^;]*; |o = [^;]*; [^;]*; )o\+\+\)")
    loops = []
    k = body
    while k < hend:
        if loop.match(lines[k]):
            end = _close(lines, k)
            loops.append((k, end, next((i for i in range(k, end) if _y_test(lines[i])), k)))
            k = end
        k += 1
    # the grid's windows (and the own band's window sums, window_sums.py): from the first
    # window line to the last pair loop, outside the loops
    win = next((i for i in range(body, hend) if re.search(r"for \(gr = |band_win(dow|\.)", lines[i])), None)
    last = loops[-1][1] if loops else None
    wend = last + 1 if last is not None and lines[last + 1].strip() == "}" else last  # the window's block closes
    cur = BOID
    after = False
    for k in range(head, hend + 1):
        ln = lines[k]
        inside = next(((p0, p1, bx) for p0, p1, bx in loops if p0 <= k <= p1), None)
        if inside:
            p0, p1, bx = inside
            if k <= bx or k == p1:
                lab = PAIR_CAND
            else:
                m = comment.match(ln)
                if m and m.group(1) in rules:
                    cur = pair_rule(m.group(1))
                elif re.match(r"\s*(\}|if \(|\} else)", ln) or cur == BOID:
                    cur = PAIR_BOX
                lab = cur
            put(k, lab)
            if k == p1:
                cur = BOID
                after = k == last
            continue
        if win is not None and last is not None and win <= k <= wend:
            put(k, PAIR_ROW)  # the windows between the loops
            continue
        if after:
            m = comment.match(ln)
            if m and m.group(1) in rules:
                cur = boid_rule(m.group(1))
            elif not ln.strip() or re.match(r"\s*b->", ln):
                cur = BOID
            elif re.match(r"\}\s*$", ln.strip()) and ln.startswith(" " * 8) is False:
                cur = BOID
        put(k, cur if after else BOID)
