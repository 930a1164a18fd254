"""Talk to a board (or the host firmware on a pty) over its serial link.

    import warnings
    from pysim.board.serial_client import BoardClient, BoardError
    with BoardClient("/dev/ttyUSB0", model) as board:   # model: the generated boids_model module
        board.set_visual_range(40)          # -> 40.0, the value the board now holds
        board.set("centering_factor", "0.0005")
        board.telemetry(True)               # board.latest_telemetry / board.on_telemetry

The protocol is line based (firmware_runtime/core/serial_cmd.c): every command is
answered by zero or more `param ...` lines and one line starting `ok` or
`err REASON`. Telemetry lines (`tm k=v ...`) and, under `watch`, the
lockstep's `fr` and `ev` lines may arrive at any time; a reader thread routes
them apart from replies (`on_telemetry`, `on_stream`), in wire order.

Nothing the board sends is trusted: lines are bounded (pysim/board/wire.py), every
field a method returns is checked (BoardReplyError names the reply), a reply
has a bounded number of lines and time, and a failure of the reader thread
(a closed port, an overlong line) is kept and raised by every later call as
BoardLinkLost (`link_error` holds it for a caller that only listens).
"""
from __future__ import annotations

import queue
import threading
import time
import warnings
from decimal import Decimal
from typing import Callable

import serial

from pysim.board import replies
from pysim.board.wire import LineSplitter, WireError, fields as _fields, shown

# Ctrl-U: the board discards the line received so far (a previous session may
# have left half a line in its buffer).
_LINE_KILL = b"\x15"
_INT_INFO_FIELDS = ("capacity", "fps")
_READ_MAX = 65536  # bytes taken from the port at a time
_WAKE = object()  # put by the reader when it fails: wakes a waiting command


class BoardError(Exception):
    """The board answered `err REASON` (or did not answer: BoardTimeout)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BoardTimeout(BoardError):
    """No complete reply within the client's timeout."""


class BoardLinkLost(BoardError):
    """The port itself failed (unplugged cable, closed pty): reconnect."""


class BoardReplyError(BoardLinkLost):
    """The board's reply breaks the protocol (a field missing or out of
    range, an overlong line, too many lines): the link cannot be trusted as
    it is; the reason names the reply, escaped and cut short."""


class SpecMismatchWarning(UserWarning):
    """The board runs firmware generated from another spec than the local model."""


def parse_telemetry(line: str) -> dict[str, int] | None:
    """`tm time=3 boids=100 ...` -> {'time': 3, 'boids': 100, ...}; None if not telemetry."""
    words = line.split()
    if not words or words[0] != "tm":
        return None
    out = {}
    for k, v in _fields(words[1:]).items():
        try:
            out[k] = int(v)
        except ValueError:
            out[k] = v
    return out


def value_text(value) -> str:
    """A number as plain decimal text the board parses (no exponent)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        raise TypeError("a parameter value cannot be a bool")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        value = Decimal(repr(value))  # the shortest text that reads back as this float
    if isinstance(value, Decimal):
        return format(value, "f")
    raise TypeError(f"cannot send {type(value).__name__} as a parameter value")


def _course_form(word: str) -> bool:
    """A line of the course's Python interface (bNN1, tNNTrue, l0NK, r0GM, $TEXT)."""
    return word.startswith("$") or (len(word) > 1 and word[0] in "btlr" and word[1].isdigit())


