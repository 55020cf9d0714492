"""A disk or folder that refuses a file's writes, or one that keeps each write as it lands,
at the world's edge: ``os.replace``, as every file the companion keeps is written beside
its place and renamed into it (companion/files.py)."""

from __future__ import annotations

import errno
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

import companion.files

NO_SPACE = os.strerror(errno.ENOSPC)
READ_ONLY = os.strerror(errno.EROFS)


def refuse_writes(path: Path, monkeypatch: pytest.MonkeyPatch, failing: range | None = None,
                  code: int = errno.ENOSPC) -> None:
    """The disk refuses the writes of ``path`` numbered ``failing`` (1 is the first; None:
    every one) with ``code`` (a full disk; EROFS, a folder mounted read-only); every other
    file is written."""
    real, target = os.replace, path.resolve()
    writes = 0

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        nonlocal writes
        if Path(dst).resolve() == target:
            writes += 1
            if failing is None or writes in failing:
                raise OSError(code, os.strerror(code))
        real(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", replace)


def refuse_moving(path: Path, monkeypatch: pytest.MonkeyPatch,
                  code: int = errno.EROFS) -> None:
    """The folder of ``path`` lets it not be renamed away (kept aside), with ``code`` (EROFS:
    mounted read-only; EACCES: not the player's); every other rename goes."""
    real, source = os.replace, path.resolve()

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        if Path(src).resolve() == source:
            raise OSError(code, os.strerror(code), str(src))
        real(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", replace)


def record_writes(path: Path, monkeypatch: pytest.MonkeyPatch
                  ) -> list[tuple[bytes, os.stat_result]]:
    """Each write of ``path`` as it landed on disk, in order: its bytes and its stat, for a
    test that puts an earlier write back as a power cut would. Every write goes through."""
    real, target = os.replace, path.resolve()
    written: list[tuple[bytes, os.stat_result]] = []

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        real(src, dst, **kwargs)
        if Path(dst).resolve() == target:
            written.append((target.read_bytes(), target.stat()))

    monkeypatch.setattr(os, "replace", replace)
    return written


def left_by_a_cut(path: Path, data: bytes,
                  monkeypatch: pytest.MonkeyPatch | None = None) -> Path:
    """The temporary file a write of ``path`` cut by a power cut left beside it, holding
    ``data``, 30 s old: the Pi powered again just after. ``monkeypatch``: the run that finds
    it is this test process, which began minutes before in a whole suite's run, so its
    start is set to 5 s ago (a subprocess's own start is after the cut)."""
    left = path.parent / f".{path.name}.k3j9x2.tmp"
    left.write_bytes(data)
    cut = time.time() - 30
    os.utime(left, (cut, cut))
    if monkeypatch is not None:
        monkeypatch.setattr(companion.files, "_STARTED", time.time() - 5)
    return left


def without_root_override() -> list[str]:
    """The command prefix that makes a read-only folder read-only to this user: root ignores
    file modes unless it drops that capability."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only folder is not read-only")
    return [setpriv, "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search", "--"]
