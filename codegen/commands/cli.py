"""boidsgen: the command line. The commands and their options are in
cli_parser.py (`boidsgen --help`; docs/cli.md is generated from it); each
command is a cmd_<name>(args) below. SPEC defaults to spec/boids.yaml.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from codegen.commands.parser import DEFAULT_SPEC


def _err(msg: str) -> None:
    print(f"boidsgen: {msg}", file=sys.stderr)


def _spec_errors(issues, summary: bool = True) -> None:
    """A bad spec's located errors, one a line, then (with summary) the count."""
    for issue in issues:
        print(issue, file=sys.stderr)
    if summary:
        _err(f"{len(issues)} error(s) in the spec; nothing written")


def _load(spec_path: str):
    """The spec's model, refused exactly as `generate` refuses it (range gate included)."""
    from codegen.output.pipeline import checked_model

    return checked_model(spec_path)


def cmd_generate(a) -> int:
    from codegen.output.pipeline import OutputError, claim_output, gate, load, render_files, write_tree
    from codegen.spec.project import output_dir
    from codegen.output.render import differing

    m = load(a.spec)
    out = Path(a.output) if a.output else output_dir(a.spec, m.name)
    if out.exists() and not out.is_dir():
        raise OutputError(f"-o {out}: that is a file, not a folder")
    if a.check:  # a check only reads: no gate, nothing written
        bad = differing(render_files(m, out, a.spec), out)
        if bad:
            print(f"{out}: {len(bad)} file(s) differ from a fresh render of {a.spec}:")
            for b in bad:
                print(f"  {b}")
            print("run `boidsgen generate` and commit the result")
            return 1
        print(f"{out}: up to date with {a.spec} (hash {m.hash})")
        return 0
    rep = gate(a.spec, m)
    files = render_files(m, out, a.spec)
    claim_output(a.spec, m, out)
    written = write_tree(files, out)
    print(f"range analysis: {len(rep.sites)} expressions within 32 bits "
          f"({sum(1 for s in rep.sites if s.kind != '32')} in 64 bits); details: boidsgen check {a.spec}")
    print(f"{out}: {len(written)} of {len(files)} file(s) written (spec hash {m.hash})")
    for w in written:
        print(f"  {w}")
    return 0


def cmd_check(a) -> int:
    from codegen.analysis.quant_report import report_lines, worst, zeros
    from codegen.analysis.range_check import analyse, error_issues
    from codegen.output.pipeline import load
    from codegen.analysis.range_check import report_lines as range_lines
    from codegen.spec.errors import SpecError
    from codegen.spec.loader import load_spec

    m = load(a.spec)
    rep = analyse(m)
    if not rep.ok:  # the located errors first (as generate prints them), then the report that explains them
        _, loc = load_spec(a.spec)
        issues = error_issues(rep, a.spec, loc)
        _spec_errors(issues, summary=False)
        sys.stderr.flush()
        print(f"{a.spec}: NOT valid: {len(issues)} expression(s) can overflow; the range analysis:")
        for line in range_lines(rep):
            print(line)
        sys.stdout.flush()
        _err(f"{len(issues)} error(s) in the spec; nothing written")
        return 2
    print(f"{a.spec}: valid (spec '{m.name}', hash {m.hash}, {len(m.params)} parameters, "
          f"{len(m.rules)} rules: {', '.join(r.name for r in m.rules)})")
    print(f"display: {m.panel.describe(m.spec.display.width, m.spec.display.height)}")
    for line in report_lines(m):
        print(line)
    for q in zeros(m):
        print(f"warning: {q.name}.{q.field} = {q.text} quantizes to 0 in {m.spec.fixed_point.format}: "
              f"it has no effect at that value", file=sys.stderr)
    print()
    for line in range_lines(rep):
        print(line)
    bad = worst(m, a.max_quant_error)
    for q in bad:
        change = f"({q.rel_error * 100:+.2f}%, above {a.max_quant_error}%)"
        if a.strict:
            print(f"error: {q.name}.{q.field} = {q.text} quantizes to {q.represents} {change}", file=sys.stderr)
        elif q.field == "default":  # the value the flock runs with
            print(f"warning: {q.name}.default = {q.text} quantizes to {q.represents} {change}", file=sys.stderr)
        else:  # a range bound only moves where the slider and `set` stop: said, not warned about
            print(f"note: {q.name}.{q.field} = {q.text} is held as {q.represents} {change}: a range bound, so "
                  f"`set` and the sliders stop there; write {q.field}: {q.represents} to say so exactly")
    return 1 if (bad and a.strict) else 0


