"""numba's compile time of each committed spec's kernel, cold and warm.

    python3 bench/kernel_compile.py [spec/boids.yaml ...]

For each spec, in fresh processes with an empty kernel cache
(BOIDSGEN_KERNEL_CACHE in a temporary folder; fxops' own functions stay
cached in pysim/__pycache__, as after any first run): the first frame of
each arithmetic (fixed, float, checked), which compiles its step function;
then, in a new process on the filled cache, the time from start (imports
included) to the end of the first fixed-point frame.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from pysim.engine import Simulation, checked_simulation
from pysim.model_support import load_model
model = load_model(sys.argv[1])
out = {"import": time.perf_counter() - t0}
for arith in sys.argv[2].split(","):
    sim = checked_simulation(model) if arith == "checked" else Simulation(model, arith)
    t = time.perf_counter()
    sim.step()
    out[arith] = time.perf_counter() - t
out["total"] = time.perf_counter() - t0
print(json.dumps(out))
"""


def child(model: Path, ariths: str, cache: str) -> dict:
    env = dict(os.environ, BOIDSGEN_KERNEL_CACHE=cache, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", CHILD, str(model), ariths], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=1800, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> int:
    specs = [Path(s) for s in sys.argv[1:]] or sorted((ROOT / "spec").glob("*.yaml"))
    print("| spec | kernel lines | cold fixed s | cold float s | cold checked s | warm: start to first frame s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for spec in specs:
        model = ROOT / "generated" / spec.stem / "python" / "boids_model.py"
        lines = len((model.parent / "boids_kernel.py").read_text().splitlines())
        with tempfile.TemporaryDirectory(prefix="boids-kc-") as cache:
            cold = child(model, "fixed,float,checked", cache)
            t = time.perf_counter()
            warm = child(model, "fixed", cache)
            wall = time.perf_counter() - t
        print(f"| {spec.stem} | {lines} | {cold['fixed']:.1f} | {cold['float']:.1f} | {cold['checked']:.1f} | "
              f"{warm['total']:.2f} (process {wall:.2f}) |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
