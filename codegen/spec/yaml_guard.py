"""Bounds on a spec file before and while YAML reads it.

A spec is a file people pass around, so reading one must be as safe as
opening it in an editor: bounded in size, time and memory, with every
refusal at a line and column. Checked here, in this order:

  bytes   at most MAX_BYTES; UTF-8 (a UTF-8 BOM is allowed); no control
          characters but tab, LF and CR; no invisible direction or line
          controls (the 'Trojan source' characters)
  text    flow brackets nested at most MAX_DEPTH deep (ruamel's parser is
          superlinear in flow depth, so this is counted before it runs)
  events  block and flow nesting at most MAX_DEPTH; aliases may not grow the
          document past MAX_NODES nodes (billion laughs), nor add more than
          MAX_ALIAS_CHARS characters to it (one long string aliased thousands
          of times is few nodes, but each copy is checked, validated and
          copied again: 59 KB took 10 to 40 s and 285 MB); no merge keys
          (ruamel gives merged keys no position, so an error in one could
          not be located); numbers (plain or tagged !!int / !!float) no
          longer than codegen/spec/number_text.py allows, refused from their
          text before ruamel builds them (a 5,000-digit int fails in
          int() with no place; a 50,000-digit hex one is built)
"""
from __future__ import annotations

import re
import unicodedata

from ruamel.yaml import YAML
from ruamel.yaml.events import (AliasEvent, CollectionEndEvent, CollectionStartEvent, MappingStartEvent,
                                ScalarEvent)
from ruamel.yaml.nodes import ScalarNode

from codegen.spec.number_text import MAX_NUMBER_CHARS, number_problem
from codegen.spec.errors import SpecIssue

MAX_BYTES = 65536
MAX_DEPTH = 32
MAX_NODES = 10000
MAX_ALIAS_CHARS = MAX_BYTES  # the scalar characters a document's aliases may add: one more file's worth
CORE_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map"))
NUMBER_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("int", "float"))

# Format characters that reorder or hide text, and Unicode line breaks that
# some tools and languages honour and others do not.
INVISIBLE = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029,
                                       0x200E, 0x200F, 0x061C, 0xFEFF))


def char_problem(ch: str) -> str | None:
    """Why ch may not appear in a spec (as a byte of the file or in a value), or None."""
    if ch in "\t\n\r":
        return None
    if unicodedata.category(ch) == "Cc":
        return f"control character U+{ord(ch):04X} is not allowed"
    if ch in INVISIBLE:
        return f"invisible or direction-changing character U+{ord(ch):04X} ({unicodedata.name(ch, '?')}) is not allowed"
    if unicodedata.category(ch) == "Cs":
        return f"lone surrogate U+{ord(ch):04X} is not allowed"
    return None


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def decode(path: str, data: bytes) -> tuple[str | None, list[SpecIssue]]:
    """The spec's text, or the issues that stop it being read."""
    def at(line: int, col: int, reason: str) -> list[SpecIssue]:
        return [SpecIssue(path, line, col, "", reason)]

    if len(data) > MAX_BYTES:
        return None, at(1, 1, f"the spec is {len(data)} bytes; the limit is {MAX_BYTES}")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, at(1, 1, "the file is UTF-16; save it as UTF-8")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        good = data[:e.start].decode("utf-8")
        line, col = _line_col(good, len(good))
        return None, at(line, col, f"not UTF-8: byte 0x{data[e.start]:02X} at offset {e.start}; save the file as UTF-8")
    for i, ch in enumerate(text):
        if ch > "~" or ch < " ":
            why = char_problem(ch)
            if why:
                line, col = _line_col(text, i)
                return None, at(line, col, why)
    return text, []


_BLOCK_SCALAR = re.compile(r"(^|[\s:-])[|>][0-9+-]*\s*(#.*)?$")


def flow_depth_issue(path: str, text: str) -> SpecIssue | None:
    """The first place where [ and { nest deeper than MAX_DEPTH, outside
    quotes, comments and block scalars (| and >, whose text is not YAML)."""
    depth = 0
    quote = ""
    scalar_indent = -1  # inside a block scalar: the indent of the line that opened it
    for line_no, line in enumerate(text.split("\n"), start=1):
        indent = len(line) - len(line.lstrip(" "))
        if scalar_indent >= 0:
            if not line.strip() or indent > scalar_indent:
                continue
            scalar_indent = -1
        prev = "\n"
        i, n = 0, len(line)
        while i < n:
            ch = line[i]
            if quote:
                if quote == "'" and ch == "'":
                    if i + 1 < n and line[i + 1] == "'":
                        i += 2
                        continue
                    quote = ""
                elif quote == '"' and ch == "\\":
                    i += 2
                    continue
                elif quote == '"' and ch == '"':
                    quote = ""
            elif ch == "#" and prev in " \t\n":
                break
            elif ch in "'\"" and (depth > 0 or prev in " \t\n:-[{,"):
                quote = ch
            elif ch in "[{" and (depth > 0 or prev in " \t\n:-"):
                depth += 1
                if depth > MAX_DEPTH:
                    return SpecIssue(path, line_no, i + 1, "", f"nesting deeper than {MAX_DEPTH} levels")
            elif ch in "]}" and depth > 0:
                depth -= 1
            prev = ch
            i += 1
        if depth == 0 and not quote and _BLOCK_SCALAR.search(line):
            scalar_indent = indent
    return None


