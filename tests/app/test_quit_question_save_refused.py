"""The Quit to console question (System menu) with the save refused says the steps not saved
are lost, in English and Japanese, and where the reason is (the status line under it, as
under the menu's heading); with all saved it says nothing of it (reviews66 NIT 6, NIT 7)."""

from __future__ import annotations

from typing import Any

from companion.app.session.controls import Controls
from companion.app.session.system_menu import SystemMenu
from companion.hw.buttons import Pick, Press

SERVICE = "jongrogue-companion.service"


class _No:
    """Answers every question with its first option (No, back)."""

    def __init__(self) -> None:
        self.pending: list[Press] = []

    def poll(self) -> list[Press]:
        out, self.pending = self.pending, []
        return out


def _question(unsaved: str) -> str:
    player = _No()
    asked: list[str] = []

    def show(prompt: str, **kwargs: Any) -> None:
        if kwargs.get("options"):
            asked.append(prompt)
            player.pending.append(Pick(0))

    ticks = iter(range(0, 10**6, 30))
    menu = SystemMenu(Controls([player]), "game", 0.0, "", sleep=lambda _: None,
                      clock=lambda: float(next(ticks)), service=SERVICE)
    menu.to_console(show, unsaved)
    assert len(asked) == 1
    return asked[0]


def test_with_the_save_refused_the_question_says_the_steps_not_saved_are_lost() -> None:
    question = _question("保存できません cannot save: disk full 空き容量なし")
    assert question.startswith("Steps NOT saved (see below) are lost 未保存の手は失われます. "
                               "Quit to the console? コンソールに戻りますか？")
    assert "disk full" not in question  # the reason is the status line's, under it
    assert f"sudo systemctl start {SERVICE}" in question


def test_with_all_saved_the_question_says_nothing_of_it() -> None:
    question = _question("")
    assert question.startswith("Quit to the console? コンソールに戻りますか？")
    assert "saved" not in question.lower() and "lost" not in question
