"""Write the byte-level cases of the hostile-spec corpus (tests/hostile/specs/).

These are the cases an editor would not show or would "fix" on save: other
encodings, bytes that are not UTF-8, raw control and bidi characters. Each is
a copy of spec/boids.yaml with the bytes put in, headed by the usual
`# hostile:` / `# expect:` comment lines, except the files whose very first
bytes must be malformed (UTF-16, a BOM, an empty file): their expectations
are in tests/hostile/expect.yaml.

    python3 tests/hostile/make_binary_cases.py      # rewrites those files; commit them

The text cases are ordinary files, edited by hand.
"""
from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SPECS = HERE / "specs"
ACCEPTED = HERE / "accepted"
BASE = (ROOT / "spec" / "boids.yaml").read_bytes()

# One expectations file for the cases that cannot carry comments; written in full.
EXPECT_HEADER = b"""\
# Expectations for hostile specs that cannot start with `# expect:` lines
# (their first bytes are the point), and extra expectations for any case:
#   file name: ["LINE substring", ...]   (LINE 1-based, 0 = any line)
# Written by make_binary_cases.py.
"""


def put(base: bytes, old: bytes, new: bytes) -> bytes:
    assert base.count(old) == 1, old
    return base.replace(old, new)


def line_of(body: bytes, marker: bytes) -> int:
    hits = [i for i, l in enumerate(body.split(b"\n"), 1) if marker in l]
    assert len(hits) == 1, (marker, hits)
    return hits[0]


def headed(hostile: str, body: bytes, expects: list[tuple[bytes | int, str]]) -> bytes:
    """`# hostile:` and `# expect:` lines, then body; markers become line numbers."""
    n = 1 + len(expects)
    head = f"# hostile: {hostile}\n"
    for where, sub in expects:
        ln = line_of(body, where) + n if isinstance(where, bytes) else (where + n if where else 0)
        head += f"# expect: {ln} {sub}\n"
    return head.encode("ascii") + body


