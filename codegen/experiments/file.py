"""An experiment file: which spec, what to vary, how many trials, what to
record. Read like a spec (codegen/spec/yaml_guard.py's bounds, ruamel positions,
Pydantic), and every error named at its `file:line:col`.

    spec: ../spec/scouts_vga.yaml     # relative to this file
    seed: 2005                        # every trial's seed derives from it
    trials: 100                       # per point
    frames: 3000                      # per trial, of which
    warmup: 500                       #   the first are not measured
    sample_every: 10                  # measure every K-th frame after the warm-up
    arith: fixed                      # or float
    boids: 100                        # the flock size when `vary` has no `boids`
    set: {bias1: 0.05, scout_group2: 0}
    vary:                             # every combination is a point
      boids: [10, 20, 50, 100, 200]
      scout_group1: {fraction_of_boids: [0, 0.05, 0.1, 0.2]}   # round(f * boids)
      bias2: {from: 0, to: 0.01, step: 0.005}                   # inclusive
    metrics: [decision, side_time, polarisation]

The meaning (parameters that exist, values in their ranges at every point,
the flock within 65535) is checked against the spec's model by
`codegen/commands/experiment.py`, with the same located errors (`issue_at`).
"""
from __future__ import annotations

import difflib
import math
from decimal import Decimal
from fractions import Fraction as Exact
from pathlib import Path
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError
from ruamel.yaml.comments import CommentedMap

from codegen.spec.errors import SpecError, SpecIssue
from codegen.spec.loader import Locator, _plain
from codegen.spec.yaml_read import read_yaml

# the metrics a trial can record (pysim/experiments/trials.py computes them)
# (a file without `metrics:` records the first eleven: the ones that need no `preferred:`)
METRICS = ("decision", "naive_decision", "side_time", "polarisation", "speed", "groups", "nn_dist",
           "centroid_x", "centroid_y", "velocity_x", "velocity_y",
           "direction", "accuracy", "chose", "majority", "fragmented", "side_gap")
DEFAULT_METRICS = METRICS[:11]
PROPORTIONS = frozenset({"decision", "naive_decision", "chose", "majority", "fragmented"})  # 0/1: Wilson intervals
NEED_SCOUTS = frozenset({"decision", "naive_decision", "side_time", "majority"})
# the metrics that read the preferred directions named by the file's `preferred:` (how many they need)
NEED_PREFERRED = {"accuracy": 1, "chose": 2, "majority": 2}
# the values a metric cannot leave: its t interval is clipped to them (a fraction of time beyond 1 means nothing)
RANGES = {"side_time": (0.0, 1.0), "polarisation": (0.0, 1.0), "speed": (0.0, math.inf),
          "groups": (0.0, math.inf), "nn_dist": (0.0, math.inf), "direction": (-0.5, 0.5),
          "accuracy": (0.0, 1.0), "side_gap": (0.0, math.inf)}
MAX_TRIALS = 10_000_000
MAX_VALUES = 1000  # values of one varied name
Number = Union[int, float]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


class Span(Strict):
    """from .. to (inclusive) by step."""

    start: Number = Field(alias="from")
    to: Number
    step: Number = Field(gt=0)


class Fraction(Strict):
    """A whole-number parameter as a fraction of the flock: round(f * boids)."""

    fraction_of_boids: list[Annotated[Number, Field(ge=0, le=1)]] = Field(min_length=1, max_length=1000)


Values = list[Number]


def _vary_kind(v) -> str:
    """Which of the three forms a `vary` entry is written as, so a wrong
    value is reported against that form alone (a union reported every
    branch: "unknown key 'fraction_of_boids'" beside its range error)."""
    if isinstance(v, dict):
        return "fraction" if "fraction_of_boids" in v else "span"
    return "list"


Vary = Annotated[Union[Annotated[Annotated[Values, Field(min_length=1, max_length=MAX_VALUES)], Tag("list")],
                       Annotated[Span, Tag("span")], Annotated[Fraction, Tag("fraction")]],
                 Discriminator(_vary_kind)]
_TAGS = ("list", "span", "fraction")


class Plot(Strict):
    title: str = Field("", max_length=200)
    xlabel: str = Field("", max_length=100, description="the x axis (default: the varied value's name)")


class Experiment(Strict):
    name: str | None = Field(None, pattern=r"^[a-z][a-z0-9_]*$", max_length=40,
                             description="names the output folder (default: the file's name)")
    description: str = Field("", max_length=500)
    spec: str = Field(min_length=1)
    seed: int = Field(ge=0, le=0xFFFFFFFF)
    trials: int = Field(ge=1, le=1_000_000)
    frames: int = Field(ge=1, le=10_000_000)
    warmup: int = Field(0, ge=0)
    sample_every: int = Field(10, ge=1)
    arith: Literal["fixed", "float"] = "fixed"
    boids: int | None = Field(None, ge=1, le=65535)
    set: dict[str, Union[Number, str]] = {}
    vary: dict[str, Vary] = {}
    metrics: list[Literal[METRICS]] = Field(list(DEFAULT_METRICS), min_length=1)
    preferred: list[str] = Field([], max_length=2, description="the parameters (turns) holding informed group 1's "
                                 "and group 2's preferred directions: accuracy, chose and majority read them")
    batch: int | None = Field(None, ge=1, le=10_000, description="trials per Dask task (default: chosen)")
    plot: Plot = Plot()


