"""Every target boidsgen knows, declared once. A command, the schema or a pass
asks `target(name)` or one of the lists below; no board's name is compared
anywhere else outside its own folders (tests/test_target_registry.py).

Adding a board: its record here, its folder codegen/targets/<name>/ with the
parts the record names (codegen/drivers/<name>/ for those that generate before
they build), and its platform folder firmware_runtime/<name>/ (ARCHITECTURE.md,
"Where to add things": the recipe the RP2350 followed)."""
from __future__ import annotations

from codegen.boards.record import Entry, Target

HOST = Target(
    name="host", title="the firmware as a program on this computer (gcc), its TFT drawn into a file",
    board=False, core="this computer's", clock_hz=0, flash_bytes=0, ram_bytes=0,
    trace=Entry("codegen.commands.parity:firmware_trace"))

HOST_THREADS = Target(
    name="host-threads", title="the host build with a split update's two parts on two threads "
    "(RP2040 specs, synchronous, grid)", board=False, core="this computer's", clock_hz=0, flash_bytes=0,
    ram_bytes=0, image=Entry("codegen.commands.parity:threads_image"),
    trace=Entry("codegen.commands.parity:firmware_trace"), ran_where=", the update's two parts on two threads")

PIC32 = Target(
    name="pic32", title="PIC32MX250F128B, the ECE 4760 lab's board with its ILI9340 TFT",
    board=True, core="MIPS32 M4K", clock_hz=40_000_000, flash_bytes=128 * 1024, ram_bytes=32 * 1024,
    ring_bytes=8192,  # 256 entries of the default rules' 32 B: a quarter of the part's RAM
    passes=Entry("codegen.targets.pic32.pass_list:pass_list"), compiler="GCC -O1 (M4K)", templates="pic32",
    project=Entry("codegen.targets.pic32.mplabx:project_files"), always_project=True,
    build=Entry("codegen.drivers.pic32.build:report"),
    budget=Entry("codegen.drivers.pic32.budget.cli:budget_cli"), artefacts=("boids.hex",))

RP2040 = Target(
    name="rp2040", title="Raspberry Pi Pico (RP2040), the course's board with its VGA screen",
    board=True, core="Cortex-M0+", clock_hz=125_000_000, flash_bytes=2 * 1024 * 1024, ram_bytes=264 * 1024,
    cores=2, ring_bytes=20480,  # 512 entries of up to 40 B (the default rules'), a ring a core (split.h)
    multiply_slots=True,  # MULS is one cycle: a slot's address by multiplying costs one more cycle than a shift
    passes=Entry("codegen.targets.rp2040.pass_list:pass_list"), compiler="arm-none-eabi-gcc (pico-sdk)",
    templates="rp2040",
    project=Entry("codegen.targets.rp2040.project:project_files"),
    check_folders=Entry("codegen.targets.rp2040.build:check_build"),
    build=Entry("codegen.targets.rp2040.build:report"),
    image=Entry("codegen.targets.rp2040.build:parity_image"),
    trace=Entry("codegen.targets.rp2040.trace_run:rp2040_trace"), ran_where=" in rp2040js",
    budget=Entry("codegen.drivers.rp2040.budget_cli:budget_cli"), artefacts=("boids_rp2040.uf2",))

RP2350 = Target(
    name="rp2350", title="Raspberry Pi Pico 2 (RP2350, Arm cores), the RP2040's successor on the same VGA",
    board=True, core="Cortex-M33", clock_hz=150_000_000, flash_bytes=4 * 1024 * 1024, ram_bytes=520 * 1024,
    cores=2, ring_bytes=20480,  # as the RP2040's: a ring a core
    multiply_slots=True,  # MUL is one cycle on the M33 too
    passes=Entry("codegen.targets.rp2350.pass_list:pass_list"), compiler="arm-none-eabi-gcc (pico-sdk)",
    check_folders=Entry("codegen.targets.rp2350.build:check_build"),
    build=Entry("codegen.targets.rp2350.build:report"),
    image=Entry("codegen.targets.rp2350.qemu:parity_image"),
    trace=Entry("codegen.targets.rp2350.qemu:qemu_trace"), ran_where=", its flock code on QEMU's Cortex-M33",
    artefacts=("boids_rp2350.uf2",))

TARGETS = {t.name: t for t in (HOST, HOST_THREADS, PIC32, RP2040, RP2350)}
DEFAULT_BOARD = PIC32.name  # board.target's default: the lab's board


def target(name: str) -> Target:
    return TARGETS[name]


def boards() -> tuple[str, ...]:
    """The names a spec's board.target (and `build --target`) may give."""
    return tuple(n for n, t in TARGETS.items() if t.board)


def with_part(part: str) -> tuple[str, ...]:
    """The targets that have `part` (e.g. "trace": parity can run them; "budget")."""
    return tuple(n for n, t in TARGETS.items() if getattr(t, part) is not None)


def spec_targets(spec) -> tuple[Target, ...]:
    """The records of the boards the spec's board.target names."""
    return tuple(TARGETS[n] for n in spec.board.targets)
