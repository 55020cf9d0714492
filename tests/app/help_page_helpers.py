"""Every help page of the companion's commands (the help-page tests; tidy72c: no test module
imports another)."""

from __future__ import annotations

import argparse

from companion.app.cli import COMMAND_MODULES, build_parser


def help_pages() -> list[tuple[str, argparse.ArgumentParser]]:
    """`companion --help` and every command's and sub-command's page, by command line."""
    def walk(parser: argparse.ArgumentParser,
             words: str) -> list[tuple[str, argparse.ArgumentParser]]:
        pages = [(words, parser)]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    pages += walk(sub, f"{words} {name}")
        return pages

    pages = [("companion", build_parser())]
    for command in COMMAND_MODULES:
        chosen = next(action for action in build_parser(command)._actions
                      if isinstance(action, argparse._SubParsersAction)).choices[command]
        pages += walk(chosen, f"companion {command}")
    return pages
