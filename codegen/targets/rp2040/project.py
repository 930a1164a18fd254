"""The RP2040 target's generated files: firmware/rp2040/CMakeLists.txt (a
pico-sdk project over the generated firmware and firmware_runtime/, whose
RP2040 platform layer is firmware_runtime/rp2040/) and its own
pico_sdk_import.cmake.

A spec gets them when its board.target names the RP2040; `--target rp2040`
on a spec that does not renders them into the build folder instead
(codegen/targets/rp2040/build.py), pointing back at the generated firmware.
"""
from __future__ import annotations

from jinja2 import Environment

from codegen.boards.registry import RP2040
from codegen.model.gen_model import GenModel
from codegen.boards.pic32.panel import PanelView, fit_view

VGA_SIZE = (640, 480)  # the lab's VGA mode (firmware_runtime/rp2040/vga.pio)
FOLDER = "firmware/rp2040"
TEMPLATES = ("CMakeLists.txt", "pico_sdk_import.cmake")

# What the RP2040 image is built from: the generated firmware, the portable
# runtime (the same files as the Makefile's GEN_SRC, RT_SRC and the drawing),
# the framebuffer sink and the RP2040 layer.
GENERATED_SOURCES = ("boids_params.c", "boids_flock.c", "boids_app.c", "boids_commands.c", "boids_course.c")
RUNTIME_SOURCES = tuple(f"core/{f}" for f in (
    "fxdecimal.c", "serial_cmd.c", "cmd_reply.c", "cmd_core.c", "adaptive_spawn.c", "course.c", "state_io.c",
    "watch.c", "draw.c", "font5x7.c", "fb4.c")) + ("rp2040/platform_rp2040.c", "rp2040/vga.c", "rp2040/split_rp2040.c",
                                             "rp2040/rp2040_main.c")
RUNTIME_INCLUDES = ("core", "rp2040")  # firmware_runtime's folders the image includes from


def vga_view(m: GenModel) -> PanelView:
    """The world on the 640x480 VGA screen: 1:1 when it fits (the VGA specs), else scaled."""
    return fit_view(m.spec.display.width, m.spec.display.height, *VGA_SIZE)


def wants_rp2040(m: GenModel) -> bool:
    return RP2040.name in m.spec.board.targets


def render_rp2040(m: GenModel, env: Environment, runtime_rel: str) -> dict[str, str]:
    """firmware/rp2040/<file> -> text. runtime_rel: firmware_runtime/ as the firmware/ folder reaches it."""
    sources = ([f"${{BOIDS_FIRMWARE}}/{f}" for f in GENERATED_SOURCES]
               + [f"${{BOIDS_RUNTIME}}/{f}" for f in RUNTIME_SOURCES])
    ctx = dict(m=m, runtime_rel=runtime_rel, sources=sources, view=vga_view(m), pins=m.spec.board.rp2040,
               includes=[f"${{BOIDS_RUNTIME}}/{d}" for d in RUNTIME_INCLUDES])
    return {f"{FOLDER}/{t}": env.get_template(f"rp2040/{t}.j2").render(ctx) for t in TEMPLATES}


def project_files(m: GenModel, env: Environment, files: dict[str, str], where) -> dict[str, str]:
    """The RP2040 record's `project`: the pico-sdk project, with firmware_runtime/ where runtime_files
    placed it (`where`)."""
    from codegen.spec.escape import make_path

    return render_rp2040(m, env, make_path(where.rel))
