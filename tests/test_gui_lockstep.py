"""boids-gui's Board mode in lockstep with the real host firmware: the real
Tk window on a private Xvfb display, `boids_host --pty` in real time on a
real pseudo-terminal, pyserial. The canvas draws the mirror; the status
line says how many frames are in step, or where the two diverged."""
from __future__ import annotations

import random
import re
import time

import numpy as np
import pytest

from tests.deadline import Deadline, reap
from tests.test_gui import display, make_app, pump  # noqa: F401  (display: the Xvfb fixture)
from tests.test_serial_pty import SPEED, Host

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: the GUI beside a board in real time

SYNC = 30.0  # seconds for connect + `watch on` + reset (well under 1 s on the host)
MOVES = 40  # slider moves, drags and typed values, a flock-size change every 20 (the board at SPEED)
IN_STEP = re.compile(r"^in step: (\d+) frames")


def in_step(app) -> int | None:
    """The frames in step the status line shows (None: it shows something else)."""
    m = IN_STEP.match(app.status_var.get())
    return int(m.group(1)) if m else None


def connect(app, port: str) -> None:
    """Board mode on `port` as a user would: type the port, pick Board."""
    app.port.set(port)
    app.mode.set("board")
    app._mode_changed()
    assert pump(app, until=lambda: (in_step(app) or 0) > 0, timeout=SYNC), \
        f"no 'in step' within {SYNC} s: {app.status_var.get()!r}"


