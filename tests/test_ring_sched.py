"""The mirror's additions to the ring entry, software-pipelined
(codegen/targets/pic32/ring_sched.py): each field loaded two statements ahead and
held there (FX_LOADED), the same stores in the same order; what it cannot move stays as written. The
bits are the parity tests' (every spec that visits each pair once)."""
from __future__ import annotations

from codegen.targets.pic32.ring_sched import pipelined


class _Plan:
    def __init__(self):
        self.taken: set = set()

    def alloc_name(self, name):
        k, cand = 2, name
        while cand in self.taken:
            cand, k = f"{name}_{k}", k + 1
        self.taken.add(cand)
        return cand


TYPES = {"n": "int32_t", "sx": "fx_acc32", "sy": "fx_acc32", "w": "fx_acc"}


def test_a_run_loads_two_ahead_and_stores_in_order():
    body = ["q0->n++;", "/* alignment */", "q0->sx = fx_add(q0->sx, vx);", "q1->sy = fx_sub(q1->sy, mdy);",
            "fx_acc_add_to(&q1->w, fx_mul(mdx, k));"]
    out = pipelined(_Plan(), body, TYPES)
    assert out == ["const int32_t was_n = q0->n;",
                   "FX_LOADED(was_n);",
                   "const fx_acc32 was_sx = q0->sx;",
                   "FX_LOADED(was_sx);",
                   "q0->n = was_n + 1;",
                   "const fx_acc32 was_sy = q1->sy;",
                   "FX_LOADED(was_sy);",
                   "/* alignment */",
                   "q0->sx = fx_add(was_sx, vx);",
                   "const fx_acc was_w = q1->w;",
                   "FX_LOADED(was_w);",
                   "q1->sy = fx_sub(was_sy, mdy);",
                   "q1->w = fx_acc_add(was_w, fx_mul(mdx, k));"]
    stores = [ln.split(" = ")[0] for ln in out if ln.startswith("q")]
    assert stores == ["q0->n", "q0->sx", "q1->sy", "q1->w"]


def test_what_it_cannot_move_stays():
    # one addition alone: as written
    assert pipelined(_Plan(), ["q0->n++;"], TYPES) == ["q0->n++;"]
    # a value that reads the entry ends the run; so does a field's second addition
    body = ["q0->sx = fx_add(q0->sx, q0->n);", "q0->n++;", "q0->n++;", "q0->sy = fx_add(q0->sy, vy);"]
    out = pipelined(_Plan(), body, TYPES)
    assert out[0] == "q0->sx = fx_add(q0->sx, q0->n);"
    assert out[1] == "q0->n++;" and out[2:] == ["const int32_t was_n = q0->n;",
                                                "FX_LOADED(was_n);",
                                                "const fx_acc32 was_sy = q0->sy;",
                                                "FX_LOADED(was_sy);",
                                                "q0->n = was_n + 1;",
                                                "q0->sy = fx_add(was_sy, vy);"]
    # nested code (a rule's if) is not a straight run
    body = ["if (mdist < r) {", "    q0->n++;", "    q0->sx = fx_add(q0->sx, vx);", "}"]
    assert pipelined(_Plan(), body, TYPES) == body


def test_the_others_fields_load_ahead_of_the_first_add():
    # each field of the other boid once, in the order read, but its position (the visit loaded it)
    from codegen.targets.pic32.gcc_o1 import loads_ahead
    body = ["n_visual++;", "/* alignment */", "alignment_sum_vx = fx_add(alignment_sum_vx, o->vx);",
            "alignment_sum_vy = fx_add(alignment_sum_vy, o->vy);", "cohesion_sum_x = fx_add(cohesion_sum_x, o->x);",
            "if (o->st_mood > 0) s = fx_add(s, o->vx);"]
    assert loads_ahead(body) == ["FX_LOADED(o->vx);", "FX_LOADED(o->vy);", "FX_LOADED(o->st_mood);"]
    assert loads_ahead(["cohesion_sum_x = fx_add(cohesion_sum_x, o->x);"]) == []


def test_the_default_grid_holds_its_loads():
    # the committed default spec's pair loop: the other's velocity loaded before the first add
    from pathlib import Path
    c = (Path(__file__).resolve().parents[1] / "generated" / "boids" / "firmware" / "boids_flock.c").read_text()
    body = c[c.index("} else if (in_visual < 0) {"):]
    assert body.index("FX_LOADED(o->vx);") < body.index("FX_LOADED(o->vy);") < body.index("alignment_sum_vx = fx_add(")
