"""The one place where spec text becomes generated source text.

Every string a spec author wrote (a unit, a description, the spec's file
path) reaches C, Python or a Makefile only through one of these functions,
which the Jinja environment exposes as filters (codegen/output/render.py). Each
returns ASCII only, on one line, and cannot end the construct it sits in:

  c_str      a complete C string literal, "..."
  c_comment  text for inside /* ... */
  py_str     a complete Python string literal
  py_comment text for after a Python or Makefile '#'
  make_path  a path for a Makefile variable
  xml_text   text for an XML element or a quoted attribute value
  xml_comment text for inside <!-- ... -->

Identifiers (parameter, rule and spec names) are never escaped: they are
checked once against both languages (codegen/spec/names.py) and refused.
"""
from __future__ import annotations

_PRINTABLE = {chr(c) for c in range(0x20, 0x7F)}


def _u_escape(ch: str) -> str:
    cp = ord(ch)
    return f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}"


def c_str(s: str) -> str:
    """A C99 string literal whose bytes are s in UTF-8. Quotes and
    backslashes are escaped, '?' too (trigraphs are on under -std=c99), and
    every byte outside printable ASCII is a three-digit octal escape (three
    digits, so a following digit can never extend it)."""
    out = []
    for b in s.encode("utf-8"):
        ch = chr(b)
        if ch in '"\\?':
            out.append("\\" + ch)
        elif ch in _PRINTABLE:
            out.append(ch)
        else:
            out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def _comment_text(s: str) -> str:
    """Printable ASCII, one line; the rest spelled as \\uXXXX."""
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch in _PRINTABLE:
            out.append(ch)
        else:
            out.append(_u_escape(ch))
    return "".join(out)


def c_comment(s: str) -> str:
    """s for inside a /* */ comment: '*/' cannot close it, '/*' cannot warn
    (-Wcomment), '??' cannot form a trigraph, no newline can end it."""
    t = _comment_text(s)
    return t.replace("*/", "*\\/").replace("/*", "/\\*").replace("??", "?\\?")


def py_str(s: str) -> str:
    """A double-quoted Python string literal equal to s, in printable ASCII."""
    out = []
    for ch in str(s):
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in _PRINTABLE:
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(_u_escape(ch))
    return '"' + "".join(out) + '"'


def py_comment(s: str) -> str:
    """s for after '#' in Python or a Makefile: one line, no '$' expansion
    surprises in make (a comment is never expanded, but keep it plain)."""
    return _comment_text(s)


class UnsafePath(ValueError):
    pass


from codegen.spec.tool_paths import MAKE_SAFE as _MAKE_SAFE  # noqa: E402 - the one table of what each tool can carry


def make_path(p: str) -> str:
    """A path as a Makefile variable value. make has no quoting for spaces,
    '#', '$' or ':' in paths, so such a path is refused (codegen/targets/host/make_run.py
    names it and stops)."""
    bad = sorted({ch for ch in p if ch not in _MAKE_SAFE})
    if bad:
        raise UnsafePath(f"the path {p!r} holds {', '.join(repr(c) for c in bad)}, which a Makefile cannot spell")
    return p


def xml_text(s: str) -> str:
    """s as XML character data, safe in an element and in a quoted attribute:
    markup characters and everything outside printable ASCII as character
    references. Characters XML 1.0 cannot carry at all (most control
    characters) are refused: UnsafePath."""
    out = []
    for ch in str(s):
        cp = ord(ch)
        if ch in _XML_MARKUP:
            out.append(_XML_MARKUP[ch])
        elif ch in _PRINTABLE:
            out.append(ch)
        elif ch in "\t\n\r" or 0xA0 <= cp <= 0xD7FF or 0xE000 <= cp <= 0xFFFD or cp >= 0x10000:
            out.append(f"&#x{cp:X};")
        else:
            raise UnsafePath(f"{s!r} holds U+{cp:04X}, which XML cannot carry")
    return "".join(out)


_XML_MARKUP = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}


def xml_comment(s: str) -> str:
    """s for inside <!-- -->: one line of ASCII, never '--' (which XML forbids
    in a comment) nor a final '-'."""
    t = _comment_text(s)
    while "--" in t:
        t = t.replace("--", "-~")
    return t + " " if t.endswith("-") else t
