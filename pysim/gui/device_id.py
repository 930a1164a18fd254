"""Which device a serial port's path names, so that the window's reconnect
opens only the device it first connected to (pysim/gui/board_link.py).

A pty's number is reused as soon as it is freed: /dev/pts/3 may next be a
user's shell, with the same device number and even the same inode (devpts
numbers inodes by index). What tells two of them apart is the node's
change time, set when devpts creates it. A USB adapter plugged in again is
a new node too; it is adopted only if the board behind it answers `info`
with the spec name and hash the first board did (board_link.py).
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass

PTY_MAJORS = range(136, 144)  # Unix98 pty slaves (Documentation/admin-guide/devices.txt)


@dataclass(frozen=True)
class DeviceId:
    dev: int
    ino: int
    rdev: int
    ctime_ns: int  # the node's birth on devpts and devtmpfs

    @property
    def is_pty(self) -> bool:
        return os.major(self.rdev) in PTY_MAJORS

    def describe(self) -> str:
        kind = "pseudo-terminal" if self.is_pty else "device"
        return f"{kind} {os.major(self.rdev)}:{os.minor(self.rdev)}"


class NotADevice(OSError):
    """The path is missing or is not a character device."""


def device_id(path: str) -> DeviceId:
    """The identity of the character device `path` names (through symlinks)."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise NotADevice(f"{path}: {e.strerror or e}") from None
    return _from_stat(path, st)


def fd_device_id(path: str, fd: int) -> DeviceId:
    """The identity of the device an open descriptor refers to."""
    return _from_stat(path, os.fstat(fd))


def _from_stat(path: str, st: os.stat_result) -> DeviceId:
    if not stat.S_ISCHR(st.st_mode):
        raise NotADevice(f"{path} is not a serial device (not a character device)")
    return DeviceId(st.st_dev, st.st_ino, st.st_rdev, st.st_ctime_ns)
