"""boidsgen's command line: the parser (codegen/commands/cli.py runs the commands).
Each subcommand's options, with their types and help, in one place."""
from __future__ import annotations

import argparse

from codegen import VERSION
from codegen.boards import registry
from codegen.commands.numbers import (BAUD, BOIDS, BUDGET_BOIDS, BUDGET_FRAMES, CPI, EVERY, FRAMES, FRAMES_OR_ALL,
                                      PERCENT, SECONDS, SEED, WARMUP, WORKERS, with_ranges)

DEFAULT_SPEC = "spec/boids.yaml"


def build(cli) -> argparse.ArgumentParser:
    """The parser; each subcommand calls cli.cmd_<name>(args)."""
    ap = argparse.ArgumentParser(prog="boidsgen", description="flock spec -> PIC32 firmware + Python simulator")
    ap.add_argument("--version", action="version", version=f"boidsgen {VERSION}")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def target_arg(p):
        p.add_argument("--target", action="append", choices=registry.boards(), default=None,
                       help="the board to build for, instead of the spec's board.target (may be repeated).")

    def spec_arg(p):
        p.add_argument("spec", nargs="?", default=DEFAULT_SPEC, help=f"spec file (default {DEFAULT_SPEC})")

    p = sub.add_parser("generate", help="render the spec into generated/<name>/")
    spec_arg(p)
    p.add_argument("-o", "--output", help="output folder (default generated/<name>)")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 naming files that differ")
    p.set_defaults(func=cli.cmd_generate)

    p = sub.add_parser("check", help="validate the spec and print the quantization report")
    spec_arg(p)
    p.add_argument("--max-quant-error", type=PERCENT, default=5.0, metavar="PCT",
                   help="warn when a constant's relative quantization error exceeds PCT percent (default 5)")
    p.add_argument("--strict", action="store_true", help="fail instead of warning")
    p.set_defaults(func=cli.cmd_check)

    p = sub.add_parser("rules", help="list the rule library, or print one rule's definition")
    p.add_argument("name", nargs="?", help="a rule to print")
    p.add_argument("--spec", dest="spec_file", metavar="SPEC", help="include this spec's own rule_defs")
    p.set_defaults(func=cli.cmd_rules)

    p = sub.add_parser("schema", help="print the spec's JSON Schema")
    p.set_defaults(func=cli.cmd_schema)

    p = sub.add_parser("targets", help="list the boards and host builds boidsgen makes firmware for: their facts, "
                       "their passes, what builds, compares and measures them")
    p.set_defaults(func=cli.cmd_targets)

    p = sub.add_parser("build", help="generate, then compile the host firmware and the spec's board(s) ("
                       + ", ".join(registry.boards()) + "; `boidsgen targets` says what builds each)")
    spec_arg(p)
    target_arg(p)
    p.set_defaults(func=cli.cmd_build)

    def run_args(p, frames_default=None):
        p.add_argument("--frames", type=FRAMES, required=frames_default is None, default=frames_default,
                       help="frames to run")
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
    p.set_defaults(func=cli.cmd_sim)

    p = sub.add_parser("compare", help="fixed-point vs float flock from the same spawn: metrics and divergence")
    spec_arg(p)
    p.add_argument("--frames", type=FRAMES, default=300, help="frames to run (default 300)")
    p.add_argument("--every", type=FRAMES, default=30, help="a table row every K frames (default 30)")
    p.add_argument("--seed", type=SEED, default=None, help="PRNG seed (default: the spec's)")
    p.add_argument("--boids", type=BOIDS, default=None, help="flock size (default: the spec's)")
    p.add_argument("--plot", metavar="FILE.png", nargs="?", const="",
                   help="plot here (default, and with --plot alone: build/<name>/compare.png)")
    p.add_argument("--max-quant-error", type=PERCENT, default=5.0, metavar="PCT",
                   help="warn when a constant's quantization error exceeds PCT percent (default 5)")
    p.set_defaults(func=cli.cmd_compare)

    p = sub.add_parser("parity", help="run a target's firmware (" + ", ".join(registry.with_part("trace"))
                       + ": --target) and the simulator; compare bit for bit")
    spec_arg(p)
    run_args(p)
    p.add_argument("--order", choices=["sequential", "synchronous", "both"], default=None,
                   help="update order (default: the spec's; other orders are regenerated in a scratch folder)")
    p.add_argument("--format", choices=["s16.15", "s15.16"], default=None, help="fixed-point format override")
    p.add_argument("--target", choices=registry.with_part("trace"), default=registry.HOST.name,
                   help="the firmware compared: " + "; ".join(f"{n}: {registry.target(n).title}"
                                                              for n in registry.with_part("trace"))
                   + f" (default {registry.HOST.name})")
    p.set_defaults(func=cli.cmd_parity)

    p = sub.add_parser("budget", help="frame budget per N: PIC32 instructions (qemu-mipsel, -march=m4k), SPI, RAM; "
                       "or --target rp2040: frames executed in rp2040js")
    spec_arg(p)
    p.add_argument("--boids", type=BUDGET_BOIDS, nargs="+", metavar="N",
                   help="flock sizes (default 100 200 500: each fits the PIC32 in both variants; rp2040: 100 200 300 "
                   "400, the grid 400 600 800 1000)")
    p.add_argument("--warmup", type=WARMUP, default=None,
                   help="PIC32: measure ONE frame, after this many (the one-frame table; --profile's default 300); "
                   "without it (and --profile, --cost-table) the budget runs every frame of --frames; rp2040 --profile: "
                   "the frames run before the profiled ones (default 0)")
    p.add_argument("--seed", type=SEED, default=None, help="PRNG seed (default: the spec's)")
    p.add_argument("--cpi", type=CPI, default=1.5, help="cycles per instruction assumed (default 1.5)")
    p.add_argument("--variant", choices=["both", "spec", "grid"], default="both",
                   help="the spec as written, the grid (synchronous + performance.grid), or both (default)")
    p.add_argument("--optimize", choices=["both", "fast", "plain"], default=None,
                   help="performance.optimize modes to measure: fast and plain side by side, or one (default: the "
                   "spec's own over runs, both for the one-frame table; --profile: the spec's own)")
    p.add_argument("--profile", action="store_true", help="PIC32: split each frame (-O1) into its parts, M4K cycle "
                   "model, pair counts, lower bound (BENCHMARKS.md); rp2040: the cycles by function, by block of the "
                   "flock code and by line, over --frames (default 100) of the first seed (the grid: 1000 boids)")
    p.add_argument("--cost-table", metavar="FILE", help="write the frame time per N (-O1; with --profile the cycle "
                   "model's) of the spec as written (--variant grid: the grid's) for boids_host --m4k-cost")
    p.add_argument("--target", choices=registry.with_part("budget"), default=registry.DEFAULT_BOARD,
                   help="the board measured: " + "; ".join(
                       f"{n}: {registry.target(n).core} at {registry.target(n).clock_hz / 1e6:g} MHz"
                       for n in registry.with_part("budget")) + f" (default {registry.DEFAULT_BOARD}; the PIC32's "
                   "frames run under qemu-mipsel, the RP2040's whole frames executed in rp2040js)")
    p.add_argument("--frames", type=BUDGET_FRAMES, default=None,
                   help="frames after spawn measured per N and seed, every one (default: PIC32 3000; rp2040 1000, "
                   "3,000 over the 3 seeds)")
    p.add_argument("--seeds", type=SEED, nargs="+", default=None, metavar="S",
                   help="the seeds (default: PIC32 1 2 3 4 5, rp2040 1 2 3)")
    p.set_defaults(func=cli.cmd_budget)

    p = sub.add_parser("watch", help="run the simulator in lockstep with a board; stop at the first divergence")
    p.add_argument("port", help="the board's serial port (or boids_host --pty's path)")
    p.add_argument("--spec", default=DEFAULT_SPEC, help=f"the spec the board runs (default {DEFAULT_SPEC})")
    p.add_argument("--seed", type=SEED, default=None, help="reset the board with this seed (default: its own)")
    p.add_argument("--every", type=EVERY, default=1, help="a digest every K frames (default 1)")
    p.add_argument("--frames", type=FRAMES_OR_ALL, default=0, help="stop after N frames in step (default 0: follow until stopped)")
    p.add_argument("--adopt", action="store_true", help="take the board's state from a dump instead of a reset")
    p.add_argument("--baud", type=BAUD, default=None, help="default: the spec's")
    p.add_argument("--timeout", type=SECONDS, default=2.0, help="seconds to wait for a reply")
    p.set_defaults(func=cli.cmd_watch)

    p = sub.add_parser("emulate", help="run the spec's RP2040 firmware in rp2040js with its UART0 on a "
                       "pseudo-terminal (for watch, the GUI's Board mode, a terminal)")
    spec_arg(p)
    p.add_argument("--seconds", type=SECONDS, default=None, help="stop after this long (default: Ctrl-C)")
    p.add_argument("--no-vga", action="store_true", help="do not step the PIO (faster; the VGA signal stops)")
    p.set_defaults(func=cli.cmd_emulate)

    p = sub.add_parser("commands", help="the firmware's serial commands for a spec, as a Markdown table")
    spec_arg(p)
    p.set_defaults(func=cli.cmd_commands)

    p = sub.add_parser("experiment", help="run an experiment file's trials (Dask); tables and plots per point")
    p.add_argument("file", help="the experiment file (experiments/*.yaml)")
    p.add_argument("--workers", type=WORKERS, default=None,
                   help="local worker processes (default: one per core; 0: in this process)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on this Dask cluster (tcp://HOST:8786)")
    p.add_argument("--timeout", type=SECONDS, default=None, metavar="S",
                   help="seconds to wait for a Dask scheduler to answer and for its first worker, and for a "
                        "cluster that lost all its workers (default 30)")
    p.add_argument("--resume", action="store_true", help="continue the run whose rows are in --out")
    p.add_argument("--out", metavar="DIR", help="output folder (default build/experiments/<name>)")
    p.set_defaults(func=cli.cmd_experiment)

    with_ranges(ap)
    return ap