class BoardClient:
    """One connection to a board; methods may be called from one thread at a time
    (a lock serialises them); telemetry is delivered from the reader thread."""

    def __init__(self, port: str, model, baud: int | None = None, timeout: float = 1.0) -> None:
        self.model = model
        self.timeout = timeout
        self.latest_telemetry: dict | None = None
        self.on_telemetry: Callable[[dict], None] | None = None
        # called from the reader thread with every `fr`/`ev` line, in wire order
        self.on_stream: Callable[[str], None] | None = None
        self.info: dict = {}
        # set once by the reader thread when the link fails; raised by every later call
        self.link_error: BoardLinkLost | None = None
        self._defs = {p.name: p for p in model.PARAMS}
        self._names = frozenset(c[0] for c in getattr(model, "COMMANDS", ()))
        self._scale = 1 << model.FRAC_BITS
        self.reply_lines = replies.reply_lines(model)
        baud = baud or model.BAUD
        # a long reply (`dump` of a full flock) may take the time its bytes need at the baud rate
        self.reply_time = self.reply_lines * replies.row_bytes(model) * 10 / baud
        self._lock = threading.Lock()
        self._replies: queue.Queue = queue.Queue()
        self._waiting = False  # a command waits for its reply: only then are reply lines queued
        self._closed = threading.Event()
        # write_timeout: a board that stops reading (its input buffer full) makes
        # a command time out instead of blocking the caller for ever
        self._ser = serial.Serial(port, baudrate=baud, timeout=0.05, write_timeout=timeout)
        self._reader = threading.Thread(target=self._read_loop, name=f"board-reader {port}", daemon=True)
        self._reader.start()
        try:
            self.info = self._handshake()
        except BaseException:
            self.close()
            raise
        if self.info.get("hash") != model.SPEC_HASH:
            warnings.warn(
                f"{port}: the board runs spec '{self.info.get('spec')}' hash {self.info.get('hash')}, "
                f"the local model is '{model.SPEC_NAME}' hash {model.SPEC_HASH}; regenerate and reflash",
                SpecMismatchWarning, stacklevel=2)
        self._add_typed_setters()

    # ---- connection ----
    def fileno(self) -> int:
        """The open port's file descriptor (the GUI asks it which device it opened)."""
        return self._ser.fileno()

    def close(self) -> None:
        self._closed.set()
        try:
            self._ser.close()
        except (OSError, serial.SerialException):
            pass
        if self._reader.is_alive() and self._reader is not threading.current_thread():
            self._reader.join(timeout=1.0)

    def __enter__(self) -> "BoardClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def check(self) -> None:
        """Raise the link's failure (BoardLinkLost), if the reader met one."""
        if self.link_error is not None:
            raise self.link_error

    def _fail(self, error: BoardLinkLost) -> None:
        if self.link_error is None and not self._closed.is_set():
            self.link_error = error
            self._replies.put(_WAKE)

    def _read_loop(self) -> None:
        lines = LineSplitter()
        while not self._closed.is_set():
            try:
                chunk = self._ser.read(min(_READ_MAX, max(1, self._ser.in_waiting)))
            except (OSError, TypeError, AttributeError, serial.SerialException) as e:
                self._fail(BoardLinkLost(f"port failed: {e}"))
                return
            if not chunk:
                continue
            done, too_long = lines.feed(chunk)
            try:
                for raw in done:
                    self._route(raw.decode("ascii", "replace").strip("\r"))
            except Exception as e:  # a bug in a callback: the caller hears of it, the reader goes on
                self._fail(BoardLinkLost(f"the reader's handler failed: {e!r}"))
            if too_long:  # a line was lost: no reply or lockstep can be trusted after it
                self._fail(BoardReplyError(f"the board sent {too_long}"))

    def _route(self, line: str) -> None:
        if line.startswith(("fr ", "ev ")):
            cb = self.on_stream
            if cb is not None:
                cb(line)
            return
        tm = parse_telemetry(line)
        if tm is None:
            if self._waiting:  # nobody asked: dropped (a flood cannot fill memory)
                self._replies.put(line)
            return
        self.latest_telemetry = tm
        cb = self.on_telemetry
        if cb is not None:
            try:
                cb(tm)
            except Exception as e:  # a bad callback must not kill the reader
                warnings.warn(f"on_telemetry raised {e!r}", RuntimeWarning)

    # ---- commands ----
    def command(self, line: str) -> list[str]:
        """Send one command line; the reply lines (any `param` lines, then the
        `ok` line). Raises BoardError(reason) on `err`, BoardTimeout when no
        reply line comes within the timeout (a long reply may take
        `reply_time` more, its lines each within the timeout),
        BoardReplyError when it has more than `reply_lines` lines,
        BoardLinkLost once the link failed."""
        if "\r" in line or "\n" in line or not line.strip():
            raise ValueError(f"one non-blank command line expected, got {line!r}")
        first = line.split()[0]
        if (self._names and first not in self._names and not _course_form(first)
                and len(line) < getattr(self.model, "LINE_MAX", 64)):
            # the board would answer the same: its table is the model's COMMANDS
            raise BoardError(f"unknown command '{first}' (try: help)")
        data = line.encode("ascii") + b"\n"
        with self._lock:
            self.check()
            self._drain()
            self._waiting = True
            try:
                self._send(data, line)
                return self._collect(line)
            finally:
                self._waiting = False

    def _collect(self, line: str) -> list[str]:
        got: list[str] = []
        start = time.monotonic()
        last_end = start + self.timeout + self.reply_time
        deadline = start + self.timeout
        while True:
            item = self._next(deadline, f"the reply to '{line}' stopped after {len(got)} lines (each may take "
                                        f"{self.timeout} s, all {self.timeout + self.reply_time:.1f} s)" if got else
                              f"no reply to '{line}' within {self.timeout} s")
            if item in (line, "^U", ""):  # the board's echo of what we typed, when echo is on
                continue
            if item == "ok" or item.startswith("ok "):
                got.append(item)
                return got
            if item == "err" or item.startswith("err "):
                raise BoardError(item[4:])
            got.append(item)
            if len(got) >= self.reply_lines:
                raise BoardReplyError(f"more than {self.reply_lines} lines in reply to '{line}', "
                                      f"the last {shown(item)}")
            deadline = min(time.monotonic() + self.timeout, last_end)  # the next line of a long reply

    def _next(self, deadline: float, late: str) -> str:
        """The next reply line before `deadline` (BoardTimeout(late) after it)."""
        try:
            item = self._replies.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            self.check()
            raise BoardTimeout(late) from None
        if item is _WAKE:
            self.check()
        return item

    def tell(self, line: str) -> None:
        """Send a command without waiting for its reply: the best a caller can
        do once the link failed (its reader is gone, its port may still take
        bytes). Errors are BoardTimeout / BoardLinkLost from the write."""
        with self._lock:
            self._send(line.encode("ascii") + b"\n", line)

    def _send(self, data: bytes, what: str) -> None:
        try:
            self._ser.write(data)
        except serial.SerialTimeoutException:
            raise BoardTimeout(f"could not send '{what}' within {self.timeout} s (the board is not reading)") from None
        except (OSError, serial.SerialException) as e:
            raise BoardLinkLost(f"cannot write to the port: {e}") from e

    def _drain(self) -> None:
        """Forget lines nobody asked for (a reply that came after its timeout)."""
        while True:
            try:
                self._replies.get_nowait()
            except queue.Empty:
                return

    def _reply(self, line: str, parse, *args, whole_reply: bool = False):
        """The command's last line, read by `parse` (pysim/board/replies.py):
        a malformed reply is a BoardReplyError naming it."""
        reply = self.command(line)
        try:
            return parse(reply if whole_reply else reply[-1], *args)
        except WireError as e:
            raise BoardReplyError(f"malformed reply to '{line}': {e}") from None

    def _number(self, name: str, raw: int) -> float | int:
        p = self._defs.get(name)
        if p is not None and p.type == "int":
            return raw
        return raw / self._scale

    def set(self, name: str, value) -> float | int:
        """Set a parameter; returns the value the board now holds (exactly
        raw / 2^F for fixed, an int for int parameters)."""
        return self._number(name, self._reply(f"set {name} {value_text(value)}", replies.raw_value, name))

    def get(self, name: str) -> float | int:
        return self._number(name, self._reply(f"get {name}", replies.raw_value, name))

    def params(self) -> dict[str, dict]:
        return self._reply("list", replies.params, self._scale, whole_reply=True)

    def stats(self) -> dict[str, int]:
        return self._reply("stats", replies.stats)

    def set_count(self, n: int) -> int:
        return self._reply(f"boids {int(n)}", replies.count, self.model.CAPACITY)

    def reset(self, seed: int | None = None) -> int:
        """Restart the flock (same size, same parameters); returns the seed used."""
        return self._reply("reset" if seed is None else f"reset {int(seed)}", replies.seed)

    def pause(self) -> None:
        self.command("pause")

    def resume(self) -> None:
        self.command("resume")

    def telemetry(self, on: bool) -> None:
        self.command("telemetry on" if on else "telemetry off")

    def watch(self, on: bool | None, every: int = 1) -> int:
        """Lockstep lines on or off (None: as they are); returns the board's frame now."""
        return self._reply("watch" if on is None else f"watch on {int(every)}" if on else "watch off",
                           replies.frame)

    def watching(self) -> bool:
        """Whether the board's `watch` is on (asked without changing it)."""
        return self.command("watch")[-1].startswith("ok watch on")

    def dump(self) -> list[str]:
        """The board's state now as trace rows (the last is the PRNG's)."""
        return self.command("dump")[:-1]

    def commands(self) -> tuple:
        """The firmware's command table (codegen/model/serial_commands.py), as the model has it."""
        return self.model.COMMANDS

    # ---- construction helpers ----
    def _handshake(self) -> dict:
        """Drop any half line the board holds, ask `info`, and skip whatever a
        previous session left in the pipe until the info line arrives."""
        with self._lock:
            self._waiting = True
            try:
                self._send(_LINE_KILL + b"info\n", "info")
                deadline = time.monotonic() + self.timeout
                while True:
                    item = self._next(deadline, f"no reply to 'info' within {self.timeout} s")
                    if item.startswith("ok info "):
                        return self._parse_info(item)
            finally:
                self._waiting = False

    @staticmethod
    def _parse_info(line: str) -> dict:
        info: dict = dict(_fields(line.split()[2:]))
        for k in _INT_INFO_FIELDS:
            if k in info and info[k].isdigit():
                info[k] = int(info[k])
        return info

    def _add_typed_setters(self) -> None:
        for p in self.model.PARAMS:
            attr = f"set_{p.name}"
            # A parameter named like a method (e.g. 'count') keeps only set(name, v).
            if not p.tunable or hasattr(type(self), attr):
                continue

            def setter(value, _name=p.name):
                return self.set(_name, value)

            setter.__name__ = attr
            setter.__doc__ = f"set {p.name} ({p.unit or 'no unit'}, [{p.min}, {p.max}]): {p.description}"
            setattr(self, attr, setter)

