"""`coc defaults` lists §0.3's rounding (task coc61): its value, whose it is (the packaged
Default, or set by the user in coc.toml or with --set) and its choices."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.app.cli import main


def rounding_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("§0.3 "))


def test_the_rounding_is_listed_as_a_default(user_dirs: Any,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coc", "defaults"]) == 0
    line = rounding_line(capsys.readouterr().out)
    assert line.split()[:9] == ["§0.3", "rounding", '"down"', "(default)", "one", "of:",
                                "down,", "nearest,", "up"]


def test_set_by_the_user_it_says_so(user_dirs: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coc", "defaults", "--set", "§0.3.rounding=nearest", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["defaults"]
    assert {"rule": "§0.3", "key": "rounding", "value": "nearest", "default": False,
            "choices": ["down", "nearest", "up"]}.items() <= rows[0].items()
    (user_dirs / "config").mkdir(exist_ok=True)
    (user_dirs / "config" / "coc.toml").write_text('[defaults."§0.3"]\nrounding = "up"\n',
                                               encoding="utf-8")
    assert main(["coc", "defaults"]) == 0
    assert '"up"  (set by you)' in rounding_line(capsys.readouterr().out)
