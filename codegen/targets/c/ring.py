"""Each pair once, printed: the ring of accumulators as the pairs_once pass
decided it (codegen/passes/pairs_once.py: Lowered.ring, a RingPlan), named
with the printer's C names: its typedef, a boid's entry read into its sums,
and the fields the mirror (mirror.py) adds to."""
from __future__ import annotations


def named_planes(fc, ring) -> list:
    """The RingPlan's planes as (C type, C name) lists, for FlockC `fc`."""
    def named(bits, key):
        if key[0] == "count":
            return "int32_t", fc.groups[key[1]].count
        _, pos, s = key
        return ("fx_acc32" if bits == 32 else "fx_acc"), fc.rules[pos].sums[s]

    return [[named(bits, key) for bits, key in pl] for pl in ring.planes]


def fields(fc) -> list:
    """(C type, name) of the entry's fields, in order."""
    return [f for pl in fc.ring_planes for f in pl]


def ref(fc, who: str, name: str) -> str:
    """A field of the entry `who` (a: the boid's own, q: the other's)."""
    plane = next(k for k, pl in enumerate(fc.ring_planes) for _, n in pl if n == name)
    return f"{who}{plane}->{name}"


def pointers(fc, who: str, at: str, lines: list) -> list:
    """The entry's plane pointers the lines use, all from one address: each
    plane at a constant offset from it, one base register in the loop."""
    used = [k for k in range(len(fc.ring_planes)) if any(f"{who}{k}->" in ln for ln in lines)]
    if not used:
        return []
    return [f"char *const {who} = BOIDS_PAIR_ENTRY({at});"] + [
        f"pair_plane{k}_t *const {who}{k} = BOIDS_PAIR_PLANE({k}, {who});" for k in used]


def boid_decls(fc, at: str) -> list:
    """The boid's counts and sums, started from what earlier boids' visits
    left in its ring entry, which is then cleared for a later slot. `at`:
    the boid's address in `others` (the grid's loop walks it as `me`)."""
    out = []
    if at != "me" and not fc.start_locals and any(r.ir.reads_each.other_fields
                                                  for g in fc.groups.values() for r in g.rules):
        out.append(f"const boid_t *const me = {at}; /* the boid as the others read it */")
    out += [f"{ctype} {name} = {ref(fc, 'a', name)};" for ctype, name in fields(fc)]
    out += [f"{ref(fc, 'a', name)} = 0;" for _, name in fields(fc)]
    return pointers(fc, "a", at, out) + out


def typedef(fc, ring) -> list:
    """The ring's planes, the ring, and the address of a boid's entry (boids_flock.c)."""
    width = ring.plane_bytes
    out = []
    for k, pl in enumerate(fc.ring_planes):
        pad = (width - sum(8 if t == "fx_acc" else 4 for t, _ in pl)) // 4
        out += ([f"typedef struct {{ /* plane {k}: {width} B */"] + [f"    {t} {n};" for t, n in pl]
                + ([f"    uint32_t pad[{pad}];"] if pad else []) + [f"}} pair_plane{k}_t;"])
    arrays = " ".join(f"pair_plane{k}_t plane{k}[BOIDS_PAIR_RING];" for k in range(len(fc.ring_planes)))
    out += [f"typedef struct {{ /* entry: {ring.entry_bytes} B */ {arrays} }} pair_ring_t;",
            "static pair_ring_t pair_ring;",
            "#define BOIDS_PAIR_PLANE(k, e) ((pair_plane##k##_t *)((e) + offsetof(pair_ring_t, plane##k)))"]
    if ring.by_address:
        out += ["/* the entry of the boid at `at` in `previous`: its address masked to the",
                " * ring, so slot s gets (floor(&previous[0] / sizeof(boid_t)) + s) mod",
                " * BOIDS_PAIR_RING, distinct for any BOIDS_PAIR_RING slots in a row */",
                "#define BOIDS_PAIR_ENTRY(at) ((char *)&pair_ring + ((uintptr_t)(at) & ((BOIDS_PAIR_RING - 1u) * sizeof(boid_t))))",
                "typedef char pair_plane_is_a_boid[sizeof(pair_plane0_t) == sizeof(boid_t) ? 1 : -1];"]
    else:
        out += ["/* the entry of the boid at `at` in `previous`: its slot in the ring, (at - others)",
                " * mod BOIDS_PAIR_RING, from the byte offset by a multiply (fixed_index.h's fx_exact_index) */",
                "#define BOIDS_PAIR_ENTRY(at) ((char *)&pair_ring.plane0[fx_exact_index((uint32_t)((const char *)(at) - "
                "(const char *)others), sizeof(boid_t)) & (BOIDS_PAIR_RING - 1)])",
                f"typedef char pair_entry_is_{width}_bytes[sizeof(pair_plane0_t) == {width} ? 1 : -1]; /* no hole the "
                "ring's RAM did not count */"]
    return out
