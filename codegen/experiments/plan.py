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
from decimal import Decimal

from pysim.experiments.trials import Job, Point, files_key, trial_seed

from codegen.experiments.file import NEED_PREFERRED, NEED_SCOUTS, Fraction, Loaded, decimal_text, project_of
from codegen.spec.number_text import MAX_NUMBER_CHARS
from codegen.spec.errors import SpecError

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
    def varied(self) -> list[str]:
        """The names of the varied values, as each point's `at` holds them."""
        e = self.loaded.exp
        return (["boids"] if "boids" in e.vary else []) + [axis_label(k, e.vary[k]) for k in e.vary if k != "boids"]

    @property
    def total(self) -> int:
        return len(self.points) * self.loaded.exp.trials


def axis_label(name: str, vary) -> str:
    """A varied value's name in a point: a fraction of the flock as name/boids
    (the count it makes sits beside it under the parameter's own name)."""
    return f"{name}/boids" if isinstance(vary, Fraction) else name


def make_plan(ld: Loaded) -> Plan:
    from codegen.output.pipeline import checked_model
    from codegen.spec.project import output_dir
    from codegen.output.render import render

    e = ld.exp
    spec_path = str(_spec_file(ld))
    try:
        m = checked_model(spec_path)
    except SpecError as err:
        # named, not echoed: `spec:` could name a file that is no spec, whose values are no one's business here
        first = err.issues[0]
        raise SpecError([ld.issue_at(("spec",), f"{e.spec} is not a valid spec: {len(err.issues)} error(s), the "
                                     f"first at line {first.line}, column {first.col} (`boidsgen check "
                                     f"{spec_path}` shows them)")]) from None
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
              sample_every=e.sample_every, metrics=tuple(e.metrics), preferred=tuple(e.preferred))
    return Plan(ld, job, points, _hash(ld, m.hash, points), m.name, m.hash, notes)


def _spec_file(ld: Loaded):
    """The spec the experiment names: a .yaml file inside the experiment's
    project (experiments/file.py's project_of), links resolved first, so a
    `spec:` cannot make the tool read (and report on) any file on the machine."""
    p, root = ld.spec_path, project_of(ld.path)
    if p.suffix != ".yaml":
        raise SpecError([ld.issue_at(("spec",), f"{ld.exp.spec}: a spec is a .yaml file")])
    real = p.resolve()
    if not real.is_relative_to(root):
        raise SpecError([ld.issue_at(("spec",), f"{ld.exp.spec} is outside the experiment's project {root} "
                                     f"(a spec beside the experiment or inside {root})")])
    if not real.exists():
        raise SpecError([ld.issue_at(("spec",), f"no such spec file: {p}")])
    if not real.is_file():
        raise SpecError([ld.issue_at(("spec",), f"{ld.exp.spec} is not a file")])
    return real


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
    named = [(k, ("set", k), True) for k in e.set] + [(k, ("vary", k), True) for k in e.vary if k != "boids"]
    named += [(k, ("preferred", i), False) for i, k in enumerate(e.preferred)]
    for key, where, is_key in named:
        if key not in names:
            import difflib

            near = difflib.get_close_matches(key, sorted(names), n=1)
            issues.append(ld.issue_at(where, f"the spec has no parameter '{key}'"
                                      + (f" (did you mean '{near[0]}'?)" if near else ""), key_itself=is_key))
    for k, v in e.set.items():
        if k in names:
            try:
                _set(ps, k, decimal_text(v))
            except ParamError as err:
                issues.append(ld.issue_at(("set", k), str(err)))
    if set(e.metrics) & NEED_SCOUTS and not getattr(model, "SCOUTS", None):
        bad = next(i for i, m in enumerate(e.metrics) if m in NEED_SCOUTS)
        issues.append(ld.issue_at(("metrics", bad), f"'{e.metrics[bad]}' needs scout groups (`scouts:` in the "
                                  f"spec); {ld.exp.spec} has none"))
    issues += _preferred_issues(ld, model)
    if issues:
        raise SpecError(issues)
    axes = [("boids", [("boids", b, None) for b in sizes])] if "boids" in e.vary else []
    for k in e.vary:
        if k != "boids":
            frac = isinstance(e.vary[k], Fraction)
            axes.append((k, [(axis_label(k, e.vary[k]), v, frac) for v in ld.vary_values(k)]))
    base = [(k, decimal_text(v)) for k, v in e.set.items()]
    points, seen, fits = [], {}, None
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
                _set(ps, k, text)
            except ParamError as err:
                where = ("vary", k)
                if where not in seen:
                    seen[where] = ld.issue_at(where, f"{err}" + (f" (at boids={boids})" if frac else ""))
                continue
            sets.append((k, text))
        at = tuple(at)
        if not seen and not fits:
            fits = _scouts_fit(ld, model, ps, int(boids))
        points.append(Point(index=len(points), at=at, boids=int(boids), sets=tuple(sets)))
    if seen or fits:
        raise SpecError(list(seen.values()) or [fits])
    return points


