"""companion.files against damaged input: files nested thousands deep, links to nothing,
links that lead back to themselves. Each is a clear error naming the file, not a traceback
and not "no file" (fuzz audit findings 4, 7 and 8)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.file_locks import holding, lock_path
from companion.files import atomic_write_text, file_there, loads_json, loads_toml, parse_user_toml

DEEP = 3000  # brackets: far past Python's stack at one parser call a level


def test_toml_nested_too_deeply_is_malformed_toml_not_a_recursion_error() -> None:
    with pytest.raises(tomllib.TOMLDecodeError, match="nested too deeply"):
        loads_toml("v = " + "[" * DEEP + "]" * DEEP)
    with pytest.raises(tomllib.TOMLDecodeError, match="nested too deeply"):
        parse_user_toml(("v = " + "[" * DEEP + "]" * DEEP).encode())
    assert loads_toml("v = [[1]]") == {"v": [[1]]}


def test_json_nested_too_deeply_is_malformed_json_not_a_recursion_error() -> None:
    with pytest.raises(json.JSONDecodeError) as err:
        loads_json("[" * DEEP + "]" * DEEP)
    assert str(err.value) == err.value.msg == "nested too deeply to read"
    assert loads_json('{"a": [1]}') == {"a": [1]}


def test_a_file_or_nothing_is_told_as_it_is(tmp_path: Path) -> None:
    assert not file_there(tmp_path / "none.toml")
    (tmp_path / "here.toml").write_text("")
    assert file_there(tmp_path / "here.toml")
    (tmp_path / "link.toml").symlink_to(tmp_path / "here.toml")
    assert file_there(tmp_path / "link.toml")


def test_a_link_to_a_file_that_is_gone_is_named_not_taken_as_no_file(tmp_path: Path) -> None:
    link = tmp_path / "coc.toml"
    link.symlink_to("/media/usb/coc.toml")
    with pytest.raises(DataError) as err:
        file_there(link)
    assert f"{link} is a link to /media/usb/coc.toml, which is not there" in str(err.value)


def test_a_link_that_leads_back_to_itself_is_named(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(DataError, match="a symbolic link that leads back to itself") as err:
        file_there(tmp_path / "a")
    assert str(tmp_path / "a") in str(err.value)


def test_holding_or_writing_a_symlink_loop_is_an_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "loop_a").symlink_to("loop_b")
    (tmp_path / "loop_b").symlink_to("loop_a")
    save = tmp_path / "save.json"
    save.symlink_to("loop_a")
    for attempt in (lambda: lock_path(save), lambda: atomic_write_text(save, "{}")):
        with pytest.raises(OSError) as err:
            attempt()
        assert err.value.filename == str(save)
        assert err.value.strerror == "a symbolic link that leads back to itself"
    with pytest.raises(OSError, match="leads back to itself"), holding(save, "a test"):
        pass
