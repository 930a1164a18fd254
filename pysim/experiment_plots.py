"""Plots of an experiment's summaries (matplotlib, headless): each metric
against the varied value, one line per flock size, with the 95 % intervals
as error bars."""
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
}


def axes_of(summaries) -> tuple[str | None, str | None]:
    """(x, lines): the value along the x axis and the one that makes lines.
    x is the first varied value other than the flock size (or the flock
    size when it is the only one); lines are per flock size when it varies."""
    names = list(summaries[0].at) if summaries else []
    others = [n for n in names if n != "boids"]
    x = others[0] if others else (names[0] if names else None)
    lines = "boids" if "boids" in names and x != "boids" else (others[1] if len(others) > 1 else None)
    return x, lines


def plot_metric(summaries, metric: str, path: Path, title: str = "", xlabel: str | None = None,
                chance: float | None = None) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x, lines = axes_of(summaries)
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=100)
    groups: dict = {}
    for s in summaries:
        groups.setdefault(s.at.get(lines) if lines else None, []).append(s)
    for key, ss in groups.items():
        ss = sorted(ss, key=lambda s: float(s.at[x]) if x else 0.0)
        xs = [float(s.at[x]) if x else 0.0 for s in ss]
        c = [s.cells[metric] for s in ss]
        ys = [v.mean for v in c]
        err = [[v.mean - v.low for v in c], [v.high - v.mean for v in c]]
        label = (f"N = {key}" if lines == "boids" else f"{lines} = {key}") if lines else None
        ax.errorbar(xs, ys, yerr=err, marker="o", ms=4, capsize=3, label=label)
    if chance is not None:
        ax.axhline(chance, color="grey", lw=0.8, ls="--")
    ax.set_xlabel(xlabel or (x.replace("_", " ") if x else ""))
    ax.set_ylabel(LABELS.get(metric, metric))
    if title:
        ax.set_title(title, fontsize=10)
    if lines:
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_all(summaries, metrics, folder: Path, title: str = "", xlabel: str | None = None) -> list[Path]:
    chance = {"decision": 0.5, "naive_decision": 0.5, "side_time": 0.5}
    return [plot_metric(summaries, m, Path(folder) / f"{m}.png", title, xlabel, chance.get(m)) for m in metrics]