def cases() -> tuple[dict[str, bytes], dict[str, list[str]]]:
    files: dict[str, bytes] = {}
    expect: dict[str, list[str]] = {}
    text = BASE.decode("utf-8")

    # ---- encodings the loader must name instead of failing on
    files["encoding__utf16le_bom"] = b"\xff\xfe" + text.encode("utf-16-le")
    expect["encoding__utf16le_bom"] = ["1 UTF-16"]
    files["encoding__utf16be_bom"] = b"\xfe\xff" + text.encode("utf-16-be")
    expect["encoding__utf16be_bom"] = ["1 UTF-16"]
    # without a BOM, the first byte that gives UTF-16 away is the NUL after '#'
    files["encoding__utf16le_no_bom"] = text.encode("utf-16-le")
    expect["encoding__utf16le_no_bom"] = ["1 control character"]
    bom_body = put(BASE, b"update_order: sequential", b"update_ordr: sequential")
    files["encoding__utf8_bom_line_numbers"] = b"\xef\xbb\xbf" + bom_body
    expect["encoding__utf8_bom_line_numbers"] = [f"{line_of(bom_body, b'update_ordr')} unknown key"]
    files["syntax__empty_file"] = b""
    expect["syntax__empty_file"] = ["1 a spec is a YAML mapping"]

    # ---- bytes that are not UTF-8 (headed: the header is ASCII)
    def not_utf8(name: str, hostile: str, old: bytes, new: bytes, marker: bytes) -> None:
        body = put(BASE, old, new)
        files[name] = headed(hostile, body, [(marker, "not UTF-8")])

    not_utf8("encoding__latin1_description", "a description saved as Latin-1 (0xE9 for e-acute)",
             b'description: "speed floor"', b'description: "vitesse minimale \xe9 floor"', b"vitesse")
    not_utf8("encoding__cp1252_smart_quotes", "Windows-1252 curly quotes (0x93, 0x94) in a description",
             b'description: "speed ceiling"', b'description: "\x93speed\x94 ceiling"', b"speed\x94")
    not_utf8("encoding__bad_continuation", "a UTF-8 lead byte followed by an ASCII byte (C3 28)",
             b'description: "speed ceiling"', b'description: "speed \xc3\x28 ceiling"', b"\xc3")
    not_utf8("encoding__overlong_slash", "an overlong encoding of '/' (C0 AF), a classic filter bypass",
             b"unit: px/frame, id: 7,", b"unit: px\xc0\xafframe, id: 7,", b"\xc0\xaf")
    not_utf8("encoding__encoded_surrogate", "a UTF-16 surrogate encoded as UTF-8 (ED A0 80, CESU-8)",
             b'description: "speed ceiling"', b'description: "speed \xed\xa0\x80 ceiling"', b"\xed\xa0")
    not_utf8("encoding__beyond_unicode", "a code point above U+10FFFF (F4 90 80 80)",
             b'description: "speed ceiling"', b'description: "speed \xf4\x90\x80\x80 ceiling"', b"\xf4\x90")
    not_utf8("encoding__byte_ff_in_comment", "a 0xFF byte in a comment", b"# Edit, then",
             b"# Edit \xff, then", b"\xff")
    body = BASE.rstrip(b"\n") + b"\n# the end \xe2\x82"
    files["encoding__truncated_at_eof"] = headed(
        "the file ends in the middle of a multi-byte character (E2 82, no newline)", body,
        [(b"# the end", "not UTF-8")])

    # ---- raw control characters in the file
    def raw(name: str, hostile: str, old: bytes, new: bytes, marker: bytes, sub: str) -> None:
        body = put(BASE, old, new)
        files[name] = headed(hostile, body, [(marker, sub)])

    cc, inv = "control character", "invisible or direction-changing character"
    raw("control__nul_in_comment", "a NUL byte inside a comment", b"# Edit, then", b"# Edit\x00, then", b"\x00", cc)
    raw("control__nul_in_name", "a NUL byte inside the spec's name (truncates the name in C)",
        b"name: boids", b"name: boids\x00evil", b"name: boids", cc)
    raw("control__bel_in_description", "a raw BEL (0x07) in a description",
        b'description: "speed ceiling"', b'description: "speed\x07 ceiling"', b"\x07", cc)
    raw("control__ansi_escape_in_comment", "a raw ANSI escape sequence (clear screen) in a comment",
        b"# Edit, then", b"# \x1b[2J\x1b[HEdit, then", b"\x1b[2J", cc)
    raw("control__del_in_unit", "a raw DEL (0x7F) in a unit", b"unit: px/frame, id: 7,", b"unit: px\x7f, id: 7,",
        b"\x7f", cc)
    raw("control__vertical_tab", "a vertical tab (0x0B) between a key and its value",
        b"frame_rate: 30", b"frame_rate:\x0b30", b"frame_rate:", cc)
    raw("control__form_feed", "a form feed (0x0C) on a line of its own, as old source files have",
        b"\nparams:\n", b"\n\x0c\nparams:\n", b"\x0c", cc)
    raw("control__c1_csi", "a C1 control U+009B (CSI, C2 9B) in a description",
        b'description: "speed ceiling"', 'description: "speed \u009b ceiling"'.encode(), "\u009b".encode(), cc)
    raw("control__c1_nel", "U+0085 NEXT LINE (which YAML 1.1 treats as a line break) in a description",
        b'description: "speed ceiling"', 'description: "speed \u0085 ceiling"'.encode(), "\u0085".encode(), cc)
    raw("control__bidi_rlo_in_comment", "Trojan Source: U+202E RIGHT-TO-LEFT OVERRIDE in a comment",
        b"# Edit, then", "# Edit\u202e, then".encode(), "\u202e".encode(), inv)
    raw("control__bidi_lri_in_description", "U+2066 LEFT-TO-RIGHT ISOLATE in a description",
        b'description: "speed ceiling"', 'description: "speed \u2066ceiling\u2069"'.encode(), "\u2066".encode(), inv)
    raw("control__bidi_rle_in_key", "U+202B RIGHT-TO-LEFT EMBEDDING in a parameter's name",
        b"  max_speed:       {default: 3,", "  max_speed\u202b:       {default: 3,".encode(), "\u202b".encode(), inv)
    raw("control__line_separator", "U+2028 LINE SEPARATOR (a line break to JavaScript, not to C) in a description",
        b'description: "speed ceiling"', 'description: "speed\u2028ceiling"'.encode(), "\u2028".encode(), inv)
    raw("control__paragraph_separator", "U+2029 PARAGRAPH SEPARATOR in a comment",
        b"# Edit, then", "# Edit\u2029, then".encode(), "\u2029".encode(), inv)
    return files, expect


def accepted() -> dict[str, bytes]:
    """Byte-level specs that must be accepted."""
    return {"utf8_bom": b"\xef\xbb\xbf" + BASE}


def main() -> None:
    SPECS.mkdir(parents=True, exist_ok=True)
    ACCEPTED.mkdir(parents=True, exist_ok=True)
    files, expect = cases()
    for name, data in files.items():
        (SPECS / f"{name}.yaml").write_bytes(data)
    for name, data in accepted().items():
        (ACCEPTED / f"{name}.yaml").write_bytes(data)
    lines = [EXPECT_HEADER]
    for name in sorted(expect):
        items = ", ".join(f'"{e}"' for e in expect[name])
        lines.append(f"{name}.yaml: [{items}]\n".encode())
    (HERE / "expect.yaml").write_bytes(b"".join(lines))
    print(f"{len(files)} byte-level cases, {len(expect)} in expect.yaml")


if __name__ == "__main__":
    main()
