"""pysim/fxops.py: what numba costs and what it buys, measured in one run.

    python3 bench/fxops_bench.py [--boids 100] [--frames 2000] [--py-frames 40]

1. First compile (cold cache): a fresh interpreter with NUMBA_CACHE_DIR in
   an empty temp dir imports pysim.fxops and calls every function of the
   three namespaces (fx_, fl_, ck_) once, which compiles and caches each;
   then compiles the toy frame below (what a generated model would be).
2. Warm cache: a second fresh interpreter does the same from the cache.
3. The toy frame: a boids update in fixed point written as the generated
   simulator will be, scalar loops per boid and per neighbour (all pairs, a
   box test, the squared distance, the neighbour sums, cohesion, alignment,
   separation, edges, a speed limit; sequential order, in place), run for
   --frames frames of --boids boids compiled (the cached compile excluded),
   and the very same function as plain Python (NUMBA_DISABLE_JIT=1, so the
   fx_ functions are plain Python too) for --py-frames frames, scaled to
   --frames (each frame costs about the same; the output says so). Both end
   states are hashed: the plain-Python run is also checked against the
   compiled one frame for frame over its frames.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_T0 = time.perf_counter()
from pysim.fxops import (  # noqa: E402
    fx_abs, fx_acc_add, fx_acc_fx, fx_acc_mean, fx_add, fx_d2, fx_div, fx_hypot, fx_mul, fx_sub,
)

T_IMPORT = time.perf_counter() - _T0  # numba and pysim.fxops, in a fresh interpreter
FB = 15
ONE = 1 << FB
W, H = 320 * ONE, 240 * ONE
VISUAL = 40 * ONE
VIS2 = np.uint64(VISUAL * VISUAL)  # compared with fx_d2's uint64
PROT2 = np.uint64((8 * ONE) ** 2)
CENTERING = round(0.0005 * ONE)
MATCHING = round(0.05 * ONE)
AVOID = round(0.05 * ONE)
TURN = round(0.2 * ONE)
MARGIN = 50 * ONE
MAXS, MINS = 6 * ONE, 3 * ONE


def toy_frame(x, y, vx, vy):
    """One frame of a fixed-point flock, in place, boid after boid."""
    n = x.size
    for i in range(n):
        xi = x[i]
        yi = y[i]
        cdx = 0
        cdy = 0
        sx = 0
        sy = 0
        svx = 0
        svy = 0
        cnt = 0
        for j in range(n):
            if j != i:
                dx = fx_sub(xi, x[j])
                dy = fx_sub(yi, y[j])
                if fx_abs(dx) < VISUAL and fx_abs(dy) < VISUAL:
                    d = fx_d2(dx, dy)
                    if d < PROT2:
                        cdx = fx_acc_add(cdx, dx)
                        cdy = fx_acc_add(cdy, dy)
                    elif d < VIS2:
                        sx = fx_acc_add(sx, x[j])
                        sy = fx_acc_add(sy, y[j])
                        svx = fx_acc_add(svx, vx[j])
                        svy = fx_acc_add(svy, vy[j])
                        cnt += 1
        vxi = vx[i]
        vyi = vy[i]
        if cnt > 0:
            vxi = fx_add(vxi, fx_add(fx_mul(fx_sub(fx_acc_mean(sx, cnt), xi), CENTERING, FB),
                                     fx_mul(fx_sub(fx_acc_mean(svx, cnt), vxi), MATCHING, FB)))
            vyi = fx_add(vyi, fx_add(fx_mul(fx_sub(fx_acc_mean(sy, cnt), yi), CENTERING, FB),
                                     fx_mul(fx_sub(fx_acc_mean(svy, cnt), vyi), MATCHING, FB)))
        vxi = fx_add(vxi, fx_mul(fx_acc_fx(cdx), AVOID, FB))
        vyi = fx_add(vyi, fx_mul(fx_acc_fx(cdy), AVOID, FB))
        if xi < MARGIN:
            vxi = fx_add(vxi, TURN)
        if xi > W - MARGIN:
            vxi = fx_sub(vxi, TURN)
        if yi < MARGIN:
            vyi = fx_add(vyi, TURN)
        if yi > H - MARGIN:
            vyi = fx_sub(vyi, TURN)
        speed = fx_hypot(vxi, vyi)
        if speed > MAXS:
            vxi = fx_mul(fx_div(vxi, speed, FB), MAXS, FB)
            vyi = fx_mul(fx_div(vyi, speed, FB), MAXS, FB)
        elif speed < MINS:
            if speed == 0:
                vxi = MINS
            else:
                vxi = fx_mul(fx_div(vxi, speed, FB), MINS, FB)
                vyi = fx_mul(fx_div(vyi, speed, FB), MINS, FB)
        vx[i] = vxi
        vy[i] = vyi
        x[i] = fx_add(xi, vxi)
        y[i] = fx_add(yi, vyi)


def run_frames(frame, n: int, frames: int):
    """(seconds, per-frame state hashes) of `frames` frames from a fixed spawn."""
    rnd = np.random.default_rng(7)
    x = rnd.integers(0, W, n).astype(np.int64)
    y = rnd.integers(0, H, n).astype(np.int64)
    vx = rnd.integers(-3 * ONE, 3 * ONE, n).astype(np.int64)
    vy = rnd.integers(-3 * ONE, 3 * ONE, n).astype(np.int64)
    hashes = []
    t0 = time.perf_counter()
    for _ in range(frames):
        frame(x, y, vx, vy)
        hashes.append(hashlib.sha256(np.stack([x, y, vx, vy]).tobytes()).hexdigest()[:12])
    return time.perf_counter() - t0, hashes


# --------------------------------------------------------------------------- children (fresh interpreters)

def child_compile() -> dict:
    from numba import njit

    from pysim import fxops as F
    t_import = T_IMPORT
    frame = njit(cache=True)(toy_frame)
    t1, c1 = time.perf_counter(), time.process_time()
    run_frames(frame, 4, 1)  # what a generated model pays: its frame, the ops inlined
    t_frame, c_frame = time.perf_counter() - t1, time.process_time() - c1
    st = F.new_status()
    t2, c2 = time.perf_counter(), time.process_time()
    for kind in ("fixed", "float", "checked"):
        for name, f in F.namespace(kind).items():
            nargs = f.py_func.__code__.co_argcount - (2 if kind == "checked" else 0)
            value = 3.0 if kind == "float" else 3 << FB
            args = [value] * nargs
            if name in ("asr64", "asr", "shl"):
                args[1] = 2
            if name in ("from_int", "to_int", "mul", "div", "sqrt", "amb", "mag"):
                args[-1] = FB
            if name == "mag":
                args[2] = True
            if name in ("idiv", "acc_mean"):
                args[1] = 2
            f(*args, *((st, 0) if kind == "checked" else ()))
    t_ops, c_ops = time.perf_counter() - t2, time.process_time() - c2
    return {"import": t_import, "ops": t_ops, "frame": t_frame, "ops_cpu": c_ops, "frame_cpu": c_frame}


def child_run(n: int, frames: int) -> dict:
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        frame = toy_frame
    else:
        from numba import njit

        frame = njit(cache=True)(toy_frame)
        run_frames(frame, 4, 1)  # compile (or load) outside the timing
    seconds, hashes = run_frames(frame, n, frames)
    return {"seconds": seconds, "hashes": hashes}


def spawn(args: list[str], env: dict) -> dict:
    res = subprocess.run([sys.executable, str(Path(__file__).resolve()), *args], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=3600)
    if res.returncode != 0:
        sys.exit(f"child {args} failed:\n{res.stderr}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boids", type=int, default=100)
    ap.add_argument("--frames", type=int, default=2000)
    ap.add_argument("--py-frames", type=int, default=40, help="frames of the plain-Python run (scaled to --frames)")
    ap.add_argument("--child", choices=["compile", "run"], help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child == "compile":
        print(json.dumps(child_compile()))
        return
    if a.child == "run":
        print(json.dumps(child_run(a.boids, a.frames)))
        return

    import numba

    print(f"numba {numba.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="fxops-cache-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        env.pop("NUMBA_DISABLE_JIT", None)
        cold = spawn(["--child", "compile"], env)
        warm = spawn(["--child", "compile"], env)
        n_funcs = 3 * len(__import__("pysim.fxops", fromlist=["NAMES"]).NAMES)
        print("\ncompile (fresh interpreters; import = numba + pysim.fxops; toy frame = the loop below,"
              f" the ops inlined; functions = all {n_funcs} of fx_, fl_, ck_ called once each from Python;"
              " wall time, CPU time in brackets):")
        for what, t in (("cold cache", cold), ("warm cache", warm)):
            print(f"  {what}: import {t['import']:.2f} s, toy frame {t['frame']:.2f} s ({t['frame_cpu']:.2f}), "
                  f"functions {t['ops']:.2f} s ({t['ops_cpu']:.2f}); "
                  f"import + toy frame {t['import'] + t['frame']:.2f} s")

        comp = spawn(["--child", "run", "--boids", str(a.boids), "--frames", str(a.frames)], env)
        pure = spawn(["--child", "run", "--boids", str(a.boids), "--frames", str(a.py_frames)],
                     dict(env, NUMBA_DISABLE_JIT="1"))
    k = len(pure["hashes"])
    same = pure["hashes"] == comp["hashes"][:k]
    scaled = pure["seconds"] * a.frames / a.py_frames
    print(f"\ntoy pair loop, {a.boids} boids, all pairs, {a.frames} frames (sequential, in place):")
    print(f"  compiled (numba, warm): {comp['seconds']:.3f} s  ({comp['seconds'] / a.frames * 1e3:.3f} ms/frame)")
    print(f"  plain Python:           {scaled:.1f} s  ({pure['seconds'] / a.py_frames * 1e3:.1f} ms/frame; "
          f"{a.py_frames} frames measured, {pure['seconds']:.2f} s, scaled to {a.frames})")
    print(f"  ratio: compiled is {scaled / comp['seconds']:.0f}x faster")
    print(f"  states identical over the {k} frames both ran: {'yes' if same else 'NO'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
