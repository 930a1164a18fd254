"""What RP2040 commands need on the machine, found or named in one line:
the pico-sdk (PICO_SDK_PATH, as every Pico project finds it), the ARM
toolchain, cmake and ninja (tools/setup.sh installs them), Node and rp2040js
(`npm ci` in the project, package.json)."""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from codegen.output.runtime_files import TOOL_ROOT
from codegen.targets.host.make_run import BuildError

RUNNER = Path(__file__).resolve().parent / "runner" / "run.mjs"
RP2040JS_ENTRY = Path("node_modules") / "rp2040js" / "dist" / "esm" / "index.js"
SETUP = "tools/setup.sh installs it (apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi " \
        "libstdc++-arm-none-eabi-newlib cmake ninja-build g++)"


@dataclass(frozen=True)
class Toolchain:
    sdk: Path


def sdk_path() -> Path:
    sdk = os.environ.get("PICO_SDK_PATH", "")
    if not sdk:
        raise BuildError("RP2040: PICO_SDK_PATH is not set: clone the Raspberry Pi pico-sdk (2.x) and "
                         "export PICO_SDK_PATH=/its/folder")
    p = Path(sdk).expanduser()
    if not (p / "pico_sdk_init.cmake").is_file():
        raise BuildError(f"RP2040: PICO_SDK_PATH={sdk} holds no pico-sdk (no pico_sdk_init.cmake there)")
    return p.resolve()


def build_tools() -> Toolchain:
    """The SDK and the programs a build runs; BuildError naming the first missing."""
    sdk = sdk_path()
    for prog in ("arm-none-eabi-gcc", "arm-none-eabi-g++", "cmake", "ninja", "g++"):
        if shutil.which(prog) is None:
            raise BuildError(f"RP2040: `{prog}` is not on PATH: {SETUP}")
    return Toolchain(sdk)


def emulator() -> tuple[str, Path]:
    """(node, rp2040js's entry module); BuildError naming what is missing."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("RP2040: `node` is not on PATH: install Node.js 18 or later (apt-get install nodejs), "
                         "then `npm ci` in the project folder (tools/setup.sh does both)")
    for root in (Path.cwd(), TOOL_ROOT):  # this folder's (an installed tool), or the clone's
        if (root / RP2040JS_ENTRY).is_file():
            return node, (root / RP2040JS_ENTRY).resolve()
    clone = (TOOL_ROOT / "package.json").is_file()
    how = (f"run `npm ci` in {TOOL_ROOT} (its package.json pins rp2040js 1.4.1)" if clone
           else "run `npm install rp2040js@1.4.1` in this folder")
    raise BuildError(f"RP2040: rp2040js is not installed (no {RP2040JS_ENTRY} here or in {TOOL_ROOT}): {how}")
