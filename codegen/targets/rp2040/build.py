"""Build the RP2040 firmware: generate, configure the pico-sdk project
(once per build folder, and only a folder boidsgen configured is reused:
build_record.py), build both images with ninja, write the board
image's UF2 ourselves (uf2.py), report flash and RAM against the RP2040's.

The project is the spec's generated/<name>/firmware/rp2040/ when its
board.target names the RP2040; otherwise (`--target rp2040` on a PIC32
spec) it is rendered into build/<name>/rp2040/project/, pointed at the
generated firmware.

Another pico-sdk board builds the same project its own way (`Pico`: the
SDK's board name, the UF2 family, its record's memories): the RP2350
(codegen/targets/rp2350/) always from build/<name>/rp2350/project/."""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from codegen.boards.record import Target
from codegen.boards.registry import RP2040
from codegen.spec.folder_lock import folder_lock
from codegen.targets.host.make_run import BuildError
from codegen.spec.project import project_root
from codegen.targets.host import compiler_cache
from codegen.targets.rp2040 import build_record, project
from codegen.targets.rp2040.tools import build_tools
from codegen.targets.rp2040.uf2 import RP2040_FAMILY, uf2_from_bin

FLASH_BYTES = RP2040.flash_bytes  # the Pico's W25Q16JV
SRAM_BYTES = RP2040.ram_bytes  # the RP2040's six SRAM banks
STEP_TIMEOUT = 900  # seconds: a first build compiles pioasm and the SDK (about a minute here)
BOARD_IMAGE, HEADLESS_IMAGE = "boids_rp2040", "boids_rp2040_headless"
DEMO_FRAMES = 300  # as the host's demo run: the same frame


@dataclass(frozen=True)
class Pico:
    """A board the pico-sdk builds the project for: its record (name, memories), PICO_BOARD, and the
    UF2 family its boot ROM takes."""
    record: Target
    sdk_board: str
    uf2_family: int

    @property
    def uf2_name(self) -> str:
        return f"boids_{self.record.name}.uf2"


RP2040_PICO = Pico(RP2040, "pico", RP2040_FAMILY)


@dataclass(frozen=True)
class Rp2040Build:
    elf: Path           # the board image
    headless_elf: Path  # the emulator's parity image
    uf2: Path
    flash: int
    ram: int


def _run(cmd: list[str], cwd: Path | None = None, env: dict | None = None) -> None:
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=STEP_TIMEOUT, cwd=cwd, env=env)
    except subprocess.TimeoutExpired:
        raise BuildError(f"{' '.join(cmd)} did not finish within {STEP_TIMEOUT} s") from None
    if res.returncode != 0:
        tail = "\n".join((res.stdout + res.stderr).strip().splitlines()[-30:])
        raise BuildError(f"{' '.join(cmd)} failed:\n{tail}")


def project_folder(spec_path, m, outdir: Path, bdir: Path, pico: Pico = RP2040_PICO) -> tuple[Path, list[str]]:
    """(the CMake source folder, extra -D options)."""
    if pico is RP2040_PICO and project.wants_rp2040(m):
        return outdir / project.FOLDER, []
    from codegen.spec import runtime_files
    from codegen.targets.templates import template_env
    from codegen.spec.escape import make_path

    where = runtime_files.place(project_root(spec_path), outdir)
    src = bdir / pico.record.name / "project"
    src.mkdir(parents=True, exist_ok=True)
    for rel, text in project.render_rp2040(m, template_env(), make_path(where.rel)).items():
        dest = src / Path(rel).name
        if not dest.is_file() or dest.read_text() != text:  # unchanged files keep their times (ninja)
            dest.write_text(text)
    return src, [f"-DBOIDS_FIRMWARE={(outdir / 'firmware').resolve()}"]


def sizes(elf: Path) -> tuple[int, int]:
    """(flash, RAM) bytes of an image: text + data, data + bss (the SDK's stacks and heap included)."""
    res = subprocess.run(["arm-none-eabi-size", str(elf)], capture_output=True, text=True, timeout=60)
    if res.returncode != 0:
        raise BuildError(f"arm-none-eabi-size {elf} failed: {res.stderr.strip()}")
    text, data, bss = (int(v) for v in res.stdout.splitlines()[1].split()[:3])
    return text + data, data + bss


def check_build(spec_path, outdir: Path, bdir: Path, pico: Pico = RP2040_PICO) -> Path:
    """The RP2040 build's write guard, before anything is written or run: bdir/rp2040 has no link on the way
    from the project and none inside leading out (codegen/spec/safe_paths.py), and no path cmake, ninja
    or ld are handed holds a character they cannot carry (codegen/spec/tool_paths.py); OutputError naming
    it otherwise. build_rp2040 calls it first (no caller can forget it); a command calls it before it
    writes anything else too, so a refused build writes nothing. Returns bdir/rp2040, absolute."""
    from codegen.spec.safe_paths import OutputError, check_folder
    from codegen.spec.tool_paths import RP2040_TOOLS, refusal

    root = project_root(spec_path)
    rp = check_folder(Path(bdir) / pico.record.name, root)
    sdk = os.environ.get("PICO_SDK_PATH", "")
    handed = [(root.resolve(), "the project folder"), (Path(outdir).resolve(), "the output folder"),
              (rp.resolve(), "the build folder")]
    if sdk:
        handed.append((Path(sdk).expanduser().resolve(), "PICO_SDK_PATH"))
    for path, what in handed:  # as cmake gets them: absolute, links resolved
        why = refusal(str(path), RP2040_TOOLS, what)
        if why:
            raise OutputError(f"{pico.record.name.upper()} build: {why}")
    return rp


