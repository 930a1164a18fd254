"""`boidsgen parity --target rp2350`: the RP2350 target's flock code on QEMU's Cortex-M33.

No emulator here runs the RP2350's peripherals, so its flock code is checked as the PIC32's is
(a program of the generated firmware under qemu-mipsel): the generated firmware and the portable
runtime are compiled with the pico-sdk's flags for the RP2350's Arm core (its toolchain file
cmake/preload/toolchains/pico_arm_cortex_m33_gcc.cmake, -O3 as its Release build) into
firmware_runtime/rp2350/trace_main.c's program, linked for QEMU's mps2-an505 machine (a
Cortex-M33 with 4 MB of SRAM) with newlib's semihosting, and run by qemu-system-arm: the
arguments in, the trace out, bit for bit what the simulator must print.

Checked: every instruction of the step as the M33 executes it (SMULL, SDIV, the DSP and Thumb-2
forms GCC picks for it) in both update orders. Not checked here: the pico-sdk image itself, its
VGA, UART, clocks and core 1 (`boidsgen build --target rp2350` builds that image; a synchronous
update's two parts run one after the other here, which split.h makes the same bits)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from codegen.targets.host.make_run import BuildError

M33_FLAGS = ("-mcpu=cortex-m33", "-mthumb", "-march=armv8-m.main+fp+dsp", "-mfloat-abi=softfp", "-mcmse",
             "-O3", "-std=gnu11", "-ffunction-sections", "-fdata-sections")
STRICT = ("-Wall", "-Wextra", "-Wpedantic", "-Werror")
OWN_SOURCES = ("trace_main.c", "platform_semihost.c", "an505_start.c")  # firmware_runtime/rp2350/
PROGRAM = "boids_rp2350_m33.elf"
COMPILE_TIMEOUT = 300  # seconds: one gcc run over some twenty files
RUN_TIMEOUT = 600  # seconds: QEMU runs a 1,000-boid frame in well under one
MACHINE = ("-M", "mps2-an505", "-cpu", "cortex-m33", "-nographic", "-monitor", "none", "-serial", "none")


def tools() -> tuple[str, str]:
    """(arm-none-eabi-gcc, qemu-system-arm), or BuildError saying how to get what is missing."""
    gcc, qemu = shutil.which("arm-none-eabi-gcc"), shutil.which("qemu-system-arm")
    if gcc is None:
        raise BuildError("--target rp2350: arm-none-eabi-gcc is not installed (apt-get install gcc-arm-none-eabi "
                         "libnewlib-arm-none-eabi)")
    if qemu is None:
        raise BuildError("--target rp2350: qemu-system-arm is not installed (apt-get install qemu-system-arm): "
                         "the RP2350's flock code is checked on its Cortex-M33")
    return gcc, qemu


def parity_image(spec_path, m, out: Path, bdir: Path) -> Path:
    """Its record's `image`: the program, built in bdir/rp2350/m33/ from the generated firmware in out."""
    from codegen.spec import runtime_files
    from codegen.spec.project import project_root
    from codegen.spec.safe_paths import prepare_folder
    from codegen.targets.rp2040.project import GENERATED_SOURCES, RUNTIME_SOURCES, vga_view
    from codegen.targets.rp2350.build import check_build

    gcc, _ = tools()
    rp = check_build(spec_path, out, bdir)
    folder = prepare_folder(rp / "m33", project_root(spec_path))
    runtime = runtime_files.place(project_root(spec_path), out).source
    fw = Path(out) / "firmware"
    view = vga_view(m)  # drawn as the RP2040 and RP2350 images draw: into the VGA's framebuffer
    defines = dict(BOIDS_DRAW_FB4=1, BOIDS_PANEL_WIDTH=view.width, BOIDS_PANEL_HEIGHT=view.height,
                   BOIDS_VIEW_MUL=view.mul, BOIDS_VIEW_SHIFT=view.shift)
    # the RP2040 image's generated and portable sources (the same list), then this program's own
    sources = ([fw / f for f in GENERATED_SOURCES] + [runtime / f for f in RUNTIME_SOURCES if f.startswith("core/")]
               + [runtime / "rp2350" / f for f in OWN_SOURCES])
    elf = folder / PROGRAM
    cmd = [gcc, *M33_FLAGS, *STRICT, *(f"-D{k}={v}" for k, v in defines.items()),
           f"-I{fw}", f"-I{runtime / 'core'}", f"-I{runtime / 'rp2350'}", *map(str, sources),
           "--specs=rdimon.specs", "-Wl,--gc-sections", f"-T{runtime / 'rp2350' / 'an505.ld'}", "-o", str(elf)]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise BuildError(f"arm-none-eabi-gcc did not finish the RP2350's program within {COMPILE_TIMEOUT} s") from None
    if res.returncode != 0:
        tail = "\n".join(res.stderr.strip().splitlines()[-30:])
        raise BuildError(f"arm-none-eabi-gcc failed on the RP2350's program:\n{tail}")
    return elf


def _arg(text: str) -> str:
    return "arg=" + text.replace(",", ",,")  # QEMU's option syntax: a comma in a value is doubled


def qemu_trace(program: Path, frames: int, seed: int, boids: int | None, sets, _flock_size=None) -> str:
    """Its record's `trace`: the program's trace, run on QEMU's Cortex-M33."""
    _, qemu = tools()
    args = ["trace_main", "--frames", str(frames), "--seed", str(seed)]
    if boids is not None:
        args += ["--boids", str(boids)]
    for k, v in sets:
        args += ["--set", f"{k}={v}"]
    semihosting = ",".join(["enable=on", "target=native", *map(_arg, args)])
    cmd = [qemu, *MACHINE, "-semihosting-config", semihosting, "-kernel", str(program)]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise BuildError(f"QEMU did not finish {frames} frames within {RUN_TIMEOUT} s: {program}") from None
    if res.returncode != 0:
        why = {2: "bad arguments", 3: "a --set was refused", 70: "the program faulted"}.get(res.returncode, "")
        raise BuildError(f"the RP2350's program on QEMU exited with status {res.returncode}"
                         f"{f' ({why})' if why else ''}: {res.stderr.strip()[-500:]}")
    return res.stdout
