"""boidsgen: the command line.

  boidsgen generate [SPEC] [-o DIR] [--check]
  boidsgen check [SPEC] [--max-quant-error PCT] [--strict]
  boidsgen schema
  boidsgen rules [NAME] [--spec SPEC]
  boidsgen build [SPEC]
  boidsgen sim [SPEC] --frames N --seed S [--arith fixed|float] [--boids N] [--set NAME=VALUE ...] [--trace FILE]
               [--check-overflow]
  boidsgen compare [SPEC] [--frames N] [--every K] [--seed S] [--boids N] [--plot FILE.png]
  boidsgen parity [SPEC] --frames N --seed S [--boids N] [--set NAME=VALUE ...] [--order ...] [--format ...]
  boidsgen budget [SPEC] [--boids N ...] [--warmup F] [--cpi C] [--variant both|spec|grid] [--profile]
  boidsgen watch PORT [--spec SPEC] [--seed S] [--every K] [--frames N] [--adopt]
  boidsgen commands [SPEC]
  boidsgen experiment FILE [--workers N] [--scheduler ADDRESS] [--resume] [--out DIR]

SPEC defaults to spec/boids.yaml.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import VERSION

DEFAULT_SPEC = "spec/boids.yaml"


def _int_in(lo: int, hi: int | None = None):
    """An argparse type: a whole number in [lo, hi]."""
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if v < lo or (hi is not None and v > hi):
            raise argparse.ArgumentTypeError(f"{v} is outside {lo}..{hi if hi is not None else 'any'}")
        return v
    return parse


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} must be a positive number")
    return v


FRAMES = _int_in(1, 10_000_000)
SEED = _int_in(0, 0xFFFFFFFF)
BOIDS = _int_in(0, 65535)


def _err(msg: str) -> None:
    print(f"boidsgen: {msg}", file=sys.stderr)


def _load(spec_path: str):
    """The spec's model, refused exactly as `generate` refuses it (range gate included)."""
    from .pipeline import checked_model

    return checked_model(spec_path)


def cmd_generate(a) -> int:
    from .pipeline import OutputError, claim_output, gate, load, render_files, write_tree
    from .project import output_dir
    from .render import differing

    m = load(a.spec)
    out = Path(a.output) if a.output else output_dir(a.spec, m.name)
    if out.exists() and not out.is_dir():
        raise OutputError(f"-o {out}: that is a file, not a folder")
    if a.check:  # a check only reads: no gate, nothing written
        bad = differing(render_files(m, out), out)
        if bad:
            print(f"{out}: {len(bad)} file(s) differ from a fresh render of {a.spec}:")
            for b in bad:
                print(f"  {b}")
            print("run `boidsgen generate` and commit the result")
            return 1
        print(f"{out}: up to date with {a.spec} (hash {m.hash})")
        return 0
    rep = gate(a.spec, m)
    files = render_files(m, out)
    claim_output(a.spec, m, out)
    written = write_tree(files, out)
    print(f"range analysis: {len(rep.sites)} expressions within 32 bits "
          f"({sum(1 for s in rep.sites if s.kind != '32')} in 64 bits); details: boidsgen check {a.spec}")
    print(f"{out}: {len(written)} of {len(files)} file(s) written (spec hash {m.hash})")
    for w in written:
        print(f"  {w}")
    return 0


def cmd_check(a) -> int:
    from .quant_report import report_lines, worst, zeros
    from .range_check import analyse, error_issues
    from .pipeline import load
    from .range_check import report_lines as range_lines
    from .spec_errors import SpecError
    from .spec_loader import load_spec

    m = load(a.spec)
    print(f"{a.spec}: valid (spec '{m.name}', hash {m.hash}, {len(m.params)} parameters, "
          f"{len(m.rules)} rules: {', '.join(r.name for r in m.rules)})")
    print(f"display: {m.panel.describe(m.spec.display.width, m.spec.display.height)}")
    for line in report_lines(m):
        print(line)
    for q in zeros(m):
        print(f"warning: {q.name}.{q.field} = {q.text} quantizes to 0 in {m.spec.fixed_point.format}: "
              f"it has no effect at that value", file=sys.stderr)
    rep = analyse(m)
    print()
    for line in range_lines(rep):
        print(line)
    if not rep.ok:  # the report above, then the same located errors as generate, exit 2
        _, loc = load_spec(a.spec)
        raise SpecError(error_issues(rep, a.spec, loc))
    bad = worst(m, a.max_quant_error)
    for q in bad:
        level = "error" if a.strict else "warning"
        print(f"{level}: {q.name}.{q.field} = {q.text} quantizes to {q.represents} "
              f"({q.rel_error * 100:+.2f}%, above {a.max_quant_error}%)", file=sys.stderr)
    return 1 if (bad and a.strict) else 0


