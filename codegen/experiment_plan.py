"""From a validated experiment file to its plan: the spec's model (with a
larger capacity when the flock sizes need one), the points, each trial's
seed, and the experiment's hash. The file's meaning is checked here against
the spec, every error at the file's line and column, before anything runs
or is written."""
from __future__ import annotations

import hashlib
import itertools
import json
import types
from dataclasses import dataclass, field

from pysim.experiment_trials import Job, Point, files_key, trial_seed

from .experiment_file import NEED_SCOUTS, Fraction, Loaded, decimal_text
from .spec_errors import SpecError

MODEL_FILES = ("boids_model.py", "boids_kernel.py")


@dataclass
class Plan:
    loaded: Loaded
    job: Job
    points: list
    hash: str  # what the rows depend on (not the number of trials)
    spec_name: str
    model_hash: str
    notes: list = field(default_factory=list)

    def todo(self, done=frozenset()) -> list:
        """(point, trial, seed) not in done, point by point."""
        e = self.loaded.exp
        return [(p, t, trial_seed(e.seed, p.at, t)) for p in self.points for t in range(e.trials)
                if (p.index, t) not in done]

    @property
    def total(self) -> int:
        return len(self.points) * self.loaded.exp.trials


def make_plan(ld: Loaded) -> Plan:
    from .pipeline import checked_model
    from .project import output_dir
    from .render import render

    e = ld.exp
    if not ld.spec_path.is_file():
        raise SpecError([ld.issue_at(("spec",), f"no such spec file: {ld.spec_path}")])
    spec_path = str(ld.spec_path)
    m = checked_model(spec_path)  # the spec as written: its own located errors
    sizes = _sizes(ld, m.spec.flock.size)
    notes, cap0 = [], m.spec.flock.capacity
    if max(sizes) > cap0:
        try:
            m = checked_model(spec_path, capacity=max(sizes))
        except SpecError as err:
            raise SpecError([ld.issue_at(_boids_key(ld), f"a flock of {max(sizes)} boids (capacity "
                                         f"{max(sizes)}): {err.issues[0].reason}")]) from None
        notes.append(f"the spec's capacity {cap0} raised to {max(sizes)} for the largest flock")
    rendered = render(m, output_dir(spec_path, m.name))
    files = tuple((name, rendered[f"python/{name}"]) for name in MODEL_FILES)
    model = _module(files[0][1])
    points = _points(ld, model, sizes)
    job = Job(files=files, key=files_key(files), arith=e.arith, frames=e.frames, warmup=e.warmup,
              sample_every=e.sample_every, metrics=tuple(e.metrics))
    return Plan(ld, job, points, _hash(ld, m.hash, points), m.name, m.hash, notes)


def _boids_key(ld: Loaded) -> tuple:
    return ("vary", "boids") if "boids" in ld.exp.vary else (("boids",) if ld.exp.boids else ("spec",))


def _sizes(ld: Loaded, default: int) -> list[int]:
    if "boids" in ld.exp.vary:
        return [int(b) for b in ld.vary_values("boids")]
    return [ld.exp.boids or default]


def _module(text: str):
    """The generated model's module, from its text (nothing written)."""
    mod = types.ModuleType("boidsgen_experiment_model")
    exec(compile(text, "boids_model.py", "exec"), mod.__dict__)
    return mod


def _points(ld: Loaded, model, sizes: list[int]) -> list:
    from pysim.params import ParamError, ParamSet

    e = ld.exp
    ps = ParamSet(model)
    names = {p.name for p in model.PARAMS}
    issues = []
    for key, where in [(k, ("set", k)) for k in e.set] + [(k, ("vary", k)) for k in e.vary if k != "boids"]:
        if key not in names:
            import difflib

            near = difflib.get_close_matches(key, sorted(names), n=1)
            issues.append(ld.issue_at(where, f"the spec has no parameter '{key}'"
                                      + (f" (did you mean '{near[0]}'?)" if near else ""), key_itself=True))
    for k, v in e.set.items():
        if k in names:
            try:
                ps.set(k, decimal_text(v), allow_fixed=True)
            except ParamError as err:
                issues.append(ld.issue_at(("set", k), str(err)))
    if set(e.metrics) & NEED_SCOUTS and not getattr(model, "SCOUTS", None):
        bad = next(i for i, m in enumerate(e.metrics) if m in NEED_SCOUTS)
        issues.append(ld.issue_at(("metrics", bad), f"'{e.metrics[bad]}' needs scout groups (`scouts:` in the "
                                  f"spec); {ld.exp.spec} has none"))
    if issues:
        raise SpecError(issues)
    axes = [("boids", [("boids", b, None) for b in sizes])] if "boids" in e.vary else []
    for k in e.vary:
        if k != "boids":
            frac = isinstance(e.vary[k], Fraction)
            axes.append((k, [(f"{k}/boids" if frac else k, v, frac) for v in ld.vary_values(k)]))
    base = [(k, decimal_text(v)) for k, v in e.set.items()]
    points, seen = [], {}
    for combo in itertools.product(*[vals for _, vals in axes]) if axes else [()]:
        boids = next((v for n, v, _ in combo if n == "boids"), sizes[0])
        sets, at = list(base), []
        for (k, _), (label, v, frac) in zip(axes, combo):
            at.append((label, v))
            if k == "boids":
                continue
            text = str(int(v * boids + 0.5)) if frac else decimal_text(v)
            if frac:  # the count it makes, beside the fraction asked for
                at.append((k, int(text)))
            try:
                ps.set(k, text, allow_fixed=True)
            except ParamError as err:
                where = ("vary", k)
                if where not in seen:
                    seen[where] = ld.issue_at(where, f"{err}" + (f" (at boids={boids})" if frac else ""))
                continue
            sets.append((k, text))
        at = tuple(at)
        points.append(Point(index=len(points), at=at, boids=int(boids), sets=tuple(sets)))
    if seen:
        raise SpecError(list(seen.values()))
    return points


def _hash(ld: Loaded, model_hash: str, points: list) -> str:
    """What every row depends on: the model, the arithmetic, the frames,
    the sampling, the metrics, the seed and the points (not `trials`, so a
    finished run can be extended with more trials by --resume)."""
    e = ld.exp
    doc = {"model": model_hash, "arith": e.arith, "frames": e.frames, "warmup": e.warmup,
           "every": e.sample_every, "metrics": list(e.metrics), "seed": e.seed,
           "points": [[list(map(list, p.at)), p.boids, list(map(list, p.sets))] for p in points]}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]
