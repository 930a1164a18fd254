"""boidsgen emulate: the RP2040 firmware of a spec in rp2040js, its UART0 on a
pseudo-terminal (codegen/targets/rp2040/pty_board.py), for `boidsgen watch`,
the GUI's Board mode or a terminal, as `boids_host --pty` for the host build."""
from __future__ import annotations

import time

from codegen.commands.messages import err


def cmd_emulate(a) -> int:
    from codegen.output.pipeline import checked_model, emit
    from codegen.spec.project import build_dir, output_dir
    from codegen.targets.rp2040.build import build_rp2040, check_build
    from codegen.targets.rp2040.pty_board import PtyBoard

    m = checked_model(a.spec)
    out, bdir = output_dir(a.spec, m.name), build_dir(a.spec, m.name)
    check_build(a.spec, out, bdir)  # build_rp2040 checks it too: here before anything is written
    emit(a.spec, m, out, gated=True)
    b = build_rp2040(a.spec, m, out, bdir)
    with PtyBoard(b.elf, pio=not a.no_vga) as board:
        print(f"pty: {board.path}", flush=True)
        print(f"emulate: {b.elf.name} of spec {m.name} (hash {m.hash}) in rp2040js, UART0 on {board.path}"
              f"{'' if a.no_vga else ', VGA running'}; Ctrl-C stops", flush=True)
        t_end = time.monotonic() + a.seconds if a.seconds else None
        try:
            while board.proc.poll() is None and (t_end is None or time.monotonic() < t_end):
                time.sleep(0.2)
        except KeyboardInterrupt:
            return 0
        if board.proc.poll() is not None:  # it ended by itself: the board is gone, say so
            err(f"emulate: the emulator (rp2040js) stopped on its own, {board.why_it_ended()}")
            return 1
    return 0
