"""boidsgen check: a spec's quantisation and range report."""
from __future__ import annotations

import sys

from codegen.commands.messages import err, spec_errors


def cmd_check(a) -> int:
    from codegen.analysis.quant_report import report_lines, worst, zeros
    from codegen.analysis.range_check import analyse, error_issues
    from codegen.output.pipeline import load
    from codegen.analysis.range_check import report_lines as range_lines

    m = load(a.spec)
    rep = analyse(m)
    if not rep.ok:  # the located errors first (as generate prints them), then the report that explains them
        issues = error_issues(rep, a.spec, m.locator)
        spec_errors(issues, summary=False)
        sys.stderr.flush()
        print(f"{a.spec}: NOT valid: {len(issues)} expression(s) can overflow; the range analysis:")
        for line in range_lines(rep):
            print(line)
        sys.stdout.flush()
        err(f"{len(issues)} error(s) in the spec; nothing written")
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
    for line in range_lines(rep) + passes_report(rep.source or rep.model):
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


def passes_report(m) -> list[str]:
    """What the passes made of valid rules (issue 16): the square roots and the sums' widths, the guarded
    32-bit copy of the step if any, and the pair loop's shape (each pair once, the own band's window sums)
    under the spec's first board's pass list."""
    from codegen.passes.guards import report as guard_report
    from codegen.passes.widths import report as width_report
    from codegen.targets.c.lowering import flock_c_copies, passes_for
    from codegen.targets.pic32.pair_report import report

    _, guard, fast = flock_c_copies(m)
    names = ", ".join(p.name for p in passes_for(m.spec))
    board = m.spec.board.targets[0]
    return (width_report(m) + guard_report(m)
            + [f"passes (performance.optimize: {m.spec.performance.optimize}; {board}'s list, `boidsgen targets`): "
               f"{names}"] + report(fast, guard))
