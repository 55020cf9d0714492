"""What config.toml's and `--set`'s notices advise, and what `config --show` says last
(review64c DEFECT 2, RISK 1, NIT 1 to NIT 3): advice that, followed, mends the file and
names the setting meant."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.config import load_config
from companion.errors import DataError
from tests.app.install_pi_helpers import SCRIPT, logged_in_as


def write_config(text: str) -> Path:
    path = load_config().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def the_pis_config(tmp_path: Path) -> str:
    """The config.toml scripts/install-pi.sh writes on a Pi, from its dry run."""
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service", "--no-compiled"],
                         capture_output=True, text=True, check=True,
                         env=logged_in_as(tmp_path, "nobody", 65534)).stdout
    _, _, rest = out.partition("config.toml:\n")
    return rest.split("\n== ", 1)[0] + "\n"


def test_a_key_above_the_pis_sections_is_moved_into_its_section_not_given_a_second(
        tmp_path: Path) -> None:
    """review64c DEFECT 2: `rotate = "90"` above install-pi.sh's own config.toml, which
    has [input], [choices], [display] and [play], was told to "write [display] on a line
    above it"; done, the file held [display] twice, was no TOML, and every setting went
    back to its default (a tray build to the camera)."""
    pis = the_pis_config(tmp_path)
    assert "\n[display]\n" in pis and "\n[input]\n" in pis
    path = write_config('rotate = "90"\n' + pis)
    assert load_config(env={}).problems == (
        f'{path}: rotate = "90" is under no [section]; ignored (did you mean display.rotate? '
        "move it into the [display] section below)",)
    # Done as it says: mended.
    path.write_text(pis.replace("\n[display]\n", '\n[display]\nrotate = "90"\n'))
    mended = load_config(env={})
    assert mended.problems == () and mended["display.rotate"] == "90"
    assert mended["display.fullscreen"] is True and mended["choices.kind"] == "gpio"
    # A file without [display] is still told to write one, which mends it as well.
    without = pis.replace("\n[display]\n", "\n[screen]\n")
    path = write_config('rotate = "90"\n' + without)
    assert load_config(env={}).problems[0] == (
        f'{path}: rotate = "90" is under no [section]; ignored (did you mean display.rotate? '
        "write [display] on a line above it)")
    path.write_text('[display]\nrotate = "90"\n' + without)
    assert load_config(env={})["display.rotate"] == "90"
    # Meant in several sections, some in the file and some not: each told where.
    path = write_config('kind = "usb"\n[input]\n[display]\n')
    assert load_config(env={}).problems[0].endswith(
        "(did you mean display.kind, input.kind or choices.kind? move it into [display] or "
        "[input] below, or write [choices] on a line above it)")


def test_did_you_mean_prefers_the_keys_own_section_and_names_no_arbitrary_one() -> None:
    """review64c RISK 1: `[input] source` was answered with dice.source, where the input
    section has camera_source; `[buttons] pin` with buttons.led_pin alone, of six `…_pin`;
    `[inputs] kind` with display.kind first. Now: the key's own section (or the section
    its misspelt one is nearest) first, the same name elsewhere after it, every one equally
    near, and of those the ones that take the value when any does."""
    path = write_config(
        '[input]\nsource = "/dev/video0"\n'  # only input.camera_source takes a path
        '[imput]\nkind = "tray"\n'  # no kind takes it: input.kind first
        '[inputs]\nkind = "rfid"\n'  # only input.kind takes it
        '[buttons]\npin = 5\n'
        '[display]\nmode = "dice"\n'  # no display setting near it: the play mode
        '[dice]\nsauce = "typed"\n')
    assert load_config(env={}).problems == (
        f"{path}: unknown setting 'input.source' ignored (did you mean input.camera_source?)",
        f"{path}: unknown setting 'imput.kind' ignored (did you mean input.kind, display.kind "
        "or choices.kind?)",
        f"{path}: unknown setting 'inputs.kind' ignored (did you mean input.kind?)",
        f"{path}: unknown setting 'buttons.pin' ignored (did you mean buttons.attack_pin, "
        "buttons.flee_pin, buttons.ranged_pin, buttons.item_pin, buttons.led_pin or "
        "buttons.buzzer_pin?)",
        f"{path}: unknown setting 'display.mode' ignored (did you mean play.mode?)",
        f"{path}: unknown setting 'dice.sauce' ignored (did you mean dice.source?)")
    # A value both take: the key's own section first.
    path = write_config('[input]\nsource = "camera"\n')
    assert load_config(env={}).problems == (
        f"{path}: unknown setting 'input.source' ignored (did you mean input.camera_source or "
        "dice.source?)",)


@pytest.mark.parametrize("given, meant", [
    ("fullscreen=false", "display.fullscreen"),
    ("kind=rfid", "input.kind"),
    ("kind=tray", "display.kind, input.kind or choices.kind"),
    ("Display.Fullscreen=false", "display.fullscreen")])
def test_a_set_key_without_its_section_names_the_setting(given: str, meant: str) -> None:
    """review64c NIT 2: `--set fullscreen=false` was told `unknown setting 'fullscreen'; see
    …` with no setting named."""
    key, _, value = given.partition("=")
    with pytest.raises(DataError) as refused:
        load_config(env={}, overrides={key: value})
    assert str(refused.value) == (f"unknown setting {key!r} (did you mean {meant}?); see "
                                  "`companion config --show`")


def test_config_show_counts_the_problems_over_the_problems_alone(
        capsys: pytest.CaptureFixture[str]) -> None:
    """review64c NIT 1: "# 1 problem with the settings, said at the top as well" was followed
    by two bullets, the first an earlier word read as today's, which is no problem."""
    path = write_config('[dice]\nsource = "manual"\n[input]\nkind = "RFID"\n')
    assert main(["config", "--show"]) == 1
    out = capsys.readouterr().out
    problems, others = out.split("\n# 1 problem with the settings, ", 1)[1].split("\n\n")
    assert problems.splitlines()[0].startswith("said at the top as well (this exits 1")
    assert others.splitlines()[0] == "# Said at the top as well, and no problem:"

    def bullets(text: str) -> list[str]:
        joined = " ".join(line[4:] for line in text.splitlines() if line.startswith(("# - ",
                                                                                    "#   ")))
        return [f"{path}:{rest}".strip() for rest in joined.split(f"{path}:")[1:]]

    assert bullets(problems) == [
        f'{path}: input.kind must be one of camera, rfid, sim; found "RFID" (did you mean '
        '"rfid"?); using the default "camera"']
    assert bullets(others) == [
        f'{path}: dice.source = "manual" is read as "typed", its name now; write "typed" to '
        "quiet this"]