def build_rp2040(spec_path, m, outdir: Path, bdir: Path, pico: Pico = RP2040_PICO) -> Rp2040Build:
    """Both images of m's generated output in outdir (already emitted), built in bdir/<board>/."""
    from codegen.spec.safe_paths import prepare_folder, remove_tree

    check_build(spec_path, outdir, bdir, pico)
    tools = build_tools()
    rp = prepare_folder(Path(bdir) / pico.record.name, project_root(spec_path))
    with folder_lock(rp):  # another boidsgen building this spec: one after the other
        src, extra = project_folder(spec_path, m, outdir, bdir, pico)
        cmake_dir = rp / "cmake"
        if (cmake_dir.exists() or cmake_dir.is_symlink()) and not build_record.matches(cmake_dir, src.resolve()):
            build_record.forget(cmake_dir)
            remove_tree(cmake_dir)  # not configured by boidsgen, or changed since: nothing in it is trusted
        env = compiler_cache.environment(project_root(spec_path))
        try:
            with compiler_cache.sdk_turn(BuildError):  # another spec's first build: wait, then take its SDK objects
                if not (cmake_dir / "CMakeCache.txt").is_file():
                    _run(["cmake", "-S", str(src.resolve()), "-B", str(cmake_dir.resolve()), "-G", "Ninja",
                          f"-DPICO_SDK_PATH={tools.sdk}", f"-DPICO_BOARD={pico.sdk_board}", "-DPICO_NO_PICOTOOL=1",
                          *extra],
                         env=env)
                _run(["ninja", "-C", str(cmake_dir.resolve())], env=env)
        finally:
            if (cmake_dir / "CMakeCache.txt").is_file():
                build_record.record(cmake_dir, src.resolve())  # what our cmake and ninja made, as they left it
        elf = cmake_dir / f"{BOARD_IMAGE}.elf"
        uf2 = rp / pico.uf2_name
        uf2.write_bytes(uf2_from_bin((cmake_dir / f"{BOARD_IMAGE}.bin").read_bytes(), family=pico.uf2_family))
    flash, ram = sizes(elf)
    if flash > pico.record.flash_bytes or ram > pico.record.ram_bytes:
        raise BuildError(f"{pico.record.name.upper()}: the image does not fit: flash {flash} of "
                         f"{pico.record.flash_bytes} B, RAM {ram} of {pico.record.ram_bytes} B")
    return Rp2040Build(elf, cmake_dir / f"{HEADLESS_IMAGE}.elf", uf2, flash, ram)


def parity_image(spec_path, m, outdir: Path, bdir: Path) -> Path:
    """The program `parity --target rp2040` runs (its record's `image`): the headless image, in rp2040js."""
    return build_rp2040(spec_path, m, outdir, bdir).headless_elf


def report(spec_path, m, outdir: Path, bdir: Path, run_demo: bool = True) -> Rp2040Build:
    """`boidsgen build`'s RP2040 part: build, then say what was made and how to flash it."""
    import time

    t0 = time.perf_counter()
    b = build_rp2040(spec_path, m, outdir, bdir)
    print(f"RP2040 image: {b.elf} and {b.uf2} (pico-sdk, built in {time.perf_counter() - t0:.1f} s): "
          f"flash {b.flash} of {FLASH_BYTES} B, RAM {b.ram} of {SRAM_BYTES} B at {m.spec.flock.capacity} boids "
          f"(the 4-bit VGA framebuffer: {640 * 480 // 2} B)")
    if run_demo:
        from codegen.targets.rp2040.picture import write_png
        from codegen.targets.rp2040.project import vga_view
        from codegen.targets.rp2040.trace_run import rp2040_trace
        from codegen.targets.rp2040.tools import emulator

        emulator()  # node and rp2040js, or the line saying what is missing
        t1 = time.perf_counter()
        raw = b.elf.parent.parent / "frame.fb4"
        rp2040_trace(b.headless_elf, DEMO_FRAMES, m.spec.seed, None, (), m.spec.flock.size, framebuffer=raw)
        view = vga_view(m)
        png = write_png(raw.with_suffix(".png"), raw.read_bytes(), view.width, view.height)
        print(f"RP2040 run in rp2040js: {DEMO_FRAMES} frames x {m.spec.flock.size} boids in "
              f"{time.perf_counter() - t1:.1f} s; the VGA screen's last frame, read from the emulated SRAM: {png}")
    print(f"RP2040: hold BOOTSEL while plugging the Pico in, then copy {b.uf2.name} to the RPI-RP2 drive "
          "(docs/flashing.md)")
    return b
