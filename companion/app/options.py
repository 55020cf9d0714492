"""Options of a command that go with some of its choices only (``events --who`` with the
poison and trap tables, ``genso check --vs`` with an opposed check), refused with any other
before anything runs: given there, they were dropped without a word."""

from __future__ import annotations

import argparse

from companion.errors import DataError

#: Each option (its ``dest``): the choices it goes with, and how an error names them.
OnlyWith = dict[str, tuple[tuple[str, ...], str]]


def refuse_stray_options(args: argparse.Namespace, chosen: str, only_with: OnlyWith) -> None:
    """DataError for an option given (not None, not a flag left off) with ``chosen``, a
    choice it does not go with in ``only_with``."""
    for option, (choices, named) in only_with.items():
        given = getattr(args, option)
        if given is not None and given is not False and chosen not in choices:
            raise DataError(f"--{option.replace('_', '-')} goes with {named}, not {chosen}")