def test_config_help_marks_only_a_refused_value_on_a_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    """review64c NIT 3: the help said a setting not known is "marked on its setting's line",
    which an unknown key has none of."""
    with pytest.raises(SystemExit):
        main(["config", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert ("A value refused is marked on its setting's line; it and any setting not known "
            "are said on stderr and again at the end, and the command exits 1 (--path alone "
            "exits 0).") in said


def test_a_section_given_a_value_no_setting_takes_gets_the_general_advice() -> None:
    """setup73 NIT 3: "then  under it", the setting's words left out, none taking true."""
    path = write_config("game = true\n")
    assert load_config(env={}).problems == (
        f"{path}: game = true is under no [section]; ignored ([game] is a section of "
        "settings: write [game] on a line above it, then the setting's name = the value "
        "under it (companion config --show lists them))",)


def test_a_config_file_that_is_a_broken_link_is_said_so(
        capsys: pytest.CaptureFixture[str]) -> None:
    """setup73 NIT 4: a dotfiles link whose target moved read as no file: "(not created)",
    every setting lost without a word, exit 0."""
    path = load_config().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(path.parent / "moved.toml")
    assert main(["config", "--show"]) == 1
    out, err = capsys.readouterr()
    said = out.partition("# In config.toml")[0].split()
    assert " ".join(word for word in said if word != "#") == \
        f"config file: {path} (a link to a file not there)"
    assert err == (f"companion: {path} is a link to {path.parent / 'moved.toml'}, which is "
                   "not there; using the defaults\n")


@pytest.mark.parametrize("under", ["", "sub"])
def test_a_config_folder_that_is_a_file_names_the_file(
        under: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """setup75 NIT 4: COMPANION_CONFIG_DIR naming a file (or a folder under one) was said
    "cannot be read (Not a directory)" and, in the header, "(not created)", naming no file
    in the way."""
    notes = tmp_path / "notes.txt"
    notes.write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(notes / under))
    path = load_config().path
    assert main(["config", "--show"]) == 1
    out, err = capsys.readouterr()
    said = out.partition("# In config.toml")[0].split()
    assert " ".join(word for word in said if word != "#") == \
        f"config file: {path} ({notes} is a file, not a folder)"
    named = "" if under else " (COMPANION_CONFIG_DIR names it)"
    assert err == (f"companion: {path}: cannot be read: {notes} is a file, not a "
                   f"folder{named}; using the defaults\n")


@pytest.mark.parametrize(("name", "value", "said"), [
    ("COMPANION_DISPLAY", "terminal", "did you mean COMPANION_DISPLAY_KIND=terminal?"),
    ("COMPANION_PLAY", "dice", "did you mean COMPANION_PLAY_MODE=dice?"),
    # reviewa73 NIT 9: a preset's name, not also a profile file of that name
    ("COMPANION_GAME", "ez", "did you mean COMPANION_GAME_PRESET=ez?"),
    ("COMPANION_GAME", "mine.toml", "did you mean COMPANION_GAME_PROFILE=mine.toml?"),
    ("COMPANION_BUTTONS", "x", "[buttons] is a section of settings: COMPANION_BUTTONS_<KEY>, "
     "as COMPANION_BUTTONS_ATTACK_PIN; companion config --show lists them"),
])
def test_a_section_as_a_variable_is_told_the_setting_its_value_fits(
        name: str, value: str, said: str) -> None:
    """setup73 NIT 5: COMPANION_DISPLAY=terminal was offered DISPLAY_SIZE by its name
    alone, and COMPANION_PLAY=dice was ignored without a word."""
    assert load_config(env={name: value}).problems == (
        f"{name} is no setting; ignored ({said})",)