def decimal_text(v) -> str:
    """A YAML number as the decimal text `set` takes (no exponent)."""
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    t = format(Decimal(repr(v)), "f")
    return t.rstrip("0").rstrip(".") if "." in t else t


def _exact(v) -> Exact:
    """A YAML number as the decimal written (0.1 is 1/10, not the binary
    float nearest it)."""
    return Exact(v) if isinstance(v, int) else Exact(Decimal(repr(v)))


def span_count(s: Span) -> int:
    """How many values from .. to by step holds, in exact arithmetic, without
    making them (from 0 to 1e300 by 1e-300 is 10^600 values: counted, not built)."""
    return max(0, math.floor((_exact(s.to) - _exact(s.start)) / _exact(s.step)) + 1)


def span_values(s: Span) -> list:
    """The values; only for a span whose span_count is within MAX_VALUES."""
    n = span_count(s)
    assert n <= MAX_VALUES, n
    if isinstance(s.start, int) and isinstance(s.step, int):
        return [s.start + i * s.step for i in range(n)]
    # decimal steps: 0.1 + 0.2 is 0.30000000000000004 in binary, not the 0.3 meant
    a, d = Decimal(repr(s.start)), Decimal(repr(s.step))
    return [float(a + i * d) for i in range(n)]


def project_of(path: str | Path) -> Path:
    """An experiment file's project: the folder above its `experiments/`
    folder, else the file's own folder. Its spec lives inside it; its
    output goes to build/experiments/ there by default."""
    p = Path(path).resolve().parent
    return p.parent if p.name == "experiments" else p


class Loaded:
    """A validated experiment file: the model, where its keys are, its folder."""

    def __init__(self, path: str, exp: Experiment, loc: Locator) -> None:
        self.path, self.exp, self.loc = path, exp, loc
        self.spec_path = (Path(path).resolve().parent / exp.spec)

    def issue_at(self, loc: tuple, reason: str, key_itself: bool = False) -> SpecIssue:
        return self.loc.issue(loc, reason, key_itself)

    def vary_count(self, name: str) -> int:
        v = self.exp.vary[name]
        return span_count(v) if isinstance(v, Span) else len(self.vary_values(name))

    def vary_values(self, name: str) -> list:
        v = self.exp.vary[name]
        if isinstance(v, Span):
            return span_values(v)
        if isinstance(v, Fraction):
            return list(v.fraction_of_boids)
        return list(v)


def load_experiment(path: str | Path) -> Loaded:
    """Read and validate the file's shape; SpecError with every issue found."""
    where = str(path)
    p = Path(path)
    if not p.is_file():
        raise SpecError([SpecIssue(where, 1, 1, "", "no such experiment file" if not p.exists()
                                   else "not a file")])
    data = read_yaml(p)
    loc = Locator(where, data)
    if not isinstance(data, CommentedMap):
        raise SpecError([SpecIssue(where, 1, 1, "", "an experiment is a YAML mapping (spec:, seed:, trials:, ...)")])
    try:
        exp = Experiment.model_validate(_plain(data))
    except ValidationError as err:
        raise SpecError(_issues(err, loc)) from None
    ld = Loaded(where, exp, loc)
    issues = _shape_issues(ld)
    if issues:
        raise SpecError(issues)
    return ld


def _fields(loc: tuple) -> list[str]:
    """The keys valid where loc's last key is, for 'did you mean'."""
    if len(loc) == 1:
        return list(Experiment.model_fields)
    return ["from", "to", "step"] if loc[0] == "vary" else []


def _plain_loc(where: tuple) -> tuple:
    """Pydantic's error location as the file's keys: without a union's branch
    names ('int', 'float', 'str', 'list[...]', 'Span') or vary's form tags."""
    if len(where) > 2 and where[0] == "vary" and where[2] in _TAGS:
        where = where[:2] + where[3:]
    return tuple(x for x in where if not (isinstance(x, str) and (x[:1].isupper() or "[" in x
                                                                  or x in ("int", "float", "str"))))


def _bounds(where: tuple) -> str:
    """' from 1 to 1000000' for a top-level whole-number field with limits."""
    field = Experiment.model_fields.get(where[0]) if len(where) == 1 else None
    lo = next((m.ge for m in getattr(field, "metadata", ()) if hasattr(m, "ge")), None)
    hi = next((m.le for m in getattr(field, "metadata", ()) if hasattr(m, "le")), None)
    return f" from {lo} to {hi}" if lo is not None and hi is not None else ""


