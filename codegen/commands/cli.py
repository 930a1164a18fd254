"""boidsgen: the command line. The commands and their options are in
parser.py (`boidsgen --help`; docs/cli.md is generated from it); each
command is a cmd_<name>(args): in generate.py, check.py, rules.py, sim.py, or
below. SPEC defaults to spec/boids.yaml.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from codegen.commands.check import cmd_check  # noqa: F401 - parser.build reads cli.cmd_<name>
from codegen.commands.emulate import cmd_emulate  # noqa: F401
from codegen.commands.generate import cmd_generate  # noqa: F401
from codegen.commands.messages import err, failed, spec_errors
from codegen.commands.numbers import boids_within
from codegen.commands.rules import cmd_rules, cmd_schema  # noqa: F401
from codegen.commands.sim import cmd_sim, sets_of  # noqa: F401
from codegen.commands.targets import cmd_targets  # noqa: F401
from codegen.output.pipeline import checked_model


def cmd_build(a) -> int:
    from codegen.drivers.host_build import build

    return build(a.spec, verbose=True, run_demo=True, targets=a.target)


def cmd_compare(a) -> int:
    from codegen.commands.compare import plot, quant_warnings, run_compare, table_lines
    from codegen.output.render import load_generated_model

    m = checked_model(a.spec)
    boids_within(a.boids, m.spec.flock.capacity)
    model = load_generated_model(a.spec, m)
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
        from codegen.commands.extras import plot_hint

        print(f"plot: skipped, {plot_hint('plot')}")
    else:
        print(f"plot: {path}")
    return 0


def cmd_parity(a) -> int:
    from codegen.commands.parity import run_parity

    orders = ["sequential", "synchronous"] if a.order == "both" else ([a.order] if a.order else [None])
    rc = 0
    for order in orders:
        res = run_parity(a.spec, frames=a.frames, seed=a.seed, boids=a.boids, sets=sets_of(a.set),
                         order=order, fmt=a.format, target=a.target)
        print(res.summary)
        if not res.ok:
            rc = 1
    return rc


def cmd_budget(a) -> int:
    """The target's own budget (its record's `budget`: codegen/boards/registry.py)."""
    from codegen.boards import registry

    return registry.target(a.target).budget.load()(a, err, failed)


def cmd_watch(a) -> int:
    from codegen.commands import watch as watch_cmd
    from codegen.output.render import load_generated_model

    return watch_cmd.run(a, load_generated_model(a.spec, checked_model(a.spec)))


def cmd_commands(a) -> int:
    from codegen.model.serial_commands import markdown

    print(markdown(checked_model(a.spec).spec), end="")
    return 0


def cmd_experiment(a) -> int:
    from codegen.commands.experiment import run

    return run(a)


def main(argv: list[str] | None = None) -> int:
    from codegen.spec.errors import SpecError

    from codegen.commands import parser as cli_parser

    from codegen.commands.extras import refusal

    ap = cli_parser.build(sys.modules[__name__])
    a = ap.parse_args(argv)
    missing = refusal(a.cmd)  # an optional extra the command needs: said before anything runs or prints
    if missing:
        err(missing)
        return 2
    try:
        return a.func(a)
    except SpecError as e:
        spec_errors(e.issues)
        return 2
    except BrokenPipeError:  # `boidsgen ... | head`: the reader left; say nothing more
        _silence_stdout()
        return 1
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except Exception as e:  # noqa: BLE001 - the user gets a sentence, not a traceback
        from pysim.model_support import ModelMismatch

        from codegen.drivers.host_build import BuildError
        from codegen.output.pipeline import OutputError

        from codegen.commands.numbers import BadOption

        if isinstance(e, (OutputError, BadOption)):
            err(str(e))
            return 2
        if isinstance(e, BuildError):  # its first line's paths escaped where raised; then the tool's output
            failed(str(e))
            return 1
        if isinstance(e, (ModelMismatch, ValueError, OSError)):
            err(str(e))
            return 1
        if os.environ.get("BOIDSGEN_DEBUG"):
            raise
        err(f"internal error: {type(e).__name__}: {e} (run with BOIDSGEN_DEBUG=1 for the traceback; "
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
