"""`boidsgen watch PORT`: the simulator in lockstep with a running board.

Connects, checks the spec hash, switches the board's `watch` on, takes its
parameters, then resets it to a known seed (or, with --adopt, takes its
state from a `dump`), and follows its `fr`/`ev` stream with a mirror
(pysim/lockstep.py) until --frames frames are in step (exit 0), the first
divergence (exit 1: the frame, then the first boid and field from a dump of
the paused board), or Ctrl-C. Exit 2: no board, another spec, bad options.
"""
from __future__ import annotations

import sys
import time
import warnings

STATUS_EVERY = 0.5  # seconds between status lines
SILENT_AFTER = 5.0  # seconds without a line from the board: say so


def run(a, model) -> int:
    from pysim.lockstep_session import Follow
    from pysim.serial_client import BoardClient, BoardError, SpecMismatchWarning

    out = sys.stdout
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", SpecMismatchWarning)
            client = BoardClient(a.port, model, baud=a.baud, timeout=a.timeout)
    except SpecMismatchWarning as e:
        print(f"boidsgen watch: {e}", file=sys.stderr)
        return 2
    except (BoardError, OSError, ValueError) as e:
        print(f"boidsgen watch: {a.port}: {getattr(e, 'reason', e)}", file=sys.stderr)
        return 2
    follow = None
    try:
        follow = Follow(client, model, a.seed, a.timeout, every=a.every, adopt=a.adopt)
        if a.adopt:
            print(f"watch: adopted the board's state at frame {follow.mirror.frame}", file=out)
        else:
            print(f"watch: board reset with seed {follow.seed}", file=out)
        return _follow(a, client, follow, out)
    except BoardError as e:
        print(f"boidsgen watch: {a.port}: {e.reason}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nwatch: interrupted", file=out)
        return 130
    finally:
        if follow is not None:
            follow.close(client)
        client.close()


def _follow(a, client, follow, out) -> int:
    runner = follow.runner
    runner.until = a.frames  # the mirror stops at N frames, not at the next time this loop looks
    live = out.isatty()
    next_status = 0.0
    last_frame, last_change = -1, time.monotonic()
    while True:
        st = runner.status()
        now = time.monotonic()
        if st.diverged:
            try:
                follow.explain(client)  # pause, dump, name the boid and field, resume
            except BoardError as e:
                print(f"\nwatch: could not take the board's state: {e.reason}", file=out)
            print(f"\nwatch: {follow.mirror.diverged or runner.error}", file=out)
            return 1
        if a.frames and st.frames_in_step >= a.frames:
            print(("\r" if live else "") + st.line(), file=out)
            kinds = follow.mirror.event_kinds
            told = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none"
            print(f"watch: {st.frames_in_step} frames in step; events applied: {told}", file=out)
            return 0
        if st.board_frame != last_frame:
            last_frame, last_change = st.board_frame, now
        elif now - last_change > SILENT_AFTER and not st.paused:
            print(f"\nwatch: no frame from the board for {now - last_change:.0f} s", file=out)
            last_change = now
        if now >= next_status:
            next_status = now + STATUS_EVERY
            text = st.line()
            print(f"\r{text}\033[K" if live else text, end="" if live else "\n", file=out, flush=True)
        time.sleep(0.05)