def cmd_rules(a) -> int:
    """The library (and a spec's own rules with --spec): a table, or one definition."""
    from .lang.library import DEFS, library_files
    from .model import library

    rules = dict(library(15))
    own = {}
    if a.spec_file:
        from .spec_loader import load_spec

        spec, _ = load_spec(a.spec_file)
        own = {n: r for n, r in spec._rules.items() if r.path != rules.get(n, r).path or n not in rules}
        rules.update(own)
    if a.name is None:
        print(f"{'rule':<20} {'seed':<14} roles; summary")
        for name in sorted(rules):
            r = rules[name]
            where = " (spec)" if name in own else ""
            roles = ", ".join(f"{x.name}: {x.type}" for x in r.roles)
            print(f"{name:<20} {(r.seed or '-'):<14} {roles}; {r.description}{where}")
        print(f"\n{len(rules)} rules; `boidsgen rules NAME` prints a definition (library: {DEFS})")
        return 0
    r = rules.get(a.name)
    if r is None:
        import difflib

        near = difflib.get_close_matches(a.name, list(rules), n=1)
        _err(f"no rule '{a.name}'" + (f" (did you mean '{near[0]}'?)" if near else "") + "; `boidsgen rules` lists them")
        return 2
    path = Path(r.path)
    if a.name in own:
        from .spec_loader import read_yaml

        doc = read_yaml(path)
        node = doc["rule_defs"][a.name]
        first, last = node.lc.line, _last_line(path, node.lc.line)
        lines = path.read_text(encoding="utf-8").splitlines()[first - 1:last]
        print(f"# {path}, rule_defs.{a.name}")
        print("\n".join(ln[2:] if ln.startswith("  ") else ln for ln in lines))
    else:
        print(path.read_text(encoding="utf-8"), end="")
    return 0


