"""setup71 NIT 5: a number refused for its range is quoted as the user wrote it (``2``,
``-1``, ``1e400``), not as converted to the setting's type (``2.0``, ``-1.0``, ``inf``)."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.config import load_config
from companion.app.paths import config_dir


def test_a_whole_number_in_the_file_is_quoted_as_written() -> None:
    config_dir().mkdir(parents=True, exist_ok=True)
    path = config_dir() / "config.toml"
    path.write_text("[display]\ntext_scale = 2\n[input]\naccept_seconds = -1\n")
    assert load_config(env={}).notices == (
        f"{path}: display.text_scale must be at most 1.25, found 2; using the default 1.0",
        f"{path}: input.accept_seconds must be at least 0, found -1; using the default 3.0")


def test_a_number_in_the_environment_is_quoted_as_written() -> None:
    assert load_config(env={"COMPANION_INPUT_ACCEPT_SECONDS": "-1"}).notices == (
        "COMPANION_INPUT_ACCEPT_SECONDS: input.accept_seconds must be at least 0, found -1; "
        "ignored",)


@pytest.mark.parametrize(("given", "said"), [
    ("input.accept_seconds=1e400", "input.accept_seconds must be at most 60, found 1e400"),
    ("input.accept_seconds= -1 ", "input.accept_seconds must be at least 0, found -1"),
    ("display.text_scale=2", "display.text_scale must be at most 1.25, found 2"),
])
def test_a_number_given_with_set_is_quoted_as_written(
        given: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "--set", given]) == 2
    key = given.partition("=")[0]
    assert capsys.readouterr().err == f"companion: error: --set {key}: {said}\n"
