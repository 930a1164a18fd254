"""Which characters each external tool can carry in a path it is given: one
table, checked before any of them runs.

make has no quoting at all: it gets paths relative to the firmware folder,
made of our own folder names (codegen/targets/host/make_run.py), so the
project folder may be called anything; its table is what a relative path may
hold. cmake, ninja and the linker get absolute paths (the RP2040 build, the
pico-sdk's: cmake takes its folders whole), so every folder above the project
counts: a `;` is cmake's list separator (`semi;colon` made a sibling
`semi/`), `$` starts cmake's variables and generator expressions and is
ninja's escape, ld's -Map= puts the output's name for a `%` and gcc splits
-Wl, at a `,`; cmake refuses `#`, `<` and `>` in a custom command's output.
What is not in the table was built with: a project folder named
p'q(r)s[t]u{v}w&a*b?c!d@f=hi+j~k^l built and ran, spaces and backquotes
too (tests/test_hostile_paths.py, tests/test_hostile_rp2040_tools.py)."""
from __future__ import annotations

from pathlib import PurePosixPath

# make: the characters a path may hold (an allow-list: anything else it cannot spell)
MAKE_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+-~@,=")

_CONTROL = {chr(c): "a control character" for c in range(0x20)} | {"\x7f": "a control character"}

# tool -> character -> why the tool cannot carry it in a path (a deny-list: all else builds)
CANNOT: dict[str, dict[str, str]] = {
    "cmake": {";": "its list separator", "$": "the start of its variables and generator expressions",
              '"': "its quote", "\\": "its escape", "#": "refused in a custom command's output",
              "<": "refused in a custom command's output", ">": "refused in a custom command's output",
              ":": "cut off in its external projects' rule names", **_CONTROL},
    "ninja": {"$": "its escape", "|": "its implicit-input separator, which cmake leaves unescaped",
              "\n": "the end of its statements", "\r": "a line end"},
    "ld": {"%": "-Map= puts the output's name in its place", ",": "gcc's -Wl, splits the linker's options at it",
           "\n": "the end of a linker script's line", '"': "its quote in linker scripts"},
}
RP2040_TOOLS = ("cmake", "ninja", "ld")  # what an RP2040 build hands absolute paths to


def shown(text: str) -> str:
    """A path for a one-line message: control and non-printable characters escaped."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def first_unsafe(path: str, tools: tuple[str, ...]) -> tuple[str, str, list[str], str] | None:
    """(the folder or file holding it, as a path, the character, the tools that cannot carry it, why) for
    the first character of path that one of tools cannot carry; None when every one of them can."""
    parts = PurePosixPath(path).parts
    for i, part in enumerate(parts):
        for ch in part:
            bad = [t for t in tools if (ch not in MAKE_SAFE if t == "make" else ch in CANNOT[t])]
            if bad:
                why = CANNOT.get(bad[0], {}).get(ch, "no quoting for it")
                return str(PurePosixPath(*parts[:i + 1])), ch, bad, why
    return None


def refusal(path: str, tools: tuple[str, ...], what: str) -> str | None:
    """One line naming the folder of path (what: which path, e.g. 'the project folder') and the character
    the tools cannot carry, and what to do; None when they can carry all of it."""
    found = first_unsafe(path, tools)
    if found is None:
        return None
    folder, ch, bad, why = found
    return (f"{shown(folder)}: this name holds {shown(repr(ch))}, which {' and '.join(bad)} cannot carry in a path "
            f"({why}), and {what} reaches them whole; rename that folder or move the project to a folder "
            "whose path has none (spaces are fine)")