def drag(app, ctl, to: float) -> None:
    """Drag a slider's handle with the mouse (the real ttk::scale bindings)."""
    from pysim.gui.scales import STEPS

    s = ctl.scale
    w, h = s.winfo_width(), s.winfo_height()
    x0 = int(w * float(s.get()) / STEPS)
    s.event_generate("<ButtonPress-1>", x=max(1, min(w - 2, x0)), y=h // 2)
    for k in range(1, 6):
        x = x0 + (int(w * to / STEPS) - x0) * k // 5
        s.event_generate("<B1-Motion>", x=max(1, min(w - 2, x)), y=h // 2)
        pump(app, timeout=0.02)
    s.event_generate("<ButtonRelease-1>", x=max(1, min(w - 2, x)), y=h // 2)


def test_board_mode_stays_in_step_while_sliders_move(display, default_build, capsys, tmp_path):  # noqa: F811
    """Seconds of slider drags, typed values and flock-size changes:
    every change goes to the board as `set`, the mirror follows the board's
    `ev` lines, the frames in step keep growing and nothing diverges; the
    canvas shows the mirrored flock and the status line is green."""
    from pysim.gui.board_mode import IN_STEP as GREEN
    from pysim.gui.scales import STEPS
    from pysim.gui.xvfb import window_grab

    host = Host(default_build[1], speed=SPEED)
    app = make_app(style="triangles")
    try:
        connect(app, host.path)
        follow = app.follow
        mirror = follow.mirror
        frame0 = app.sim.frame
        rng = random.Random(5)
        names = ["visual_range", "protected_range", "centering_factor", "avoid_factor", "matching_factor",
                 "turn_factor", "max_speed", "min_speed"]
        names = [n for n in names if n in app.controls.params]
        assert len(names) >= 6, sorted(app.controls.params)
        seen, moves, lags = [], 0, []
        deadline = Deadline(60, "end of the slider moves")
        while moves < MOVES:
            deadline.check()
            ctl = app.controls.params[rng.choice(names)]
            if moves % 3 == 0:
                drag(app, ctl, rng.uniform(0.05, 0.95) * STEPS)
            else:
                ctl.set_position(rng.uniform(0.05, 0.95) * STEPS)
            if moves % 20 == 10:
                spin = app.controls.options["boids"]
                spin.var.set(rng.randint(40, app.model.CAPACITY))
                spin._changed()
            moves += 1
            pump(app, timeout=0.08)
            n = in_step(app)
            assert "diverged" not in app.status_var.get(), app.status_var.get()
            if n is not None:
                seen.append(n)
                lags.append(app.follow.runner.status().lag_frames)
        # the last values reach the board and the mirror: every control shows what the board holds
        assert pump(app, until=lambda: not app.link._latest and app.link.jobs.empty(), timeout=5.0)
        assert pump(app, until=lambda: all(
            mirror.sim.params.value_text(n) == app.controls.params[n].value_text for n in names), timeout=5.0), \
            {n: (mirror.sim.params.value_text(n), app.controls.params[n].value_text) for n in names}
        st = follow.runner.status()
        assert pump(app, until=lambda: (in_step(app) or 0) > seen[-1] + 30, timeout=5.0), app.status_var.get()
        assert app.follow is follow and mirror.diverged is None and st.diverged is None, st.line()
        assert len(seen) >= 15 and seen == sorted(seen) and seen[-1] - seen[0] >= 200, seen
        sets = mirror.event_kinds.get("set", 0)
        assert sets >= moves // 2, (sets, moves, mirror.event_kinds)
        assert mirror.event_kinds.get("boids/command", 0) >= 2, mirror.event_kinds
        assert app.sim.frame == frame0  # the local simulator does not run in Board mode
        assert str(app.status_label.cget("foreground")) == GREEN
        with capsys.disabled():
            print(f"\n{moves} slider moves, {sets} `ev set` followed; {st.line()}; "
                  f"mirror lag max {max(lags)} frames, mean {np.mean(lags):.2f}; "
                  f"redraw {app.stats.fps:.1f} fps, draw {app.stats.draw_ms:.1f} ms")

        # what the screen shows: the mirror's flock on the canvas, the green status line, after
        # the spec's defaults come back and Reset flock starts a new lockstep (the sliders may
        # have scattered the flock off the screen)
        app.controls.reset_all_button.invoke()
        app.buttons["reset"].invoke()
        assert pump(app, until=lambda: app.follow not in (None, follow) and app.follow.mirror.frames_in_step > 150,
                    timeout=SYNC), app.status_var.get()
        again = app.follow.mirror
        assert all(again.sim.params.raw[p.name] == p.default_raw for p in app.model.PARAMS)
        pump(app, timeout=0.6)  # the status line's next refresh
        assert 150 < in_step(app) <= again.frames_in_step, (app.status_var.get(), again.frames_in_step)
        app._show_stats()
        window_grab(display, app.root).save(tmp_path / "gui_board.png")  # docs/'s: tools/gui_screenshot.py --board
        a = np.asarray(window_grab(display, app.view.canvas).convert("RGB")).astype(int)
        s = app.view.scale
        b = app.shown.boids
        hits = [a[min(int(y * s), a.shape[0] - 1), min(int(x * s), a.shape[1] - 1)].sum() > 300
                for x, y in b[:, :2] if 0 <= x < app.model.WIDTH and 0 <= y < app.model.HEIGHT]
        assert len(hits) >= 40 and np.mean(hits) > 0.8, (len(hits), np.mean(hits))
        lab = app.status_label
        g = np.asarray(window_grab(display, lab).convert("RGB")).astype(int)
        green = (g[:, :, 1] > 90) & (g[:, :, 0] < 60) & (g[:, :, 2] < 60)
        assert green.sum() > 50, "the status line is not drawn in green"
    finally:
        app.close()
        host.stop()


def test_board_mode_shows_where_the_board_diverged(display, default_build):  # noqa: F811
    """A host that secretly nudges boid 0 after frame F: the status turns red
    naming frame F + 1, boid 0, field x (after the worker's pause, dump and
    explain); the board runs on; Reset flock re-syncs (in step again) and
    the same nudge is caught again."""
    from pysim.gui.board_mode import DIVERGED as RED

    f = 150  # 5 s: the connect message holds the status line for 2 s, then "in step" shows
    host = Host(default_build[1], "--perturb", str(f))
    app = make_app()
    try:
        connect(app, host.path)
        want = f"diverged at frame {f + 1}: boid 0 field x (board "
        assert pump(app, until=lambda: want in app.status_var.get(), timeout=SYNC), app.status_var.get()
        assert str(app.status_label.cget("foreground")) == RED
        assert app.follow.explained
        # the board was resumed after its dump; the window kept redrawing
        frames = (app.board_stats or {}).get("frames", 0)
        assert pump(app, until=lambda: (app.board_stats or {}).get("frames", 0) > frames + 10, timeout=5.0)
        assert want in app.status_var.get()  # and the divergence stays on the line

        old = app.follow
        app.buttons["reset"].invoke()  # a new lockstep from a new reset
        assert pump(app, until=lambda: app.follow is not old and (in_step(app) or 0) > 0, timeout=SYNC), \
            app.status_var.get()
        assert pump(app, until=lambda: want in app.status_var.get(), timeout=SYNC), app.status_var.get()
    finally:
        app.close()
        host.stop()


def test_board_mode_resyncs_after_a_reconnect(display, default_build, tmp_path):  # noqa: F811
    """The port is lost (the host killed) and a new host comes up behind the
    same path (a symlink here): another device, so the link does not adopt
    it on its own (tests/test_gui_board_link.py); picking the port again
    connects and re-syncs with a new reset, with the seed typed in the
    window."""
    port = tmp_path / "board"
    host = Host(default_build[1])
    port.symlink_to(host.path)
    app = make_app()
    host2 = None
    try:
        app.seed_var.set("12345")
        connect(app, str(port))
        first = app.follow
        assert first.seed == 12345
        host.proc.kill()
        assert pump(app, until=lambda: "disconnected" in app.status_var.get(), timeout=10.0), \
            app.status_var.get()
        host2 = Host(default_build[1], "--seed", "9")
        port.unlink()
        port.symlink_to(host2.path)
        assert pump(app, until=lambda: "not reconnected" in app.status_var.get(), timeout=10.0), \
            app.status_var.get()
        app._connect_if_board()  # the user picks the port again (Return in the port box)
        assert pump(app, until=lambda: app.follow not in (None, first) and (in_step(app) or 0) > 30,
                    timeout=SYNC), app.status_var.get()
        assert app.follow.seed == 12345 and "mirrored (seed 12345)" in app.stats_var.get()
    finally:
        app.close()
        host.proc.kill()
        reap(host.proc, "the first boids_host --pty")
        host.proc.stdout.close()
        host.proc.stderr.close()
        if host2 is not None:
            host2.stop()


def test_a_stalled_mirror_shows_behind_and_the_window_stays_responsive(display, default_build):  # noqa: F811
    """The mirror's thread held up for 2.5 s (its lock taken by another
    thread, as a slow step would): the status line says it is behind (in
    orange), the window keeps redrawing at its rate; released, the mirror
    catches up and every frame it reached is still in step."""
    import threading

    from pysim.gui.board_mode import BEHIND, IN_STEP as GREEN

    host = Host(default_build[1])
    app = make_app()
    try:
        connect(app, host.path)
        runner = app.follow.runner
        held, release = threading.Event(), threading.Event()

        def hold() -> None:
            with runner.lock:
                held.set()
                release.wait(10.0)

        t = threading.Thread(target=hold, daemon=True)
        t.start()
        assert held.wait(5.0)
        try:
            t0 = time.monotonic()
            assert pump(app, until=lambda: "BEHIND by" in app.status_var.get(), timeout=5.0), app.status_var.get()
            assert str(app.status_label.cget("foreground")) == BEHIND
            pump(app, until=lambda: time.monotonic() > t0 + 2.5, timeout=5.0)
            assert app.stats.fps > 20, f"the window redrew at {app.stats.fps:.1f} fps while the mirror stalled"
        finally:
            release.set()
            t.join(5.0)
        assert pump(app, until=lambda: str(app.status_label.cget("foreground")) == GREEN
                    and "lag 0 frames" in app.status_var.get(), timeout=10.0), app.status_var.get()
        assert runner.status().diverged is None and (in_step(app) or 0) > 100
    finally:
        app.close()
        host.stop()
