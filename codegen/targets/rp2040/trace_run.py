"""The RP2040's trace: the headless image (firmware_runtime/rp2040/rp2040_main.c)
in rp2040js, told its run over UART0 (`set` lines as the host's --set, then
`run FRAMES SEED BOIDS`), its trace read back from UART0: the same text
`boids_host --trace` writes, compared with the simulator's the same way."""
from __future__ import annotations

from pathlib import Path

from codegen.targets.host.make_run import BuildError
from codegen.targets.rp2040.emulator import run_image, symbol

CYCLES_PER_BOID_FRAME = 200_000  # a cap far above a frame's cost (about 10,000 a boid at 100 boids)


def run_lines(frames: int, seed: int, boids: int | None, sets) -> str:
    return "".join(f"set {k} {v}\n" for k, v in sets) + f"run {frames} {seed} {-1 if boids is None else boids}\n"


def rp2040_trace(elf: Path, frames: int, seed: int, boids: int | None, sets, flock_size: int,
                 framebuffer: Path | None = None) -> str:
    """The trace text; with framebuffer, the 4-bit framebuffer at the end (fb4_pixels) written there."""
    n = max(flock_size if boids is None else boids, 10)
    dumps = ((*symbol(elf, "fb4_pixels"), framebuffer),) if framebuffer else ()
    run = run_image(elf, run_lines(frames, seed, boids, sets),
                    max_cycles=10_000_000 + (frames + 1) * n * CYCLES_PER_BOID_FRAME, dumps=dumps)
    text = run.uart.decode("ascii", errors="replace")
    if text.startswith("# error: "):
        raise BuildError(f"RP2040 firmware refused its run: {text[9:].strip()}")
    if run.end != "bkpt":
        raise BuildError(f"RP2040 firmware did not finish {frames} frames within {run.cycles} cycles (rp2040js)")
    return text