def _last_line(path: Path, start: int) -> int:
    """The last line of the block that starts at 0-based line `start` (by indentation)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) >= indent):
        end += 1
    return end


def cmd_schema(a) -> int:
    from .spec_model import Spec

    schema = Spec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "boidsgen spec"
    print(json.dumps(schema, indent=2, sort_keys=True))
    return 0


def cmd_build(a) -> int:
    from .build import build

    return build(a.spec, verbose=True, run_demo=True)


def _sets(pairs: list[str]) -> list[tuple[str, str]]:
    out = []
    for s in pairs or []:
        if "=" not in s:
            raise SystemExit(f"boidsgen: --set wants NAME=VALUE, got '{s}'")
        k, v = s.split("=", 1)
        out.append((k, v))
    return out


def cmd_sim(a) -> int:
    from pysim import trace
    from pysim.params import ParamError

    from .project import load_generated_model

    m = _load(a.spec)
    model = load_generated_model(a.spec, m)
    from pysim.engine import Simulation

    if a.check_overflow and a.arith != "fixed":
        _err("--check-overflow checks the fixed-point arithmetic (drop --arith float)")
        return 2
    sim = Simulation(model, a.arith, seed=a.seed, order=a.order, boids=a.boids)
    if a.check_overflow:
        from pysim.checked_arith import checked_arith_for

        sim.A = checked_arith_for(model)
        sim.A.frame_of = lambda: sim.frame
    try:
        for k, v in _sets(a.set):
            sim.params.set(k, v)
    except ParamError as e:
        _err(f"--set: {e}")
        return 2
    sim.reset(a.seed, a.boids)
    if a.trace:
        out = sys.stdout if a.trace == "-" else open(a.trace, "w", encoding="utf-8")
        from pysim.checked_arith import OverflowFound

        try:
            trace.write_run(sim, a.frames, out)
        except OverflowFound as e:
            _err(str(e))
            return 1
        finally:
            if out is not sys.stdout:
                out.close()
    else:
        import time

        from pysim.checked_arith import OverflowFound

        t0 = time.perf_counter()
        try:
            sim.run(a.frames)
        except OverflowFound as e:
            _err(str(e))
            return 1
        dt = time.perf_counter() - t0
        if a.check_overflow:
            print(f"check-overflow: {a.frames} frames x {sim.count} boids, every value within 32 bits")
        print(f"sim: {a.frames} frames x {sim.count} boids ({a.arith}, {sim.order}) in {dt:.2f} s "
              f"({dt / max(a.frames, 1) * 1000:.2f} ms/frame)")
    return 0


def cmd_compare(a) -> int:
    from .compare import plot, quant_warnings, run_compare, table_lines
    from .project import load_generated_model

    m = _load(a.spec)
    model = load_generated_model(a.spec, m)
    if a.frames < 1 or a.every < 1:
        _err("--frames and --every must be at least 1")
        return 2
    rows = run_compare(m, model, frames=a.frames, every=a.every, seed=a.seed, boids=a.boids)
    print(f"compare '{m.name}': fixed ({m.spec.fixed_point.format}) vs float from the same spawn "
          f"(seed {model.SEED if a.seed is None else a.seed}); fx = fixed, fl = float, |dp| |dv| = mean distance "
          f"between the same boid in both")
    for line in table_lines(rows):
        print(line)
    for w in quant_warnings(m, a.max_quant_error):
        print(w, file=sys.stderr)
    path = a.plot or f"build/{m.name}/compare.png"
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    if plot(rows, path, f"{m.name}: fixed vs float") is None:
        print("plot: skipped, it needs matplotlib: pip install -e .[plot]")
    else:
        print(f"plot: {path}")
    return 0


def cmd_parity(a) -> int:
    from .parity import run_parity

    orders = ["sequential", "synchronous"] if a.order == "both" else ([a.order] if a.order else [None])
    rc = 0
    for order in orders:
        res = run_parity(a.spec, frames=a.frames, seed=a.seed, boids=a.boids, sets=_sets(a.set),
                         order=order, fmt=a.format)
        print(res.summary)
        if not res.ok:
            rc = 1
    return rc


def cmd_budget(a) -> int:
    from .budget import BudgetError, run_budget

    boids = a.boids or [100, 200, 500, 1000]
    if a.profile:  # where the frame's instructions and cycles go: codegen/budget_profile.py
        from .budget_profile import profile_cli
        return profile_cli(a, boids, _err)
    try:
        b = run_budget(a.spec, boids, warmup=a.warmup, seed=a.seed, cpi=a.cpi, which=a.variant,
                       progress=lambda r: print(f"  measured {r.variant} N={r.n}", file=sys.stderr, flush=True))
    except BudgetError as e:
        _err(str(e))
        return 1
    print(b.table())
    return 0


def cmd_watch(a) -> int:
    from . import watch_cmd
    from .project import load_generated_model

    return watch_cmd.run(a, load_generated_model(a.spec, _load(a.spec)))


def cmd_commands(a) -> int:
    from .commands import markdown

    print(markdown(_load(a.spec).spec), end="")
    return 0


def cmd_experiment(a) -> int:
    from .experiment_cmd import run

    return run(a)


def main(argv: list[str] | None = None) -> int:
    from .spec_errors import SpecError

    ap = argparse.ArgumentParser(prog="boidsgen", description="flock spec -> PIC32 firmware + Python simulator")
    ap.add_argument("--version", action="version", version=f"boidsgen {VERSION}")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def spec_arg(p):
        p.add_argument("spec", nargs="?", default=DEFAULT_SPEC, help=f"spec file (default {DEFAULT_SPEC})")

    p = sub.add_parser("generate", help="render the spec into generated/<name>/")
    spec_arg(p)
    p.add_argument("-o", "--output", help="output folder (default generated/<name>)")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 naming files that differ")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("check", help="validate the spec and print the quantization report")
    spec_arg(p)
    p.add_argument("--max-quant-error", type=_positive_float, default=5.0, metavar="PCT",
                   help="warn when a constant's relative quantization error exceeds PCT percent (default 5)")
    p.add_argument("--strict", action="store_true", help="fail instead of warning")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("rules", help="list the rule library, or print one rule's definition")
    p.add_argument("name", nargs="?", help="a rule to print")
    p.add_argument("--spec", dest="spec_file", metavar="SPEC", help="include this spec's own rule_defs")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("schema", help="print the spec's JSON Schema")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("build", help="generate, then compile the host firmware (and the PIC32 image with xc32-gcc)")
    spec_arg(p)
    p.set_defaults(func=cmd_build)

    def run_args(p, frames_default=None):
        p.add_argument("--frames", type=FRAMES, required=frames_default is None, default=frames_default)
        p.add_argument("--seed", type=SEED, default=None, help="PRNG seed (default: the spec's)")
        p.add_argument("--boids", type=BOIDS, default=None, help="flock size (default: the spec's)")
        p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a tunable parameter")

    p = sub.add_parser("sim", help="run the Python simulator")
    spec_arg(p)
    run_args(p)
    p.add_argument("--arith", choices=["fixed", "float"], default="fixed")
    p.add_argument("--order", choices=["sequential", "synchronous"], default=None)
    p.add_argument("--trace", help="write the trace here ('-' for stdout)")
    p.add_argument("--check-overflow", action="store_true",
                   help="shadow every fixed-point value in 64 bits; fail on the first outside 32 bits")
    p.set_defaults(func=cmd_sim)

    p = sub.add_parser("compare", help="fixed-point vs float flock from the same spawn: metrics and divergence")
    spec_arg(p)
    p.add_argument("--frames", type=FRAMES, default=300)
    p.add_argument("--every", type=FRAMES, default=30, help="a table row every K frames (default 30)")
    p.add_argument("--seed", type=SEED, default=None, help="PRNG seed (default: the spec's)")
    p.add_argument("--boids", type=BOIDS, default=None, help="flock size (default: the spec's)")
    p.add_argument("--plot", metavar="FILE.png", help="plot here (default build/<name>/compare.png)")
    p.add_argument("--max-quant-error", type=_positive_float, default=5.0, metavar="PCT",
                   help="warn when a constant's quantization error exceeds PCT percent (default 5)")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("parity", help="run the host firmware and the simulator; compare bit for bit")
    spec_arg(p)
    run_args(p)
    p.add_argument("--order", choices=["sequential", "synchronous", "both"], default=None,
                   help="update order (default: the spec's; other orders are regenerated in a scratch folder)")
    p.add_argument("--format", choices=["s16.15", "s15.16"], default=None, help="fixed-point format override")
    p.set_defaults(func=cmd_parity)

    p = sub.add_parser("budget", help="PIC32 frame budget: instructions (qemu-mipsel, -march=m4k), SPI, RAM per N")
    spec_arg(p)
    p.add_argument("--boids", type=_int_in(1, 65535), nargs="+", metavar="N",
                   help="flock sizes (default 100 200 500 1000)")
    p.add_argument("--warmup", type=_int_in(0, 100_000), default=300,
                   help="frames before the measured one (default 300)")
    p.add_argument("--seed", type=SEED, default=None, help="PRNG seed (default: the spec's)")
    p.add_argument("--cpi", type=_positive_float, default=1.5, help="cycles per instruction assumed (default 1.5)")
    p.add_argument("--variant", choices=["both", "spec", "grid"], default="both",
                   help="the spec as written, the grid (synchronous + performance.grid), or both (default)")
    p.add_argument("--profile", action="store_true", help="split each frame (-O1) into its parts, M4K cycle model, "
                   "pair counts, lower bound (BENCHMARKS.md)")
    p.set_defaults(func=cmd_budget)

    p = sub.add_parser("watch", help="run the simulator in lockstep with a board; stop at the first divergence")
    p.add_argument("port", help="the board's serial port (or boids_host --pty's path)")
    p.add_argument("--spec", default=DEFAULT_SPEC, help=f"the spec the board runs (default {DEFAULT_SPEC})")
    p.add_argument("--seed", type=SEED, default=None, help="reset the board with this seed (default: its own)")
    p.add_argument("--every", type=_int_in(1, 1000), default=1, help="a digest every K frames (default 1)")
    p.add_argument("--frames", type=_int_in(0, 10_000_000), default=0, help="stop after N frames in step")
    p.add_argument("--adopt", action="store_true", help="take the board's state from a dump instead of a reset")
    p.add_argument("--baud", type=_int_in(1, 4_000_000), default=None, help="default: the spec's")
    p.add_argument("--timeout", type=_positive_float, default=2.0, help="seconds to wait for a reply")
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("commands", help="the firmware's serial commands for a spec, as a Markdown table")
    spec_arg(p)
    p.set_defaults(func=cmd_commands)

    p = sub.add_parser("experiment", help="run an experiment file's trials (Dask); tables and plots per point")
    p.add_argument("file", help="the experiment file (experiments/*.yaml)")
    p.add_argument("--workers", type=_int_in(0, 1024), default=None,
                   help="local worker processes (default: one per core; 0: in this process)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on this Dask cluster (tcp://HOST:8786)")
    p.add_argument("--resume", action="store_true", help="continue the run whose rows are in --out")
    p.add_argument("--out", metavar="DIR", help="output folder (default build/experiments/<name>)")
    p.set_defaults(func=cmd_experiment)

    a = ap.parse_args(argv)
    try:
        return a.func(a)
    except SpecError as e:
        for issue in e.issues:
            print(issue, file=sys.stderr)
        _err(f"{len(e.issues)} error(s) in the spec; nothing written")
        return 2
    except BrokenPipeError:  # `boidsgen ... | head`: the reader left; say nothing more
        _silence_stdout()
        return 1
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except Exception as e:  # noqa: BLE001 - the user gets a sentence, not a traceback
        from pysim.model_support import ModelMismatch

        from .build import BuildError
        from .pipeline import OutputError

        if isinstance(e, OutputError):
            _err(str(e))
            return 2
        if isinstance(e, (BuildError, ModelMismatch, ValueError, OSError)):
            _err(str(e))
            return 1
        if os.environ.get("BOIDSGEN_DEBUG"):
            raise
        _err(f"internal error: {type(e).__name__}: {e} (run with BOIDSGEN_DEBUG=1 for the traceback; "
             "please report it)")
        return 70


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