# the units a direction may carry: none (the specs' own g1, g2) or turns
DIRECTION_UNITS = ("", "turn", "turns")


def _preferred_issues(ld: Loaded, model) -> list:
    """`preferred:` names fixed-point parameters that can be directions in
    turns: no unit but turns (a distance in px, a speed is not one) and a
    range within one turn either way (one the spec lacks is reported with
    the other unknown names), as many as the metrics that read them need."""
    e, issues = ld.exp, []
    defs = {p.name: p for p in model.PARAMS}
    for i, name in enumerate(e.preferred):
        d = defs.get(name)
        why = None
        if d is None:
            continue
        if d.type != "fixed":
            why = "is a count"
        elif d.unit not in DIRECTION_UNITS:
            why = "is a distance (px)" if d.unit == "px" else f"is in {d.unit}"
        elif not -1 <= float(d.min) <= float(d.max) <= 1:
            why = f"ranges from {d.min} to {d.max}, more than a turn"
        if why:
            issues.append(ld.issue_at(("preferred", i), f"'{name}' {why}; a direction is a fixed-point parameter "
                                      "in turns (no unit, or turns, within -1 to 1)"))
    for i, m in enumerate(e.metrics):
        need = NEED_PREFERRED.get(m, 0)
        if len(e.preferred) < need:
            issues.append(ld.issue_at(("metrics", i), f"'{m}' reads {need} preferred direction(s): name the "
                                      f"parameter(s) in `preferred:` ({len(e.preferred)} named)"))
    return issues


def _set(ps, name: str, text: str) -> None:
    """ParamSet.set, saying what is wrong with a decimal given to a whole-number parameter
    (the board's own words, "'8.5' not a decimal number", say the opposite), and naming a
    long value (1e300 is 301 digits as decimal text) by its short form."""
    from pysim.params import ParamError

    try:
        ps.set(name, text, allow_fixed=True)
    except ParamError as err:
        shown = _short(text)
        if ps.defs[name].type == "int" and _fractional(text):
            raise ParamError(f"{name}: {shown} is not a whole number ({name} is a count)") from None
        raise ParamError(str(err).replace(text, shown)) from None


def _short(text: str) -> str:
    """A value's decimal text as written in a message: at most MAX_NUMBER_CHARS, else as 1E+300."""
    if len(text) <= MAX_NUMBER_CHARS:
        return text
    try:
        return str(Decimal(text).normalize())
    except ArithmeticError:
        return text[:MAX_NUMBER_CHARS] + "..."


def _fractional(text: str) -> bool:
    """A decimal number with a fractional part (8.5; not 12, not 'x')."""
    try:
        d = Decimal(text)
        return d.is_finite() and d != d.to_integral_value()
    except ArithmeticError:
        return False


def _scouts_fit(ld: Loaded, model, ps, boids: int):
    """The issue when the scout groups (group 1 the first boids, group 2 the
    next) hold more boids than the flock, or None: the engine would cut
    group 2 short while the table reported the size asked for."""
    sc = getattr(model, "SCOUTS", None)
    if not sc:
        return None
    g1, g2 = ps.raw[sc["group1"]], ps.raw[sc["group2"]]
    if g1 + g2 <= boids:
        return None
    e = ld.exp
    keys = [("vary", sc[g]) for g in ("group1", "group2") if sc[g] in e.vary]
    keys += [("set", sc[g]) for g in ("group1", "group2") if sc[g] in e.set]
    return ld.issue_at(keys[0] if keys else _boids_key(ld),
                       f"scout groups of {g1} + {g2} boids do not fit a flock of {boids}"
                       + ("" if keys else " (the spec's default group sizes)"))


def _hash(ld: Loaded, model_hash: str, points: list) -> str:
    """What every row depends on: the model, the arithmetic, the frames,
    the sampling, the metrics, the seed and the points (not `trials`, so a
    finished run can be extended with more trials by --resume)."""
    e = ld.exp
    doc = {"model": model_hash, "arith": e.arith, "frames": e.frames, "warmup": e.warmup,
           "every": e.sample_every, "metrics": list(e.metrics), "seed": e.seed,
           "points": [[list(map(list, p.at)), p.boids, list(map(list, p.sets))] for p in points]}
    if e.preferred:  # (only when named: the hashes of the runs written before the key existed stay)
        doc["preferred"] = list(e.preferred)
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]