class EventGuard:
    """Depth, alias growth, tags, merge keys and long numbers, checked one
    event at a time as ruamel's parser hands them on (yaml_read.py feeds it
    the composer's events, so the text is parsed once); feed() returns the
    first problem, located at its event."""

    def __init__(self, path: str, resolver) -> None:
        self.path, self.resolver = path, resolver
        self.depth = 0
        self.nodes = self.chars = self.added = 0  # chars: the scalars' characters so far, aliases expanded; added: by aliases
        # anchor -> nodes (chars) its value expands to;
        # open collections: [anchor, nodes at start, is mapping, key next, chars at start]
        self.sizes: dict[str, int] = {}
        self.char_sizes: dict[str, int] = {}
        self.stack: list[list] = []

    def _issue(self, ev, reason: str) -> SpecIssue:
        m = ev.start_mark
        return SpecIssue(self.path, m.line + 1, m.column + 1, "", reason)

    def _done(self) -> None:  # a scalar or alias ends: a mapping's next item is a key, or a value
        if self.stack and self.stack[-1][2]:
            self.stack[-1][3] = not self.stack[-1][3]

    def _number_tag(self, ev: ScalarEvent) -> bool:
        """Whether ruamel will build ev as an int or a float."""
        if ev.tag:
            return ev.tag in NUMBER_TAGS
        return ev.style is None and str(self.resolver.resolve(ScalarNode, ev.value, ev.implicit)) in NUMBER_TAGS

    def feed(self, ev) -> SpecIssue | None:
        stack = self.stack
        at_key = bool(stack) and stack[-1][2] and stack[-1][3]
        tag = getattr(ev, "tag", None)
        if tag and tag not in CORE_TAGS and not (isinstance(ev, ScalarEvent) and ev.implicit[0]):
            return self._issue(ev, f"the YAML tag {tag} is not allowed in a spec (only plain values, lists and "
                                   f"mappings)")
        if isinstance(ev, ScalarEvent):
            if at_key and ev.value == "<<" and ev.style is None:
                return self._issue(ev, "merge keys (<<) are not supported: write the keys out (anchors and "
                                       "aliases of whole values are fine)")
            if len(ev.value) > MAX_NUMBER_CHARS and self._number_tag(ev):  # shorter: nothing to refuse
                why = number_problem(ev.value.strip())
                if why:
                    return self._issue(ev, why)
            self.nodes += 1
            self.chars += len(ev.value)
            if ev.anchor:
                self.sizes[ev.anchor] = 1
                self.char_sizes[ev.anchor] = len(ev.value)
            self._done()
        elif isinstance(ev, AliasEvent):
            if at_key:
                return self._issue(ev, "an alias as a mapping key is not supported")
            if any(open_[0] == ev.anchor for open_ in stack):
                return self._issue(ev, f"alias *{ev.anchor} is inside its own anchor (a document that contains "
                                       f"itself)")
            self.nodes += self.sizes.get(ev.anchor, 1)
            if self.nodes > MAX_NODES:
                return self._issue(ev, f"alias *{ev.anchor} expands the document beyond {MAX_NODES} nodes")
            grown = self.char_sizes.get(ev.anchor, 0)
            self.added += grown
            self.chars += grown
            if self.added > MAX_ALIAS_CHARS:
                return self._issue(ev, f"alias *{ev.anchor} expands the document by more than {MAX_ALIAS_CHARS} "
                                       f"characters (its aliases repeat {self.added} characters of text)")
            self._done()
        elif isinstance(ev, CollectionStartEvent):
            if at_key:
                return self._issue(ev, "a mapping or list as a mapping key is not supported")
            self.depth += 1
            if self.depth > MAX_DEPTH:
                return self._issue(ev, f"nesting deeper than {MAX_DEPTH} levels")
            self.nodes += 1
            stack.append([ev.anchor, self.nodes, isinstance(ev, MappingStartEvent), True, self.chars])
        elif isinstance(ev, CollectionEndEvent):
            self.depth -= 1
            anchor, start, _, _, start_chars = stack.pop()
            if anchor:
                self.sizes[anchor] = self.nodes - start + 1
                self.char_sizes[anchor] = self.chars - start_chars
            self._done()
        if self.nodes > MAX_NODES:
            return self._issue(ev, f"the document has more than {MAX_NODES} nodes")
        return None


def event_issue(path: str, text: str) -> SpecIssue | None:
    """EventGuard over a whole text's events (yaml_read.py checks them as it loads)."""
    y = YAML(typ="rt")
    guard = EventGuard(path, y.resolver)
    for ev in y.parse(text):
        issue = guard.feed(ev)
        if issue:
            return issue
    return None
