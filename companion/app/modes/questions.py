"""The questions a fight's drastic steps ask first, Back lit: a press too many on a menu
opened with A (a bounce, a double press) goes back instead of taking an action back or
ending the fight (sweep 53: Undo was lit first on the GM's and the Keeper's menus, and
taken at once). Each is a :class:`Question`, guarded against a repeat of the press that
opened it: Yes is drawn where that entry was, and a double tap or a digit typed twice took
it (input audit 63 D1)."""

from __future__ import annotations

from companion.app.session.controls import BACK, Question
from companion.errors import IllegalAction
from companion.hw.display.view import Option

#: Undo's key on a menu: it opens :func:`undo_question`, whose yes is ``undo``.
ASK_UNDO = "undo?"


def undo_question(last: str | None) -> Question:
    """Undo asked again: ``last`` is the action it takes back, in a line (None: nothing
    to take back, refused)."""
    if last is None:
        raise IllegalAction("nothing to undo 取り消す行動がない")
    return Question(f"Undo {last}? 取り消す？ (its dice are thrown again ダイスは振り直し)",
                    (BACK, Option("undo", "Yes, undo はい、取り消す")))


def sure(prompt: str, key: str, yes: str) -> Question:
    """Another drastic step asked again: ``key`` is its yes, labelled ``yes``."""
    return Question(prompt, (BACK, Option(key, yes)))
