"""One TOML value formatter for the messages of the app and the systems (reviewe68 NIT 4).

``companion.app.config.toml_value`` wrote a value as a TOML file writes it (``true``,
``"3"``, ``[1, 2]``); the systems, which may not import the app, had partial copies that
fell back to Python's repr for lists, tables and dates (a list file's ``level = [true]``
read "found [True]"), or used repr outright (``events --set EV-CORE-1.dm_level=true``
read "found True"). It now lives in :mod:`companion.systems.defaults`, which every
system may import, and the app's config re-exports it.
"""

from __future__ import annotations

import datetime
import re

import pytest

from companion.app import camera_settings, config
from companion.app.cli import main
from companion.errors import DataError
from companion.hw.camera.reader import ReaderSettings
from companion.systems.defaults import toml_value
from companion.systems.events.lists import load_lists
from companion.systems.events.rules import load_rules


def test_the_app_s_is_the_systems_one() -> None:
    assert config.toml_value is toml_value


@pytest.mark.parametrize(("value", "written"), [
    (True, "true"), ("3", '"3"'), ([1, True], "[1, true]"), ({"a": 1}, "{ a = 1 }"),
    ({"a b": [False]}, '{ "a b" = [false] }'), (datetime.date(2024, 1, 1), "2024-01-01"),
    (float("inf"), "inf"), ("\x7f", '"\\u007f"'),
])
def test_values_are_written_as_toml_writes_them(value: object, written: str) -> None:
    assert toml_value(value) == written


@pytest.mark.parametrize(("text", "wrong"), [
    ("monster = [[1, true]]\n", "monster 1: must be a [[monster]] table, found [1, true]"),
    ("[[monster]]\nname = 'A'\nlevel = [true]\n",
     "monster 1 (A): level must be a whole number of 1 or more, found [true]"),
    ("[[monster]]\nname = 'A'\nlevel = {a = 1}\n",
     "monster 1 (A): level must be a whole number of 1 or more, found { a = 1 }"),
    ("[[monster]]\nname = 'A'\nlevel = 2024-01-01\n",
     "monster 1 (A): level must be a whole number of 1 or more, found 2024-01-01"),
])
def test_a_list_file_s_list_table_or_date_is_shown_as_written(text: str, wrong: str) -> None:
    """The reviewer's repro: lists.py's own copy gave [1, True], {'a': 1} and
    datetime.date(2024, 1, 1)."""
    with pytest.raises(DataError, match=re.escape(wrong) + "$"):
        load_lists(text, "lists.toml")


def test_an_events_override_of_true_is_shown_as_toml_writes_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["events", "monster", "--set", "EV-CORE-1.dm_level=true"]) == 2
    assert "--set: EV-CORE-1.dm_level must be a whole number, found true" \
        in capsys.readouterr().err


def test_a_default_s_refusal_quotes_text_as_toml_does() -> None:
    """The Defaults' refusals (every system's) quote text as TOML does, as the app's
    config always did ('found "5"'), not as Python does ("found '5'")."""
    with pytest.raises(DataError, match=re.escape(
            'EV-CORE-4.rounding must be one of down, up, nearest, toward_zero; '
            'found "sideways"')):
        load_rules().with_overrides({"EV-CORE-4": {"rounding": "sideways"}}, "--set")


def test_camera_toml_s_reader_values_are_shown_as_written() -> None:
    """camera_settings' own copy gave Python's [True]."""
    with pytest.raises(ValueError, match=re.escape(
            "(the frames that must agree), found [true]")):
        camera_settings.read_settings('source = "render:"\n[reader]\nstable_frames = [true]\n',
                                      ReaderSettings(4, 0.75))
