"""The one rule for every path boidsgen writes or reads in a project.

Writes go only into the spec's own folders: generated/<name>/ and
build/<name>/ under its project root (codegen/spec/project.py), or a folder the
user named (`generate -o DIR`) or a temporary one the tool made. Never
through a symbolic link out of them: between the project root and the
folder no component may be a link, and nothing inside the folder may link
out of it (a link to another project's output, to /dev/zero, to a home
folder). Such a folder is refused with one line naming the link
(OutputError: exit 2), before anything is written.

Reads of generated or project files go through pysim/bounded_read.py:
regular files of bounded size only.

Removing goes through remove_tree and remove_file: a link there is refused,
naming it, never followed nor removed in its target's stead.

Public, for every writer (pipeline, build, parity's variants, experiment
--out): check_folder, claim_folder, prepare_folder, remove_tree,
remove_file; for readers: read_text, existing_text.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from pysim.bounded_read import MAX_FILE_BYTES, UnreadableFile, read_text_bounded
from pysim.one_line import one_line


class OutputError(Exception):
    """The output folder cannot be used (exit status 2, nothing written).
    Always one line: the paths it names are shown escaped (one_line), so a
    folder called "x\nspec/boids.yaml:1:1: ..." cannot print a forged line."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


def _abs(p: str | Path) -> Path:
    """p made absolute without resolving links (they are what we check)."""
    return Path(os.path.abspath(p))


def _inside(p: Path, folder: Path) -> bool:
    return p == folder or folder in p.parents


def _link_text(link: Path) -> str:
    try:
        return os.readlink(link)
    except OSError:
        return "?"


def link_on_the_way(root: Path, folder: Path) -> Path | None:
    """The first symbolic link among folder and its parents below root, or None."""
    rel = folder.relative_to(root)
    p = root
    for part in rel.parts:
        p = p / part
        if p.is_symlink():
            return p
    return None


def link_leaving(folder: Path) -> Path | None:
    """The first symbolic link inside folder (walked without following links)
    whose target is outside folder, or None. A link inside that stays inside
    is left alone; nothing that walks the folder follows it."""
    real = folder.resolve()
    for top, dirs, files in os.walk(folder, followlinks=False):
        for name in sorted(dirs + files):
            p = Path(top) / name
            if p.is_symlink() and not _inside(_target(p), real):
                return p
    return None


def _target(link: Path) -> Path:
    """Where a link leads; a link that cannot be followed (a loop, a
    folder we may not enter) counts as leading nowhere we write: out."""
    try:
        return link.resolve()
    except (OSError, RuntimeError):
        return Path("/")


def _refuse_link(link: Path, folder: Path) -> OutputError:
    return OutputError(f"{link} is a symbolic link (to {_link_text(link)}) out of {folder}: boidsgen writes only "
                       "inside its own folders, never through a link; remove the link")


def check_folder(folder: str | Path, root: str | Path | None = None) -> Path:
    """The folder to write into, as an absolute path, after the rule above:
    inside `root` (the project) no link on the way down to it; anywhere, no
    link inside it out of it. A folder outside root (or with root None) is
    one the user or the tool named: taken as it resolves. OutputError
    otherwise, naming the link."""
    folder = _on_the_way(folder, root)
    if folder.is_dir():
        link = link_leaving(folder)
        if link is not None:
            raise _refuse_link(link, folder)
    return folder


def _on_the_way(folder: str | Path, root: str | Path | None) -> Path:
    """check_folder's first half, which walks nothing: the folder as an
    absolute path, refused if a link leads to it inside the project."""
    folder = _abs(folder)
    if root is not None and _inside(folder, _abs(root)):
        link = link_on_the_way(_abs(root), folder)
        if link is not None:
            raise OutputError(f"{link} is a symbolic link (to {_link_text(link)}): boidsgen writes only into the "
                              f"project's own folders, never through a link; remove the link")
        return folder
    return folder.resolve()


def claim_folder(folder: str | Path, marker: str, root: str | Path | None = None,
                 what: str = "a boidsgen output folder") -> Path | None:
    """Refuse a folder that is not ours to write: a file, one that check_folder
    refuses, or a non-empty folder without `marker` (a path relative to it,
    the file our own output always has). Returns the marker's path when the
    folder holds one (the caller reads it with read_text, which refuses one
    that is not a regular file of sane size), None when the folder
    is missing or empty. Used by generate (marker firmware/boids_config.h) and
    meant for experiment --out (its metadata file)."""
    folder = _abs(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder} is a file, not a folder")
    folder = _on_the_way(folder, root)
    # whose folder it is, before it is walked for links: `--out /` is refused at once, not searched
    try:
        empty = not folder.is_dir() or not any(folder.iterdir())
    except OSError as e:
        raise OutputError(f"{folder}: cannot list it ({e.strerror}); choose an empty or new folder") from None
    mark = folder / marker
    if not empty and not mark.exists() and not mark.is_symlink():  # one there but odd: read_text says what it is
        raise OutputError(f"{folder} exists and is not {what} (no {marker}); choose an empty or new folder")
    folder = check_folder(folder, root)
    return None if empty else folder / marker


def prepare_folder(folder: str | Path, root: str | Path | None = None) -> Path:
    """check_folder, then create it (and its parents) if missing: a folder
    other tools (make, the host firmware) then write into."""
    folder = check_folder(folder, root)
    folder.mkdir(parents=True, exist_ok=True)
    return check_folder(folder, root)  # a link that appeared while creating it


def _refuse_removing(path: Path) -> OutputError:
    return OutputError(f"{path} is a symbolic link (to {_link_text(path)}): boidsgen removes only its own files "
                       "and folders, never through a link; remove the link")


def remove_tree(folder: str | Path) -> None:
    """Remove a folder boidsgen made, with everything in it; a link there (to a
    folder or not) is refused with one line naming it. Links inside are removed
    as links (shutil.rmtree never follows them)."""
    folder = _abs(folder)
    if folder.is_symlink():
        raise _refuse_removing(folder)
    if folder.is_dir():
        shutil.rmtree(folder)
    elif folder.exists():  # a file (or a FIFO) where the folder should be: it goes too
        folder.unlink()


def remove_file(path: str | Path) -> None:
    """Remove a file boidsgen wrote, if it is there; a link there is refused, naming it."""
    path = _abs(path)
    if path.is_symlink():
        raise _refuse_removing(path)
    path.unlink(missing_ok=True)


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """A generated or project file's text: a regular file of at most `limit`
    bytes (pysim/bounded_read.py), else OutputError naming it.
    FileNotFoundError passes through."""
    try:
        return read_text_bounded(path, limit)
    except UnreadableFile as e:
        raise OutputError(str(e)) from None


def existing_text(path: str | Path) -> str | None:
    """An output file's text to compare with a fresh render: None when it is
    missing or not a regular UTF-8 file of sane size (it then differs)."""
    try:
        return read_text(path)
    except (OSError, OutputError):
        return None
