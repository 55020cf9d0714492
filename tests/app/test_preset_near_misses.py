"""setup71 NIT 6: a misspelt EZ Plus option in a preset (ez+drop) is offered its near miss
(drops), in config.toml, --set and every command's --preset; a whole word near one option
alone (sleep_check) is offered ez with it on."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.config import load_config
from companion.app.paths import config_dir

OPTIONS = ("the options are sleep_check, extended_states, strength, pc_states, drops, "
           "pincer")


def test_config_toml_offers_the_option_meant() -> None:
    config_dir().mkdir(parents=True, exist_ok=True)
    path = config_dir() / "config.toml"
    path.write_text('[game]\npreset = "ez+drop+picner"\n')
    assert load_config(env={}).notices == (
        f"{path}: game.preset: preset 'ez+drop+picner': 'drop' is not an EZ Plus option; "
        f"{OPTIONS} (did you mean \"drops\"?); using the default \"plus\"",)


def test_set_offers_ez_with_the_one_option_named_alone(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "--set", "game.preset=sleep_check"]) == 2
    assert capsys.readouterr().err.endswith(' (did you mean "ez+sleep_check"?)\n')


@pytest.mark.parametrize("command", [["play", "--headless"], ["simulate", "--games", "1"],
                                     ["rules", "sleep"]])
@pytest.mark.parametrize(("preset", "meant"), [("ez+drop", "drops"),
                                               ("Drops+EZ+Pincr", "pincer"),
                                               ("pluss", "plus"), ("drops", "ez+drops")])
def test_every_preset_option_offers_the_word_meant(
        command: list[str], preset: str, meant: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--preset", preset])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(f' (did you mean "{meant}"?)\n')
    assert err.count("did you mean") == 1
