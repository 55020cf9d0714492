"""``genso fight`` verbs that roll nothing (GM-MAGIC-1: a spell has no roll; a move, a dodge,
flight, a wait and the GM's steps none either) say so beside --dice, where ``flee --help``
said "no roll" and "where the dice come from" together (a78gensofight item 7); attack and
stone, which roll, say nothing of it."""

from __future__ import annotations

import pytest

from companion.app.cli import main

NONE = "this verb rolls no dice, so --dice, --seed and --source change nothing"


def _help(capsys: pytest.CaptureFixture[str], verb: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", "200")  # one line each, to find the words whole
    with pytest.raises(SystemExit):
        main(["genso", "fight", verb, "--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("verb", ["cast", "move", "dodge", "flee", "wait", "end", "sunrise",
                                  "sunset", "sleep"])
def test_a_verb_that_rolls_nothing_says_so(verb: str, user_dirs: object,
                                           capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    assert NONE in _help(capsys, verb, monkeypatch)


@pytest.mark.parametrize("verb", ["attack", "stone"])
def test_a_verb_that_rolls_does_not(verb: str, user_dirs: object,
                                    capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    said = _help(capsys, verb, monkeypatch)
    assert "where the dice come from" in said and "rolls no dice" not in said
