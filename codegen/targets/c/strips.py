"""The visual zone by prefix sums over thin bands, printed: the strip_sums
pass (codegen/passes/strip_sums.py) chose the group and its terms
(Lowered.strips, a StripPlan); this prints the prefix sums' type, their
build once a frame, and the sums of a band's two runs into the boid's
group sums and count (flock_step_strips.j2 walks the runs)."""
from __future__ import annotations


def struct(plan) -> list:
    """strip_pre[s]: the sums of previous[0 .. s - 1]'s fields (flock_grid.j2),
    64-bit: exact for the wide copy's sums, and their low word the guarded
    copy's 32-bit ones (modulo 2^32)."""
    return (["typedef struct {", f"    fx_acc {', '.join(plan.fields)};", "} strip_pre_t;",
             "static strip_pre_t strip_pre[BOIDS_CAPACITY + 1];"])


def build(plan) -> list:
    """The prefix sums of the sorted copy's boids, once a frame after band_sort."""
    out = ["{ /* strip_pre: the sorted copy's prefix sums (strip_sums.py) */",
           "    int32_t s;",
           "    memset(&strip_pre[0], 0, sizeof strip_pre[0]);",
           "    for (s = 0; s < band_start[rows]; s++) {"]
    out += [f"        strip_pre[s + 1].{f} = strip_pre[s].{f} + previous[s].{f};" for f in plan.fields]
    return out + ["    }", "}"]


def runs(fc, plan) -> list:
    """A band's two runs [l1, l2) and [r1, r2) (slots a1 .. b1, a2 .. b2)
    into the boid's sums of the group and its count: prefix differences, at
    each sum's width in this copy (the guarded copy's may be 32-bit)."""
    g = fc.groups[plan.key]
    out = ["const int32_t a1 = (int32_t)(l1 - others), b1 = (int32_t)(l2 - others);",
           "const int32_t a2 = (int32_t)(r1 - others), b2 = (int32_t)(r2 - others);"]
    if g.count:
        out.append(f"{g.count} += (b1 - a1) + (b2 - a2);")
    for pos, s, f, sign, _ in plan.terms:
        c = fc.rules[pos].sums[s]
        bits = next(x.bits for x in fc.rules[pos].ir.sums if x.name == s)
        d = f"(strip_pre[b1].{f} - strip_pre[a1].{f}) + (strip_pre[b2].{f} - strip_pre[a2].{f})"
        if bits == 64:
            out.append(f"{c} {'+' if sign > 0 else '-'}= {d};")
        else:  # the 64-bit difference's low word is the 32-bit sum's (modulo 2^32)
            out.append(f"{c} = fx_{'add' if sign > 0 else 'sub'}({c}, fx_wrap64({d}));")
    return out
