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
    from pysim.lockstep import Mirror
    from pysim.mirror_runner import MirrorRunner
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
    mirror = Mirror(model)
    runner = MirrorRunner(mirror)
    client.on_stream = runner.put
    try:
        client.watch(True, a.every)
        mirror.set_params({n: v["raw"] for n, v in client.params().items()})
        if a.adopt:
            client.pause()
            rows = client.dump()
            runner.settle(a.timeout)
            with runner.lock:
                mirror.adopt(rows)
            client.resume()
            print(f"watch: adopted the board's state at frame {mirror.frame}", file=out)
        else:
            seed = client.reset(a.seed)
            print(f"watch: board reset with seed {seed}", file=out)
        return _follow(a, client, runner, out)
    except BoardError as e:
        print(f"boidsgen watch: {a.port}: {e.reason}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nwatch: interrupted", file=out)
        return 130
    finally:
        client.on_stream = None
        try:
            client.watch(False)
        except BoardError:
            pass
        runner.stop()
        client.close()


def _follow(a, client, runner, out) -> int:
    live = out.isatty()
    next_status = 0.0
    last_frame, last_change = -1, time.monotonic()
    while True:
        st = runner.status()
        now = time.monotonic()
        if st.diverged:
            return _diverged(a, client, runner, out)
        if a.frames and st.frames_in_step >= a.frames:
            print(("\r" if live else "") + st.line(), file=out)
            kinds = runner.mirror.event_kinds
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


def _diverged(a, client, runner, out) -> int:
    """Pause the board, take its state and name the first boid and field that differ."""
    mirror = runner.mirror
    try:
        client.pause()
        rows = client.dump()
        runner.settle(a.timeout)  # every line sent before the dump is fed: the mirror is where the board is
        with runner.lock:
            detail = mirror.explain(rows)
            if mirror.diverged is not None:
                mirror.diverged.detail = detail
        client.resume()
    except Exception as e:  # noqa: BLE001 - the digest already says where; the dump is extra
        print(f"\nwatch: could not take the board's state: {getattr(e, 'reason', e)}", file=out)
    print(f"\nwatch: {mirror.diverged or runner.error}", file=out)
    return 1
