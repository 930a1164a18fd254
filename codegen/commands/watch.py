"""`boidsgen watch PORT`: the simulator in lockstep with a running board.

Connects, checks the spec hash, switches the board's `watch` on, takes its
parameters, then resets it to a known seed (or, with --adopt, takes its
state from a `dump`), and follows its `fr`/`ev` stream with a mirror
(pysim/board/lockstep.py) until --frames frames are in step (exit 0), the first
divergence (exit 1: the frames it happened between, then the first boid and
field from a dump of the paused board; with --every K > 1, the board is run
again from the same reset with a digest every frame to find the first
divergent frame), or Ctrl-C (130).

Exit 2, with one line saying why: no board, another spec, a paused board, a
board that stops answering or streaming (killed, reset, watch switched off,
a second reader on the port: noticed within --timeout plus the time between
two digests, or PAUSED_TIMEOUTS x --timeout for an announced pause), a
malformed or hostile reply (named), a mirror that cannot follow. Whatever
ends the run, the board is left running (if we paused it) with `watch` off.
"""
from __future__ import annotations

import signal
import sys
import threading
import time
import warnings

from pysim.board.serial_client import BoardClient, BoardError, BoardTimeout, SpecMismatchWarning
from pysim.one_line import one_line

STATUS_EVERY = 0.5  # seconds between status lines
PAUSED_TIMEOUTS = 5  # an announced pause (or a silent board that answers) is waited for this many --timeout
REPLAY_SECONDS = 60  # --every K: a divergence further into the run than this is not replayed


