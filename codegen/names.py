"""Which names a spec may give to things that become identifiers or folders.

A parameter's name becomes a C struct member, a C macro stem
(BOIDS_PARAM_<NAME>_...), a Python attribute and a serial command argument;
the spec's name becomes a folder under generated/ and build/. The schema
already restricts them to [a-z][a-z0-9_]* (so no separators, no '..', no
upper case, no leading underscore); this module refuses what that pattern
still lets through. Refusing beats mangling here: the name is what the user
types over the serial link and sees in the GUI, so it must stay theirs.
"""
from __future__ import annotations

import keyword

# C99/C11/C23 keywords and the GNU C keywords of -std=gnu99 (XC32 builds the
# board image with it), lower-case spellings only: the pattern allows no other.
C_KEYWORDS = frozenset("""
auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while
alignas alignof bool constexpr false nullptr static_assert thread_local true typeof typeof_unqual
asm
""".split())

# Lower-case macros the C compilers predefine under -std=gnu99 (gcc -dM -E
# for x86-64 and for mipsel: unix, linux, mips, ...), and ones the headers
# the firmware includes define (stdbool, stddef, stdio, assert, errno).
C_MACROS = frozenset("""
unix linux mips i386 i686 x86_64 vax sun
offsetof assert errno stdin stdout stderr getc putc getchar putchar
complex imaginary noreturn
""".split())

# Names the generated code itself uses beside the parameters (the param
# struct's neighbours in C, the parameter namespace's helpers in Python).
GENERATED = frozenset({"count", "none"})

# Device names Windows reserves in every folder (a spec name is a folder).
DEVICE_NAMES = frozenset({"con", "prn", "aux", "nul"} | {f"com{i}" for i in range(10)} |
                         {f"lpt{i}" for i in range(10)})


def identifier_problem(name: str) -> str | None:
    """Why name cannot be an identifier in the generated C and Python, or None."""
    if name in C_KEYWORDS or keyword.iskeyword(name):
        return f"'{name}' is a reserved word in C or Python"
    if name in C_MACROS:
        return f"'{name}' is a predefined macro of the C compiler or its headers"
    if name in GENERATED:
        return f"'{name}' is reserved: the generated code uses it"
    return None


def folder_problem(name: str) -> str | None:
    """Why name cannot be a folder under generated/ and build/, or None."""
    if name in DEVICE_NAMES:
        return f"'{name}' is a reserved device name on some file systems (it names the output folder)"
    return None
