"""Plots of an experiment's summaries (matplotlib, headless): each metric
against the varied value, one line per value of the other varied values
(the flock size, most often), with the 95 % intervals as error bars."""
from __future__ import annotations

from pathlib import Path

LABELS = {
    "decision": "P(flock settles on the larger scout group's side)",
    "naive_decision": "P(the uninformed settle on that side)",
    "side_time": "fraction of time on the larger group's side",
    "polarisation": "polarisation",
    "speed": "mean speed (px/frame)",
    "groups": "number of groups",
    "nn_dist": "nearest-neighbour distance (px)",
    "centroid_x": "centroid x (px)",
    "centroid_y": "centroid y (px)",
    "velocity_x": "mean velocity x (px/frame)",
    "velocity_y": "mean velocity y (px/frame)",
    "direction": "the group's direction of travel (turns)",
    "accuracy": "accuracy (1 - angle from g / pi)",
    "chose": "P(the group went one preferred way)",
    "majority": "P(nearer the larger group's direction)",
    "fragmented": "P(more than one group at the end)",
    "side_gap": "closest approach to a side (px)",
}


def axes_of(summaries, varied=None) -> tuple[str | None, list[str]]:
    """(x, others): the value along the x axis and the varied values that
    make the series. `varied` names what the file varies (Plan.varied), so
    a count a fraction of the flock makes (beside it in each point's values)
    is not mistaken for an axis of its own: varied at one flock size it
    made every point a series. x is the first varied value other than the
    flock size (or the flock size when it is the only one)."""
    names = list(varied if varied is not None else (summaries[0].at if summaries else []))
    others = [n for n in names if n != "boids"]
    x = others[0] if others else (names[0] if names else None)
    return x, [n for n in names if n != x]


def series(summaries, varied=None) -> dict:
    """{(the other varied values, ...): [summaries along x, sorted]}."""
    x, others = axes_of(summaries, varied)
    out: dict = {}
    for s in summaries:
        out.setdefault(tuple(s.at[n] for n in others), []).append(s)
    return {k: sorted(ss, key=lambda s: float(s.at[x]) if x else 0.0) for k, ss in out.items()}


def _label(others, key) -> str | None:
    return ", ".join(f"N = {v}" if n == "boids" else f"{n} = {v}" for n, v in zip(others, key)) or None


def plot_metric(summaries, metric: str, path: Path, title: str = "", xlabel: str | None = None,
                chance: float | None = None, varied=None) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x, others = axes_of(summaries, varied)
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=100)
    for key, ss in series(summaries, varied).items():
        xs = [float(s.at[x]) if x else 0.0 for s in ss]
        c = [s.cells[metric] for s in ss]
        ys = [v.mean for v in c]
        err = [[v.mean - v.low for v in c], [v.high - v.mean for v in c]]  # >= 0: the intervals hold their means
        ax.errorbar(xs, ys, yerr=err, marker="o", ms=4, capsize=3, label=_label(others, key))
    if chance is not None:
        ax.axhline(chance, color="grey", lw=0.8, ls="--")
    return _finish(plt, fig, ax, path, xlabel or (x.replace("_", " ") if x else ""), LABELS.get(metric, metric),
                   title, bool(others))


def _finish(plt, fig, ax, path, xlabel: str, ylabel: str, title: str, legend: bool) -> Path:
    """Label, grid and write one figure (then close it: matplotlib keeps every open one)."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    if legend:
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_all(summaries, metrics, folder: Path, title: str = "", xlabel: str | None = None,
             varied=None) -> list[Path]:
    chance = {"decision": 0.5, "naive_decision": 0.5, "side_time": 0.5}
    return [plot_metric(summaries, m, Path(folder) / f"{m}.png", title, xlabel, chance.get(m), varied)
            for m in metrics]


def plot_trials(rows, metric: str, x: str, path: Path, title: str = "", xlabel: str | None = None,
                guides=()) -> Path:
    """Every trial's value of `metric` against the varied value `x`, one dot
    a trial (the paper's way of showing where each group went, where a mean
    would hide two branches), with `guides`: (label, f(x)) lines such as
    the preferred directions and their bisector."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [float(r["at"][x]) for r in rows]
    ys = [float(r["metrics"][metric]) for r in rows]
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=100)
    ax.scatter(xs, ys, s=6, alpha=0.35, color="tab:blue", label="one trial")
    grid = sorted(set(xs))
    for (label, f), style in zip(guides, ("-", "--", ":", "-.")):
        ax.plot(grid, [f(v) for v in grid], ls=style, lw=1, color="grey", label=label)
    return _finish(plt, fig, ax, path, xlabel or x.replace("_", " "), LABELS.get(metric, metric) + ", each trial",
                   title, True)
