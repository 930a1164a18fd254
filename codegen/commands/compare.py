"""`boidsgen compare`: the fixed-point flock against the ideal float flock.

Both simulators start from the same spawn (spawning draws raw fixed-point
values from the same PRNG stream in either arithmetic) and run side by side;
every `every` frames the flock metrics of each and the divergence between
them are tabled (and plotted with matplotlib, the optional `plot` extra)."""
from __future__ import annotations

from pysim.engine import Simulation
from pysim.experiments.metrics import divergence, flock_metrics

from codegen.model.gen_model import GenModel
from codegen.analysis.quant_report import worst, zeros

COLUMNS = ("polarisation", "nn_dist", "groups", "speed")


def run_compare(m: GenModel, model, frames: int = 300, every: int = 30, seed: int | None = None,
                boids: int | None = None) -> list[dict]:
    fixed = Simulation(model, "fixed", seed=seed, boids=boids)
    flt = Simulation(model, "float", seed=seed, boids=boids)
    P = fixed.params.for_arith(flt.A)
    box = model.pair_box(P) if hasattr(model, "pair_box") else None
    link = float(box) if box else 50.0  # groups: boids within the neighbour range are linked
    rows = []
    for f in range(frames + 1):
        if f % every == 0 or f == frames:
            rows.append({"frame": f, "fixed": flock_metrics(fixed, link), "float": flock_metrics(flt, link),
                         "div": divergence(fixed, flt)})
        if f < frames:
            fixed.step()
            flt.step()
    return rows


def table_lines(rows: list[dict]) -> list[str]:
    head = (f"{'frame':>6}  {'polar fx':>8} {'polar fl':>8}  {'nn fx':>6} {'nn fl':>6}  {'grp fx':>6} "
            f"{'grp fl':>6}  {'speed fx':>8} {'speed fl':>8}  {'|dp| px':>8} {'|dv| px/f':>9}")
    out = [head]
    for r in rows:
        a, b, d = r["fixed"], r["float"], r["div"]
        out.append(f"{r['frame']:>6}  {a['polarisation']:>8.3f} {b['polarisation']:>8.3f}  {a['nn_dist']:>6.2f} "
                   f"{b['nn_dist']:>6.2f}  {a['groups']:>6d} {b['groups']:>6d}  {a['speed']:>8.3f} "
                   f"{b['speed']:>8.3f}  {d['pos']:>8.2f} {d['vel']:>9.3f}")
    return out


def quant_warnings(m: GenModel, threshold_pct: float) -> list[str]:
    out = [f"warning: {q.name}.{q.field} = {q.text} quantizes to 0 in {m.spec.fixed_point.format}: "
           f"the rule it feeds does nothing at this value" for q in zeros(m)]
    zero_keys = {(q.name, q.field) for q in zeros(m)}
    out += [f"warning: {q.name}.{q.field} = {q.text} quantizes to {q.represents} ({q.rel_error * 100:+.2f}%, "
            f"above {threshold_pct}%)" for q in worst(m, threshold_pct) if (q.name, q.field) not in zero_keys]
    return out


def plot(rows: list[dict], path: str, title: str) -> str | None:
    """Write the plot; None when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    frames = [r["frame"] for r in rows]
    fig, axes = plt.subplots(5, 1, figsize=(7, 11), sharex=True)
    for ax, key, label in zip(axes, COLUMNS, ("polarisation", "mean NN distance (px)", "groups",
                                              "mean speed (px/frame)")):
        ax.plot(frames, [r["fixed"][key] for r in rows], label="fixed")
        ax.plot(frames, [r["float"][key] for r in rows], label="float", linestyle="--")
        ax.set_ylabel(label)
        ax.legend(loc="best")
    axes[4].plot(frames, [r["div"]["pos"] for r in rows], label="|p fixed - p float| (px)")
    axes[4].plot(frames, [r["div"]["vel"] for r in rows], label="|v fixed - v float| (px/frame)")
    axes[4].set_ylabel("divergence")
    axes[4].set_xlabel("frame")
    axes[4].legend(loc="best")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path
