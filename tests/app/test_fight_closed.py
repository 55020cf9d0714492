"""A genso fight over and closed at the table, then the boot service's ``play --resume``
(buttons-only audit F2): the closed fight's "fight is over" menu came back after every
Close. The table waits for the next fight instead, says how it is made, and takes it up."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.test_dice_tray import Terminal
from tests.app.test_genso_mode import PC1, PC2, SEED, genso_table_in_a_terminal

CLOSED = "The fight is over and closed"
OVER = "The fight is over 戦闘終了:"  # its menu, with Close


def test_a_closed_fight_waits_for_the_next_and_takes_it_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fight, first = genso_table_in_a_terminal(tmp_path, monkeypatch,
                                             ["--dice", "sim", "--seed", str(SEED)])
    first.answer(f"{PC1} PC 1: what now", 1, b"a")
    first.answer("Attack whom", 1, b"a")
    first.answer("With which weapon", 1, b"a")
    first.answer(f"{PC2} PC 2: what now", 1, b"8")  # her Spell makes GM the 8th
    first.answer("GM: which step", 1, b"2")  # the GM ends the fight
    first.answer("End the fight", 1, b"2")  # asked first: Yes is the 2nd
    first.answer(OVER, 1, b"a")  # Close
    assert first.finish() == 0
    closed = fight.read_bytes()

    again = Terminal(["--mode", "genso", "--fight", str(fight), "--dice", "sim", "--resume",
                      "--display", "terminal", "--choices", "keyboard"], first.env)
    again.answer(CLOSED, 1, b"")  # nothing to play: no "fight is over" menu again
    assert "companion genso fight new" in again.text() and fight.read_bytes() == closed
    assert OVER not in again.text()
    # The GM makes the next fight on a computer, which the waiting table's hold of the
    # fight file does not refuse: the table takes it up.
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:1",
                 "--file", str(fight), "--force"]) == 0
    again.answer(f"{PC1} PC: what now", 1, b"7")  # GM (one PC, no spell: the 7th)
    again.answer("GM: which step", 1, b"2")
    again.answer("End the fight", 1, b"2")  # asked first: Yes is the 2nd
    again.answer(OVER, 1, b"a")  # the next fight's own end, closed in its turn
    assert again.finish() == 0


def test_quit_leaves_the_closed_table_waiting(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    fight, first = genso_table_in_a_terminal(tmp_path, monkeypatch, ["--dice", "sim"])
    first.answer(f"{PC1} PC 1: what now", 1, b"7")  # GM
    first.answer("GM: which step", 1, b"2")
    first.answer("End the fight", 1, b"2")  # asked first: Yes is the 2nd
    first.answer(OVER, 1, b"a")
    assert first.finish() == 0
    again = Terminal(["--mode", "genso", "--fight", str(fight), "--dice", "sim", "--resume",
                      "--display", "terminal", "--choices", "keyboard"], first.env)
    again.answer(CLOSED, 1, b"b")
    assert again.finish() == 0
