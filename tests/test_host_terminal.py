"""boids_host as a student first meets it, at a terminal (issue 33): a
one-line banner naming the spec, its hash and `help`; `quit` or `exit` on the
stdio link leaves as Ctrl-D does. On a pty the link is a board's serial port,
where neither word is a command."""
from __future__ import annotations

import subprocess

from .test_serial_pty import Host, Link

RUN = 30  # seconds: a bound on each run, which ends at once when it works


def _at_terminal(exe, typed: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe)], input=typed, capture_output=True, text=True, timeout=RUN)


def test_the_banner_names_the_spec_its_hash_and_help(default_build):
    m, exe, _ = default_build
    res = _at_terminal(exe, "")
    banner = res.stderr.splitlines()
    assert res.returncode == 0 and len(banner) == 1, res.stderr
    assert f"spec {m.name} (hash {m.hash})" in banner[0] and "'help'" in banner[0] and "'quit'" in banner[0]
    assert res.stdout == ""  # stdout is the serial link: nothing but replies


def test_quit_and_exit_leave_and_nothing_after_them_runs(default_build):
    exe = default_build[1]
    for word in ("quit", "exit"):
        res = _at_terminal(exe, f"get max_speed\n{word}\nhelp\n")
        assert res.returncode == 0, res.stderr
        assert res.stdout.startswith("ok max_speed="), res.stdout
        assert "help" not in res.stdout and "unknown command" not in res.stdout, res.stdout


def test_only_the_whole_word_leaves(default_build):
    exe = default_build[1]
    res = _at_terminal(exe, "quitx\nqui\nexit now\nget max_speed\n")
    assert res.returncode == 0, res.stderr
    replies = res.stdout.splitlines()
    assert [r.split()[0] for r in replies] == ["err", "err", "err", "ok"], replies


def test_on_a_pty_quit_is_an_unknown_command(default_build):
    host = Host(default_build[1])
    try:
        link = Link(host.path)
        try:
            link.write(b"quit\nget max_speed\n")
            replies = link.replies(2)
        finally:
            link.close()
        assert replies[0].startswith("err unknown command 'quit'") and replies[1].startswith("ok max_speed=")
        assert host.proc.poll() is None  # still running
    finally:
        host.stop()