def _shown(value) -> str:
    """A value of the file, as an error quotes it: at most 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:56] + " ..."


def _reason(e: dict, where: tuple) -> str:
    kind, msg, got = e["type"], e["msg"], e.get("input")
    if kind == "int_type" and isinstance(got, float) and got.is_integer():
        # 1e9 and 1000000000.0 are decimal numbers in YAML: a whole number is written in digits
        return (f"expected a whole number{_bounds(where)}, got the decimal number {_shown(got)} (a number "
                f"written with a point or an exponent is a decimal: write the digits)")
    if kind == "int_type":
        return f"expected a whole number{_bounds(where)}, got {_shown(got)}"
    if kind == "float_type":
        return f"expected a number, got {_shown(got)}"
    if "fraction_of_boids" in where and kind in ("less_than_equal", "greater_than_equal"):
        return f"a fraction of the flock is from 0 to 1, got {_shown(got)}"
    if kind == "literal_error" and where and where[0] == "metrics":
        return f"not a metric; the metrics: {', '.join(METRICS)}"
    if kind.endswith(("_type", "_parsing")) and "input" in e:
        return f"{msg}, got {_shown(got)}"
    return msg


def _issues(err: ValidationError, loc: Locator) -> list[SpecIssue]:
    out, seen = [], set()
    for e in err.errors(include_url=False):
        where, kind = _plain_loc(tuple(e["loc"])), e["type"]
        if kind == "extra_forbidden":
            reason = f"unknown key '{where[-1]}'"
            near = difflib.get_close_matches(str(where[-1]), _fields(where), n=1)
            issue = loc.issue(where, reason + (f" (did you mean '{near[0]}'?)" if near else ""), key_itself=True)
        elif kind == "missing":
            line, col, field = loc.find(where[:-1])
            issue = SpecIssue(loc.path, line, col, ".".join([field, str(where[-1])]) if field else str(where[-1]),
                              "required key is missing")
        else:
            issue = loc.issue(where, _reason(e, where))
        key = (issue.line, issue.col)
        if key not in seen:  # a union reports each branch: say the place once
            seen.add(key)
            out.append(issue)
    return out


def _shape_issues(ld: Loaded) -> list[SpecIssue]:
    e, out = ld.exp, []
    if e.frames - e.warmup < e.sample_every:
        out.append(ld.issue_at(("warmup",) if "warmup" in ld.loc.root else ("frames",),
                               f"frames {e.frames} after warmup {e.warmup} leave no frame to measure "
                               f"(one every {e.sample_every})"))
    if len(set(e.metrics)) != len(e.metrics):
        dup = next(m for i, m in enumerate(e.metrics) if m in e.metrics[:i])
        out.append(ld.issue_at(("metrics", e.metrics.index(dup, e.metrics.index(dup) + 1)),
                               f"'{dup}' is listed twice"))
    if len(e.preferred) == 2 and e.preferred[0] == e.preferred[1]:
        out.append(ld.issue_at(("preferred", 1), f"'{e.preferred[1]}' is named twice: the two informed groups' "
                               "preferred directions are two parameters"))
    for name in e.set:
        if name == "boids":
            out.append(ld.issue_at(("set", name), "the flock size is `boids:` (or `vary: boids:`), "
                                   "not a parameter", key_itself=True))
        elif name in e.vary:
            out.append(ld.issue_at(("set", name), f"'{name}' is also in vary", key_itself=True))
    counts = {}
    for name, v in e.vary.items():
        n = counts[name] = ld.vary_count(name)  # counted before any value is made
        if isinstance(v, Span) and not n:
            out.append(ld.issue_at(("vary", name), f"from {v.start} to {v.to} holds no value"))
            continue
        if n > MAX_VALUES:
            many = f"{n:,}" if n < 10 ** 15 else f"about 10^{len(str(n)) - 1}"
            out.append(ld.issue_at(("vary", name), f"{many} values; at most {MAX_VALUES}"))
            continue
        vals = ld.vary_values(name)
        if name == "boids":
            if isinstance(v, Fraction):
                out.append(ld.issue_at(("vary", name), "the flock size is a number of boids, not a fraction of it"))
                continue
            for i, b in enumerate(vals):
                if not (isinstance(b, int) or float(b).is_integer()) or not 1 <= b <= 65535:
                    out.append(ld.issue_at(("vary", name) + ((i,) if isinstance(v, list) else ()),
                                           f"{b}: a flock size is a whole number in 1..65535"))
                    break
        if len(set(map(_exact, vals))) != len(vals):
            out.append(ld.issue_at(("vary", name), "a value is listed twice"))
    points = math.prod(counts.values())
    if all(0 < n <= MAX_VALUES for n in counts.values()) and points * e.trials > MAX_TRIALS:
        out.append(ld.issue_at(("trials",), f"{points} points x {e.trials} trials is more than {MAX_TRIALS:,}"))
    return out
