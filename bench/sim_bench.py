"""Simulator step time for large flocks, against two baselines run in the
same process: the seed's pseudocode as a plain Python loop, and a dense
N x N numpy version of it (float64, rows in blocks to bound memory).

    python3 bench/sim_bench.py [--boids 1000 3000 10000] [--warmup 60] [--steps 5]

The simulator runs spec/boids.yaml's rules in fixed point (bit-exact with
the firmware) on a copy of the spec with synchronous order and a larger
capacity (rendered into build/bench/, where numba's cache of the kernel
survives between runs): the compiled kernel with its cell grid, the same
kernel visiting every pair, and the spec's own sequential order (in place,
every pair, as the C). Times are medians over --steps steps of a flock
after --warmup frames (the kernel's compile, or cache load, happens before
and is reported). The pure-Python loop is timed over a subset of the boids
(each boid's loop is independent) and scaled to N; it says so.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from codegen.drivers.pic32.budget.measure import render_variant, spec_variant  # noqa: E402
from codegen.spec.loader import load_spec  # noqa: E402
from pysim.engine import Simulation  # noqa: E402
from pysim.model_support import load_model  # noqa: E402

SPEC = str(ROOT / "spec" / "boids.yaml")


def params(sim: Simulation) -> dict:
    return {p.name: float(sim.params.value(p.name)) if hasattr(sim.params, "value") else None
            for p in sim.model.PARAMS}


def pure_python_rows(x, y, vx, vy, rows, P, W, H):
    """The seed's pseudocode (ECE 4760 boids lab), one boid at a time, for
    boids `rows` against all; float. Returns the new x of those rows."""
    vr, pr = P["visual_range"], P["protected_range"]
    vr2, pr2 = vr * vr, pr * pr
    n = len(x)
    out = []
    for i in rows:
        xa = ya = vxa = vya = 0.0
        nb = 0
        cdx = cdy = 0.0
        xi, yi = x[i], y[i]
        for j in range(n):
            if j == i:
                continue
            dx = xi - x[j]
            dy = yi - y[j]
            if abs(dx) < vr and abs(dy) < vr:
                d2 = dx * dx + dy * dy
                if d2 < pr2:
                    cdx += dx
                    cdy += dy
                elif d2 < vr2:
                    xa += x[j]
                    ya += y[j]
                    vxa += vx[j]
                    vya += vy[j]
                    nb += 1
        bvx, bvy = vx[i], vy[i]
        if nb > 0:
            xa, ya, vxa, vya = xa / nb, ya / nb, vxa / nb, vya / nb
            bvx += (xa - xi) * P["centering_factor"] + (vxa - bvx) * P["matching_factor"]
            bvy += (ya - yi) * P["centering_factor"] + (vya - bvy) * P["matching_factor"]
        bvx += cdx * P["avoid_factor"]
        bvy += cdy * P["avoid_factor"]
        if yi < P["top_margin"]:
            bvy += P["turn_factor"]
        if xi > W - P["right_margin"]:
            bvx -= P["turn_factor"]
        if xi < P["left_margin"]:
            bvx += P["turn_factor"]
        if yi > H - P["bottom_margin"]:
            bvy -= P["turn_factor"]
        s = math.sqrt(bvx * bvx + bvy * bvy)
        if s > 0 and s < P["min_speed"]:
            bvx, bvy = bvx / s * P["min_speed"], bvy / s * P["min_speed"]
        if s > P["max_speed"]:
            bvx, bvy = bvx / s * P["max_speed"], bvy / s * P["max_speed"]
        out.append(xi + bvx)
    return out


def dense_numpy(x, y, vx, vy, P, W, H, block=1000):
    """The same rules over the N x N matrix of pairs (numpy, float64)."""
    vr, pr = P["visual_range"], P["protected_range"]
    n = len(x)
    nvx, nvy = np.empty(n), np.empty(n)
    for a in range(0, n, block):
        e = min(n, a + block)
        dx = x[a:e, None] - x[None, :]
        dy = y[a:e, None] - y[None, :]
        box = (np.abs(dx) < vr) & (np.abs(dy) < vr)
        box[np.arange(e - a), np.arange(a, e)] = False
        d2 = dx * dx + dy * dy
        close = box & (d2 < pr * pr)
        vis = box & ~close & (d2 < vr * vr)
        nb = vis.sum(1)
        k = np.maximum(nb, 1)
        xa, ya = (vis @ x) / k, (vis @ y) / k
        vxa, vya = (vis @ vx) / k, (vis @ vy) / k
        bvx, bvy = vx[a:e].copy(), vy[a:e].copy()
        seen = nb > 0
        bvx += np.where(seen, (xa - x[a:e]) * P["centering_factor"] + (vxa - bvx) * P["matching_factor"], 0)
        bvy += np.where(seen, (ya - y[a:e]) * P["centering_factor"] + (vya - bvy) * P["matching_factor"], 0)
        bvx += (dx * close).sum(1) * P["avoid_factor"]
        bvy += (dy * close).sum(1) * P["avoid_factor"]
        nvx[a:e], nvy[a:e] = bvx, bvy
    xs, ys = x, y
    nvy += np.where(ys < P["top_margin"], P["turn_factor"], 0)
    nvx -= np.where(xs > W - P["right_margin"], P["turn_factor"], 0)
    nvx += np.where(xs < P["left_margin"], P["turn_factor"], 0)
    nvy -= np.where(ys > H - P["bottom_margin"], P["turn_factor"], 0)
    s = np.hypot(nvx, nvy)
    lo = (s > 0) & (s < P["min_speed"])
    hi = s > P["max_speed"]
    f = np.where(lo, P["min_speed"] / np.where(s > 0, s, 1), np.where(hi, P["max_speed"] / np.where(s > 0, s, 1), 1))
    return x + nvx * f, y + nvy * f


def median_time(fn, steps):
    ts = []
    for _ in range(steps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boids", type=int, nargs="+", default=[1000, 3000, 10000])
    ap.add_argument("--warmup", type=int, default=60)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--py-rows", type=int, default=150, help="boids the pure-Python loop times (scaled to N)")
    a = ap.parse_args()
    spec, _ = load_spec(SPEC)
    out = ROOT / "build" / "bench" / f"{spec.name}-synchronous-{max(a.boids)}"
    sp = spec_variant(spec, capacity=max(a.boids), order="synchronous")
    m = render_variant(sp, SPEC, out)
    model = load_model(out / "python" / "boids_model.py", expect_hash=m.hash)
    t = time.perf_counter()
    Simulation(model, seed=1, boids=2).step()
    print(f"spec '{spec.name}' (synchronous copy, capacity {max(a.boids)}), fixed point s16.15; "
          f"kernel ready in {time.perf_counter() - t:.1f} s (compile or cache load); "
          f"flock after {a.warmup} warm-up frames; median of {a.steps} steps")
    print("| N | grid ms | steps/s | every pair ms | sequential ms | dense numpy ms | pure Python ms "
          "| grid vs dense numpy | grid vs pure Python |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in a.boids:
        sim = Simulation(model, seed=1, boids=n)
        sim.pair_method = "grid"
        for _ in range(a.warmup):
            sim.step()
        t_cells = median_time(sim.step, a.steps)
        flock = [sim.b[k].copy() for k in ("x", "y", "vx", "vy")]
        every = {}
        for label, order in (("brute", "synchronous"), ("seq", "sequential")):
            d = Simulation(model, seed=1, boids=0, order=order)
            d.pair_method = "brute"
            d.load_state(*(c.copy() for c in flock))
            every[label] = f"{median_time(d.step, a.steps) * 1e3:.1f}"
        one = float(1 << model.FRAC_BITS)
        x, y, vx, vy = (sim.b[k] / one for k in ("x", "y", "vx", "vy"))
        P = {p.name: p.default_raw / one for p in model.PARAMS}
        W, H = model.WIDTH, model.HEIGHT
        t_np = median_time(lambda: dense_numpy(x, y, vx, vy, P, W, H), max(1, a.steps // 2))
        rows = range(min(n, a.py_rows))
        xl, yl, vxl, vyl = x.tolist(), y.tolist(), vx.tolist(), vy.tolist()
        t = time.perf_counter()
        pure_python_rows(xl, yl, vxl, vyl, rows, P, W, H)
        t_py = (time.perf_counter() - t) * n / len(rows)
        scaled = "" if len(rows) == n else f" (scaled from {len(rows)} boids)"
        print(f"| {n} | {t_cells * 1e3:.1f} | {1 / t_cells:.1f} | {every['brute']} | {every['seq']} | "
              f"{t_np * 1e3:.0f} | "
              f"{t_py * 1e3:.0f}{scaled} | {t_np / t_cells:.1f}x | {t_py / t_cells:.0f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
