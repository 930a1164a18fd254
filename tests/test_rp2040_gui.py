"""boids-gui's Board mode against the emulated RP2040 (issue 36): the real Tk
window on a private Xvfb display, the board image in rp2040js on a real
pseudo-terminal (codegen/targets/rp2040/pty_board.py, what `boidsgen
emulate` runs), pyserial. As against `boids_host --pty`
(tests/test_gui_lockstep.py): the window connects, mirrors the board in
lockstep, and a parameter set from a slider reaches the board and keeps the
two in step."""
from __future__ import annotations

import pytest

from tests.deadline import Deadline
from tests.test_gui import display, make_app, pump  # noqa: F401  (display: the Xvfb fixture)
from tests.test_gui_lockstep import in_step
from tests.test_rp2040 import SCOUTS, rp2040_tools, scouts_rp2040  # noqa: F401  (fixtures)

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: the RP2040 in rp2040js behind the GUI

SYNC = 120.0  # seconds for connect + `watch on` + reset: rp2040js runs at about a third of real time
STEP = 90.0  # seconds for the frames after the change


@pytest.mark.slow
@pytest.mark.timeout(600)  # about 1.5 min here: the board image with its PIO stepped per clock
def test_board_mode_stays_in_step_with_the_emulated_board(display, scouts_rp2040):  # noqa: F811
    from codegen.targets.rp2040.pty_board import PtyBoard
    from pysim.gui.board_mode import IN_STEP as GREEN
    from pysim.gui.scales import STEPS

    _, b = scouts_rp2040
    with PtyBoard(b.elf) as board:
        app = make_app(spec=SCOUTS)
        try:
            app.port.set(board.path)
            app.mode.set("board")
            app._mode_changed()
            assert pump(app, until=lambda: (in_step(app) or 0) >= 10, timeout=SYNC), \
                f"not 10 frames in step within {SYNC} s: {app.status_var.get()!r}"
            follow, mirror = app.follow, app.follow.mirror
            ctl = app.controls.params["visual_range"]
            ctl.set_position(0.3 * STEPS)  # the slider moved: sent to the board as `set`
            got = in_step(app)
            deadline = Deadline(STEP, "frames in step after the change")
            assert pump(app, until=lambda: (in_step(app) or 0) >= got + 30, timeout=STEP), \
                f"{app.status_var.get()!r} ({deadline})"
            assert pump(app, until=lambda: mirror.sim.params.value_text("visual_range") == ctl.value_text,
                        timeout=10.0), (mirror.sim.params.value_text("visual_range"), ctl.value_text)
            assert mirror.event_kinds.get("set", 0) >= 1, mirror.event_kinds  # the board's `ev set`, followed
            assert app.follow is follow and mirror.diverged is None, app.status_var.get()
            assert str(app.status_label.cget("foreground")) == GREEN
        finally:
            app.close()