def cmd_rules(a) -> int:
    """The library (and a spec's own rules with --spec): a table, or one definition."""
    from codegen.lang.library import DEFS, library_files
    from codegen.lang.library import library

    rules = dict(library(15))
    own = {}
    if a.spec_file:
        from codegen.spec.loader import load_spec

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
        from codegen.spec.yaml_read import read_yaml

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
    from codegen.spec.schema import Spec

    schema = Spec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "boidsgen spec"
    print(json.dumps(schema, indent=2, sort_keys=True))
    return 0


def cmd_build(a) -> int:
    from codegen.targets.host.build import build

    return build(a.spec, verbose=True, run_demo=True, targets=a.target)


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

    from codegen.output.render import load_generated_model

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
        if out is not sys.stdout:  # say what was written (stdout is the trace itself with '-')
            print(f"sim: {a.frames} frames x {sim.count} boids ({a.arith}, {sim.order}): trace written to {a.trace}")
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
    from codegen.commands.compare import plot, quant_warnings, run_compare, table_lines
    from codegen.output.render import load_generated_model

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
    from codegen.commands.parity import run_parity

    orders = ["sequential", "synchronous"] if a.order == "both" else ([a.order] if a.order else [None])
    rc = 0
    for order in orders:
        res = run_parity(a.spec, frames=a.frames, seed=a.seed, boids=a.boids, sets=_sets(a.set),
                         order=order, fmt=a.format, target=a.target)
        print(res.summary)
        if not res.ok:
            rc = 1
    return rc


def cmd_budget(a) -> int:
    from codegen.targets.pic32.budget.measure import BudgetError, run_budget

    boids = a.boids or [100, 200, 500, 1000]
    if a.cost_table:  # refused before measuring anything
        where = Path(a.cost_table)
        if len(set(boids)) < 2:
            _err("--cost-table needs the frame time at two flock sizes or more (--boids N N ...)")
            return 2
        if where.is_dir() or not where.parent.is_dir():
            _err(f"--cost-table {a.cost_table}: " + ("a folder" if where.is_dir() else "no such folder"))
            return 2
    if a.profile:  # where the frame's instructions and cycles go: codegen/targets/pic32/budget/profile.py
        from codegen.targets.pic32.budget.profile import profile_cli
        return profile_cli(a, boids, _err)
    try:
        b = run_budget(a.spec, boids, warmup=a.warmup, seed=a.seed, cpi=a.cpi, which=a.variant,
                       progress=lambda r: print(f"  measured {r.variant} N={r.n}", file=sys.stderr, flush=True))
    except BudgetError as e:
        _err(str(e))
        return 1
    print(b.table())
    if a.cost_table:
        print(f"cost table (-O1, CPI {b.cpi}, {b.rows[0].variant}): {b.cost_table(a.cost_table)}")
    return 0


def cmd_watch(a) -> int:
    from codegen.commands import watch as watch_cmd
    from codegen.output.render import load_generated_model

    return watch_cmd.run(a, load_generated_model(a.spec, _load(a.spec)))


def cmd_commands(a) -> int:
    from codegen.model.serial_commands import markdown

    print(markdown(_load(a.spec).spec), end="")
    return 0


def cmd_experiment(a) -> int:
    from codegen.commands.experiment import run

    return run(a)


def main(argv: list[str] | None = None) -> int:
    from codegen.spec.errors import SpecError

    from codegen.commands import parser as cli_parser

    ap = cli_parser.build(sys.modules[__name__])
    a = ap.parse_args(argv)
    try:
        return a.func(a)
    except SpecError as e:
        _spec_errors(e.issues)
        return 2
    except BrokenPipeError:  # `boidsgen ... | head`: the reader left; say nothing more
        _silence_stdout()
        return 1
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except Exception as e:  # noqa: BLE001 - the user gets a sentence, not a traceback
        from pysim.model_support import ModelMismatch

        from codegen.targets.host.build import BuildError
        from codegen.output.pipeline import OutputError

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
