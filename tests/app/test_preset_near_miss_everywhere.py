"""reviews71 NIT 6: a misspelt game.preset is offered the same near miss, by one threshold
and in one quote style (TOML's, as config's notices write values), wherever it is given:
config.toml, COMPANION_GAME_PRESET, ``config --set`` and every command's ``--preset``. A
whole word was matched by difflib's 0.6 on the command line and 0.75 in config (``drop``:
ez+drops for --preset, nothing in config), and quoted 'ez+drops' against "plus"."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.config import load_config
from companion.app.paths import config_dir


def _refusals(preset: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What each place says of ``preset``: config.toml, the environment, --set, and play's,
    simulate's and rules sleep's --preset."""
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "config.toml").write_text(f'[game]\npreset = "{preset}"\n')
    said = [*load_config(env={}).notices]
    (config_dir() / "config.toml").unlink()
    said += load_config(env={"COMPANION_GAME_PRESET": preset}).notices
    assert main(["config", "--set", f"game.preset={preset}"]) == 2
    said.append(capsys.readouterr().err)
    for command in (["play", "--headless"], ["simulate", "--games", "1"], ["rules", "sleep"]):
        with pytest.raises(SystemExit):
            main([*command, "--preset", preset])
        said.append(capsys.readouterr().err)
    return said


@pytest.mark.parametrize(("preset", "meant"), [("drop", "ez+drops"), ("pluss", "plus"),
                                               ("PLSU", "plus"), ("ez+drop", "drops"),
                                               ("sleepcheck", "ez+sleep_check")])
def test_every_place_offers_the_same_near_miss_quoted_alike(
        preset: str, meant: str, capsys: pytest.CaptureFixture[str]) -> None:
    said = _refusals(preset, capsys)
    assert len(said) == 6
    for text in said:
        assert text.count("did you mean") == 1, text
        assert f' (did you mean "{meant}"?)' in text, text


@pytest.mark.parametrize("preset", ["easy", "ez+xyz", "ez+all", "plus+drops", "ez+"])
def test_nowhere_offers_a_near_miss_for_a_word_nothing_is_near(
        preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    said = _refusals(preset, capsys)
    assert len(said) == 6
    assert not [text for text in said if "did you mean" in text]