class Stop(Exception):
    """The run ends: exit `code` with one line saying why."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code, self.why = code, why


def run(a, model) -> int:
    from pysim.board.lockstep_session import Follow

    out = sys.stdout
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", SpecMismatchWarning)
            client = BoardClient(a.port, model, baud=a.baud, timeout=a.timeout)
    except SpecMismatchWarning as e:
        print(f"boidsgen watch: {one_line(e)}", file=sys.stderr)
        return 2
    except (BoardError, OSError, ValueError) as e:
        print(f"boidsgen watch: {one_line(a.port)}: {one_line(getattr(e, 'reason', e))}", file=sys.stderr)
        return 2
    follows: list = []  # every lockstep started on this connection (a replay starts a second)
    try:
        if client.stats()["paused"]:
            raise Stop(2, "the board is paused: resume it (`resume`), then watch again")
        follows.append(Follow(client, model, a.seed, a.timeout, every=a.every, adopt=a.adopt))
        follow = follows[0]
        if a.adopt:
            print(f"watch: adopted the board's state at frame {follow.mirror.frame}", file=out)
        else:
            print(f"watch: board reset with seed {follow.seed}", file=out)
        diverged = _follow(a, client, follow, out, a.frames)
        if diverged is None:
            kinds = follow.mirror.event_kinds
            told = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none"
            print(f"watch: {follow.mirror.frames_in_step} frames in step; events applied: {told}", file=out)
            return 0
        print(f"\nwatch: {diverged}", file=out)
        if a.every > 1:
            _replay(a, client, model, follows, diverged, out)
        return 1
    except Stop as e:
        print(f"\nboidsgen watch: {one_line(a.port)}: {one_line(e.why)}", file=sys.stderr)
        return e.code
    except BoardError as e:
        print(f"\nboidsgen watch: {one_line(a.port)}: {one_line(e.reason)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nwatch: interrupted", file=out)
        return 130
    finally:
        _clean_up(follows, client)


def _clean_up(follows: list, client) -> None:
    """Leave the board running with `watch` off (Follow.close: bounded, best
    effort); a second Ctrl-C does not cut it short."""
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        for follow in reversed(follows):
            follow.close(client)
        client.close()
    finally:
        if main:
            signal.signal(signal.SIGINT, old)


def _follow(a, client, follow, out, frames: int):
    """Follow until `frames` frames are in step (None) or the first
    divergence (its Divergence, pinned down by a dump when the board gives
    one). Raises Stop when the board stops streaming or the mirror stops,
    BoardError when the link fails."""
    runner = follow.runner
    runner.until = frames  # the mirror stops at N frames, not at the next time this loop looks
    live = out.isatty()
    between = follow.every / follow.mirror.model.FRAME_RATE  # seconds between two digests
    quiet_limit = a.timeout + between
    give_up = PAUSED_TIMEOUTS * a.timeout + between
    next_status = next_probe = 0.0
    last_frame, last_change = -1, time.monotonic()
    while True:
        client.check()  # the reader's failure (a closed port, an overlong line): BoardLinkLost
        st = runner.status()
        now = time.monotonic()
        if st.error:
            raise Stop(2, st.error)
        if st.diverged:
            try:
                follow.explain(client)  # pause, dump, name the boid and field, resume
            except BoardError as e:
                print(f"\nwatch: could not take the board's state: {e.reason}", file=out)
            return follow.mirror.diverged
        if frames and st.frames_in_step >= frames:
            print(("\r" if live else "") + st.line(), file=out)
            return None
        if st.board_frame != last_frame or st.lag_frames:
            # a digest the mirror has not reached yet is not silence: the board is waited for only
            # once the mirror has caught up (its first frame compiles the kernel, slowly under load)
            last_frame, last_change = st.board_frame, now
        elif now - last_change > quiet_limit and now >= next_probe:
            _probe(client, st, now - last_change, give_up, follow.every)
            next_probe = time.monotonic() + a.timeout
        if now >= next_status:
            next_status = now + STATUS_EVERY
            text = st.line()
            print(f"\r{text}\033[K" if live else text, end="" if live else "\n", file=out, flush=True)
        time.sleep(0.05)


def _probe(client, st, quiet: float, give_up: float, every: int) -> None:
    """No frame from the board for `quiet` seconds: ask it why (`stats`,
    bounded by the timeout). Returns while it is paused, as announced, or
    running slowly, for less than `give_up` seconds; raises Stop otherwise."""
    try:
        s = client.stats()
    except BoardTimeout:
        raise Stop(2, f"no frame from the board for {quiet:.0f} s, and no reply to 'stats'") from None
    frame, newest = s["frames"], st.board_frame
    if s["paused"] and not st.paused:
        raise Stop(2, f"the board is paused at frame {frame} but did not say so (its watch was off)")
    if s["paused"]:
        if quiet > give_up:
            raise Stop(2, f"the board has been paused for {quiet:.0f} s at frame {frame}: resume it, then watch again")
        return
    if frame < newest:
        raise Stop(2, f"the board is at frame {frame}, before its last digest ({newest}), with no reset "
                      "announced: it restarted")
    if frame > newest + every:
        raise Stop(2, f"the board runs (frame {frame}) but sent no digest after frame {newest}: its watch is off "
                      "(it restarted, or another program switched it off)")
    if quiet > give_up:
        raise Stop(2, f"no frame from the board for {quiet:.0f} s (it answers, at frame {frame})")


def _replay(a, client, model, follows: list, diverged, out) -> None:
    """--every K > 1: run the board again from the same reset with a digest
    every frame, up to the frame the divergence was seen at, and print the
    first divergent frame; or say why a replay could not repeat the run."""
    from pysim.board.lockstep_session import Follow

    first = follows[0]
    m, rate = first.mirror, model.FRAME_RATE
    why_not = ("the board's state was adopted: there is no reset to replay from" if first.seed is None else
               "the board was reset again during the run" if m.resets != 1 else
               f"the board changed at frame {m.first_change}, before the divergence: a replay could not repeat it "
               "at its frame" if m.first_change is not None and m.first_change <= diverged.frame else
               f"it would take {diverged.frame / rate:.0f} s (more than {REPLAY_SECONDS} s)"
               if diverged.frame > REPLAY_SECONDS * rate else None)
    if why_not:
        print(f"watch: not replayed: {why_not}", file=out)
        return
    first.close(client)  # the board runs on, watch off, before the second lockstep starts
    print(f"watch: replaying frames 0 to {diverged.frame} from reset {first.seed} with a digest every frame", file=out)
    follows.append(Follow(client, model, first.seed, a.timeout, every=1))
    again = _follow(a, client, follows[-1], out, diverged.frame)
    if again is None:
        print(f"\nwatch: the replay stayed in step to frame {diverged.frame}: the divergence did not repeat", file=out)
    else:
        print(f"\nwatch: replay: {again}", file=out)
