"""A profile path that is there but is no file (a folder, /dev/null, a FIFO) is said as
what it is: ``--profile`` (rules, simulate, play) and config.toml's ``game.profile`` said
"no such file", which sends the user looking for a typo in a path that is there (rules74
NIT 4). A path that is not there is still "no such file"."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.app.cli import main

#: Each command line with a profile, and the name its usage errors start with.
COMMANDS = [(("rules", "level"), "companion rules level"),
            (("simulate", "--games", "1"), "companion simulate"),
            (("play", "--headless"), "companion play")]


def _paths(tmp_path: Path) -> list[tuple[Path, str]]:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    return [(tmp_path, "a folder, not a file"),
            (Path(os.devnull), "a device, not a regular file"),
            (fifo, "a pipe (FIFO), not a regular file"),
            (tmp_path / "gone.toml", "no such file"),
            (tmp_path / "gone" / "mine.toml", "no such file")]


@pytest.mark.parametrize(("argv", "prog"), COMMANDS)
def test_a_profile_option_that_is_no_file_says_what_it_is(
    tmp_path: Path, argv: tuple[str, ...], prog: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for path, said in _paths(tmp_path):
        with pytest.raises(SystemExit) as stop:
            main([*argv, "--profile", str(path)])
        assert stop.value.code == 2
        assert capsys.readouterr().err.splitlines()[-1] == (
            f"{prog}: error: argument --profile: {path}: {said}")


def test_game_profile_in_config_toml_that_is_no_file_says_what_it_is(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = user_dirs / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    (config.parent / "profiles").mkdir()
    for written, path, said in [(str(tmp_path), tmp_path, "a folder, not a file"),
                                (os.devnull, Path(os.devnull), "a device, not a regular file"),
                                ("profiles", config.parent / "profiles",
                                 "a folder, not a file (the relative path profiles is taken "
                                 "from config.toml's folder)")]:
        config.write_text(f'[game]\nprofile = "{written}"\n', encoding="utf-8")
        for argv, _ in COMMANDS:
            assert main(list(argv)) == 2
            assert f"game.profile ({config}): {path}: {said}; give --profile FILE" in \
                capsys.readouterr().err, argv


def test_a_regular_file_and_a_link_to_one_are_files(tmp_path: Path) -> None:
    # imported here: the code before not_a_file then fails this test, not the whole module
    from companion.app.arg_types import not_a_file

    mine = tmp_path / "mine.toml"
    mine.write_text("")
    (tmp_path / "link.toml").symlink_to(mine)
    assert not_a_file(mine) is None and not_a_file(tmp_path / "link.toml") is None


@pytest.mark.parametrize(("argv", "prog"), COMMANDS)
def test_a_dangling_link_is_said_to_be_one(
    tmp_path: Path, argv: tuple[str, ...], prog: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link whose file is gone is there to ``ls``: "no such file" sent the user looking
    for a typo (reviewb74 N4). It names where it leads; a link to such a link leads nowhere."""
    (tmp_path / "dangling.toml").symlink_to("nothere.toml")
    (tmp_path / "twice.toml").symlink_to("dangling.toml")
    for name, said in [("dangling.toml", "a link to nothere.toml, which is not there"),
                       ("twice.toml", "a link to dangling.toml, which leads to no file")]:
        with pytest.raises(SystemExit) as stop:
            main([*argv, "--profile", str(tmp_path / name)])
        assert stop.value.code == 2
        assert capsys.readouterr().err.splitlines()[-1] == (
            f"{prog}: error: argument --profile: {tmp_path / name}: {said}")
