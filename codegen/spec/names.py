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
# the firmware includes define (stdbool, stddef, stdio, assert, errno), and
# the members of glibc's <signal.h> and <sys/stat.h> structs that are macros
# (host_main.c includes <signal.h> before boids_flock.h: a parameter
# `sa_handler` became `P->__sigaction_handler.sa_handler`). A spec name equal
# to one is rewritten by the preprocessor wherever it lands.
# tests/test_reserved_names.py reruns the real builds' compile commands with
# -dM -E and fails on any lower-case macro missing here.
C_MACROS = frozenset("""
unix linux mips i386 i686 x86_64 vax sun
offsetof assert errno stdin stdout stderr getc putc getchar putchar
complex imaginary noreturn alloca fread_unlocked fwrite_unlocked
be16toh be32toh be64toh htobe16 htobe32 htobe64 htole16 htole32 htole64 le16toh le32toh le64toh
sa_handler sa_sigaction sigev_notify_attributes sigev_notify_function
si_addr si_addr_lsb si_arch si_band si_call_addr si_fd si_int si_lower si_overrun si_pid si_pkey si_ptr
si_status si_stime si_syscall si_timerid si_uid si_upper si_utime si_value
st_atime st_ctime st_mtime
""".split())

# What the rule code (boids_flock.c) sits beside: fixed.h's types and the
# runtime's types, functions and objects it can see, and the libc functions
# it calls. Names with RESERVED_PREFIXES belong to fixed.h (fx_), the
# generated firmware's public API (boids_) and the PRNG (rng_).
RUNTIME_NAMES = frozenset("""
fx fx_acc fx_acc32 boid_t boids_params_t bp_param_t flock_t mover_t obstacle_t pair_ring_t rng_t state_kind_t
state_count state_field memcpy memset
""".split())
RESERVED_PREFIXES = ("fx_", "boids_", "rng_")

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
    if name in RUNTIME_NAMES:
        return f"'{name}' is reserved: a name of the firmware runtime (fixed.h and the headers beside it)"
    if name.startswith(RESERVED_PREFIXES):
        return (f"'{name}' is reserved: names starting {', '.join(RESERVED_PREFIXES)} belong to fixed.h, "
                f"the generated firmware and the PRNG")
    return None


def _prefixed(stem: str) -> str | None:
    """A reserved name or prefix that `stem + '_' + something` can spell, or None."""
    head = stem + "_"
    if head.startswith(RESERVED_PREFIXES):
        return head + "*"
    return next((n for n in sorted(C_MACROS | RUNTIME_NAMES) if n.startswith(head)), None)


def rule_name_problem(name: str) -> str | None:
    """Why name cannot name a rule, or None: an identifier, and no C name
    `<rule>_<sum>` (how the C names a rule's sums and, on a clash, its
    locals) may spell a reserved name."""
    why = identifier_problem(name)
    if why:
        return why
    taken = _prefixed(name)
    if taken:
        return (f"'{name}' is reserved: the C names a rule's sums '{name}_<sum>', which reaches {taken} "
                f"(a macro or a name of the C headers and runtime)")
    return None


def state_name_problem(name: str) -> str | None:
    """Why name cannot name a rule's state, or None: the C keeps a copy of it
    as `st_<name>` in the boid loop."""
    why = identifier_problem(name)
    if why:
        return why
    copy = f"st_{name}"
    taken = identifier_problem(copy)
    return f"'{name}' cannot name a state: the C keeps a copy of it as '{copy}' ({taken})" if taken else None


def folder_problem(name: str) -> str | None:
    """Why name cannot be a folder under generated/ and build/, or None."""
    if name in DEVICE_NAMES:
        return f"'{name}' is a reserved device name on some file systems (it names the output folder)"
    return None
