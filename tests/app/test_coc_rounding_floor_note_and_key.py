"""The §0.3 rounding: BCDice's floor in `coc roll`, its note and its key in help and coc.toml.

fix61a (review61a R5, N7, N8): `coc roll`'s BCDice commands keep BCDice's floor whatever
§0.3.rounding says; `coc defaults` says the setting's words in Japanese and what it leaves;
§0.3 is named in `coc defaults --help`, and coc.toml's unquoted `[defaults.§0.3]` is
refused with how to write it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main


def test_coc_roll_keeps_bcdices_special_under_any_rounding(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R5: seed 32's 10 against CCB<=48 is BCDice's 成功 (special ≤ 9, floor of 9.6); under
    --set §0.3.rounding=up it was スペシャル."""
    for how in ("down", "nearest", "up"):
        assert main(["coc", "roll", "--seed", "32", "--set", f"§0.3.rounding={how}",
                     "CCB<=48"]) == 0
        assert capsys.readouterr().out.startswith("(1D100<=48) ＞ 10 ＞ 成功/success")


def test_coc_defaults_says_the_roundings_japanese_and_what_it_leaves(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """N7: `one of: down, nearest, up` had no 切り捨て/四捨五入/切り上げ beside it."""
    assert main(["coc", "defaults", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["defaults"][0]
    assert row["rule"] == "§0.3" and row["note"] == (
        "down 切り捨て, nearest 四捨五入, up 切り上げ: each share whose rule names no rounding "
        "of its own; BCDice's CC, CCB, RES… in coc roll round down always")
    assert main(["coc", "defaults"]) == 0
    assert "(down 切り捨て, nearest 四捨五入, up 切り上げ: " in capsys.readouterr().out


def test_the_help_names_the_key_and_an_unquoted_one_is_explained(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """N8: nothing said §0.3's key, and `[defaults.§0.3]` gave tomllib's "Invalid initial
    character for a key part" alone."""
    with pytest.raises(SystemExit):
        main(["coc", "defaults", "--help"])
    page = capsys.readouterr().out
    assert "--set §0.3.rounding=nearest" in page and '[defaults."§0.3"]' in page
    config = user_dirs / "config"
    config.mkdir()
    (config / "coc.toml").write_text('[defaults.§0.3]\nrounding = "up"\n', encoding="utf-8")
    assert main(["coc", "defaults"]) == 2
    refused = capsys.readouterr().err
    assert f"{config / 'coc.toml'}: not TOML (" in refused
    assert refused.rstrip().endswith(
        'TOML takes no § in a bare key; quote it, [defaults."§0.3"]')
    (config / "coc.toml").write_text('[defaults."§0.3"]\nrounding = "up"\n', encoding="utf-8")
    assert main(["coc", "defaults"]) == 0
    assert '"up"  (set by you)' in capsys.readouterr().out
