"""a77gensotown NIT 8: a change of a preset (`rest pc1 2`) is refused with commands that
work: save it as pc1.toml (`--save-as FILE` was refused, a sheet is read back from a .toml
file only), then give pc1.toml in its place (pc1 given again named the preset still)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main


def test_the_preset_refusal_gives_commands_that_work(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["genso", "rest", "pc1", "2"]) == 2
    err = capsys.readouterr().err
    hints = [shlex.split(h) for h in re.findall(r"`([^`]+)`", err)]
    assert len(hints) == 2, err
    save, give = (h[h.index("genso"):] for h in hints)
    assert save == ["genso", "sheet", "pc1", "--save-as", "pc1.toml"]
    assert give == ["genso", "rest", "pc1.toml", "…"]
    assert "then give pc1.toml in its place" in err
    assert main(save) == 0
    capsys.readouterr()
    assert main([*give[:-1], "2"]) == 0
    assert "GM-HEAL-1 2 days' rest" in capsys.readouterr().out
    # Typed in another case, the preset's own key is named, as its file.
    assert main(["genso", "buy", "PC1", "torch"]) == 2
    err = capsys.readouterr().err
    assert "genso sheet pc1 --save-as pc1.toml`, then give pc1.toml in its place" in err
    assert "genso buy pc1.toml …`" in err
