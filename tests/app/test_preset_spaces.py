"""reviews71 NIT 5: a preset with spaces beside its ``+`` (``ez +drops``) is refused, as the
engine's one parser refuses it (a preset is one word in the save, the log and the history),
but offered the preset meant with the spaces taken out, not a part of it: "ez" dropped the
drops option, and ``ez+ drops`` was told "' drops' is not an EZ Plus option (did you mean
'drops'?)". Each part is stripped before it is matched."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.config import load_config
from companion.app.paths import config_dir


@pytest.mark.parametrize(("preset", "meant"), [("ez +drops", "ez+drops"),
                                               ("ez+ drops", "ez+drops"),
                                               ("Pincer + EZ + drops", "ez+drops+pincer"),
                                               ("ez + drop", "drops")])
def test_spaces_beside_the_plus_are_offered_the_preset_without_them(
        preset: str, meant: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--headless", "--preset", preset])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(f' (did you mean "{meant}"?)\n')
    assert err.count("did you mean") == 1

    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "config.toml").write_text(f'[game]\npreset = "{preset}"\n')
    [notice] = load_config(env={}).notices
    assert notice.endswith(f' (did you mean "{meant}"?); using the default "plus"')


@pytest.mark.parametrize("preset", ["ez + drops + drops", "drops + pincer"])
def test_parts_that_make_no_preset_once_stripped_are_offered_none(
        preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Named twice, or with no ez: no preset to offer, and no part of it either."""
    with pytest.raises(SystemExit):
        main(["play", "--headless", "--preset", preset])
    assert "did you mean" not in capsys.readouterr().err
