"""Shared by the typed dice tests: typed dice answering scripted lines, and the prompts asked."""

from __future__ import annotations

from companion.dice import ManualDice


def typed(*lines: str) -> tuple[ManualDice, list[str]]:
    """Typed dice answering ``lines`` in turn, and the prompts they were asked with."""
    answers, prompts = iter(lines), []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    return ManualDice(ask), prompts
