"""Config: packaged defaults, config.toml, environment, command line; bad files never crash."""

from __future__ import annotations

import datetime
import json
import math
import tomllib
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.config import Source, load_config, load_specs, toml_value
from companion.app.paths import data_dir
from companion.errors import DataError, DeviceError
from companion.hw.camera.capture import open_source
from tests.app.config_and_pins_helpers import setting_lines


def write_config(text: str) -> Path:
    path = load_config().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_every_default_passes_its_own_check() -> None:
    specs = load_specs()
    assert "display.kind" in specs and "buttons.attack_pin" in specs
    for spec in specs.values():
        assert spec.check(spec.default) == spec.default
        assert spec.help


def test_defaults_when_no_file() -> None:
    config = load_config(env={})
    assert config["display.kind"] == "screen"
    assert all(s.source is Source.DEFAULT for s in config.settings.values())
    assert config.notices == ()


def test_precedence_file_env_command_line() -> None:
    write_config('[display]\nkind = "terminal"\nsize = "1024x600"\n[game]\npreset = "ez"\n')
    config = load_config(
        env={"COMPANION_DISPLAY_SIZE": "800x480", "COMPANION_GAME_PACE_SECONDS": "0.5"},
        overrides={"game.preset": "plus"},
        flag_names={"game.preset": "--preset"},
    )
    assert (config["display.kind"], config.settings["display.kind"].source) == (
        "terminal", Source.FILE)
    assert config.settings["display.size"].source is Source.ENV
    assert config.settings["display.size"].origin == "COMPANION_DISPLAY_SIZE"
    assert config.number("game.pace_seconds") == 0.5
    assert config.settings["game.preset"].source is Source.COMMAND_LINE
    assert config.settings["game.preset"].origin == "--preset"
    assert config.text("game.preset") == "plus"


def test_bad_values_name_the_key_and_fall_back() -> None:
    path = write_config(
        '[display]\nkind = "tv"\n[buttons]\nattack_pin = 99\nled_pin = "x"\n[nope]\nthing = 1\n'
    )
    config = load_config(env={"COMPANION_DISPLAY_FULLSCREEN": "maybe"})
    text = "\n".join(config.notices)
    assert "display.kind must be one of screen, terminal, none" in text
    assert "buttons.attack_pin must be at most 27" in text
    assert "buttons.led_pin must be a whole number" in text
    assert "unknown setting 'nope.thing'" in text
    assert "COMPANION_DISPLAY_FULLSCREEN" in text
    assert config["display.kind"] == "screen"
    assert config["buttons.attack_pin"] == 17
    assert path.exists()  # a file with bad values is the user's; it stays in place


@pytest.mark.parametrize(("written", "said"), [
    ('["2D6", "1D6"]', ' (write them as one text, separated by commas: expressions = '
                       '"2D6, 1D6")'),
    ('["2D6", 3]', ""),  # not texts alone: no form to give
])
def test_dice_expressions_as_a_toml_list_is_shown_as_one_text(written: str, said: str) -> None:
    """setup75 NIT 6: TOML's way to write a list was told "must be text in quotes" alone,
    and the rolls were dropped for the default; the comma form to write is shown. Not taken
    as a list: the setting is one text in the environment, --set and config --show."""
    path = write_config(f"[dice]\nexpressions = {written}\n")
    config = load_config(env={})
    assert config.notices == (f"{path}: dice.expressions must be text in quotes, found "
                              f'{written}{said}; using the default "1D6, 2D6"',)
    assert config.text("dice.expressions") == "1D6, 2D6"


def test_int_accepted_for_float_setting() -> None:
    write_config("[input]\naccept_seconds = 2\n")
    assert load_config(env={}).number("input.accept_seconds") == 2.0


def test_a_number_written_bare_is_taken_for_the_word_it_spells() -> None:
    """rotate = 90 was refused (rotate takes the words "0", "90" …) and the panel stayed
    unturned; a number that spells none of the words is still refused."""
    write_config("[display]\nrotate = 90\n")
    config = load_config(env={})
    assert config.text("display.rotate") == "90" and not config.notices
    write_config("[display]\nrotate = 45\n")
    config = load_config(env={})
    assert config.text("display.rotate") == "auto"
    said = "display.rotate must be one of auto, 0, 90, 180, 270; found 45"
    assert any(said in notice for notice in config.notices), config.notices
    write_config("[display]\nrotate = [90]\n[input]\nkind = { a = 1 }\n")
    config = load_config(env={})  # a list or a table among words crashed every command
    assert config.text("display.rotate") == "auto" and config.text("input.kind") == "camera"
    assert len(config.notices) == 2 and "display.rotate must be text in quotes, found [90]" \
        in config.notices[0], config.notices


def test_a_corrupt_file_stays_where_the_user_keeps_it_and_the_defaults_are_used() -> None:
    """A settings file with one missing quote was renamed to config.toml.corrupt-…, by any
    command, even `config --path`: the next run found no file and used the defaults without
    a word, and the user's editor lost it."""
    path = write_config('[input]\nkind = "rfid\n')
    for _ in range(2):
        config = load_config(env={})
        assert path.read_text() == '[input]\nkind = "rfid\n'
        assert not list(path.parent.glob("config.toml.corrupt-*"))
        assert config.notices[0].startswith(f"{path} is not a valid TOML file")
        assert "line 2" in config.notices[0] and "until it is mended" in config.notices[0]
        assert config["input.kind"] == "camera"


def test_binary_garbage_is_told_and_left_alone() -> None:
    path = write_config("")
    path.write_bytes(b"\xff\xfe\x00garbage")
    config = load_config(env={})
    # not UTF-8 (a UTF-16 byte-order mark): what to do with it (setup69 NIT 6, a77setup
    # NIT 6)
    assert (f"{path} is not UTF-8 text (byte 1 cannot be read; saved as UTF-16 (Notepad's "
            "Unicode)?): save it as UTF-8") in config.notices[0]
    assert path.read_bytes() == b"\xff\xfe\x00garbage"


def test_a_byte_order_mark_from_notepad_is_not_a_corrupt_file() -> None:
    """Windows Notepad starts a UTF-8 file with U+FEFF, which tomllib refuses: the file was
    renamed aside as not TOML and its settings lost."""
    path = write_config("")
    path.write_bytes('\ufeff[display]\nkind = "terminal"\n'.encode())
    config = load_config(env={})
    assert config.notices == ()
    assert path.exists() and not list(path.parent.glob("config.toml.corrupt-*"))
    assert (config["display.kind"], config.settings["display.kind"].source) == (
        "terminal", Source.FILE)


def test_bad_command_line_value_raises_naming_key() -> None:
    with pytest.raises(DataError, match=r"input\.kind must be one of camera, rfid, sim"):
        load_config(env={}, overrides={"input.kind": "scanner"})
    with pytest.raises(DataError, match=r"unknown setting 'input\.knd'"):
        load_config(env={}, overrides={"input.knd": "sim"})


def test_config_show_prints_sources(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    write_config('[display]\nkind = "terminal"\n')
    monkeypatch.setenv("COMPANION_INPUT_KIND", "rfid")
    assert main(["config", "--show", "--set", "game.preset=ez"]) == 0
    out = capsys.readouterr().out
    lines = setting_lines(out)
    assert lines["display.kind"].endswith("# file: config.toml")  # the header has its path
    assert f"# {load_config().path}" in out.replace("# config file: ", "# ")
    assert lines["input.kind"].endswith("# env: COMPANION_INPUT_KIND")
    assert lines["game.preset"].endswith("# command line: --set game.preset")
    assert lines["display.size"].endswith("# default")


def test_config_show_says_what_each_setting_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The settings' help lines were in the defaults file only: `config --show` gave a
    name and a value, and no doc said what input.camera_source or play.mode takes."""
    assert main(["config", "--show"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for key, spec in load_config(env={}).settings.items():
        assert comment_above(lines, key).startswith(spec.spec.help)
    assert comment_above(lines, "input.kind").endswith("(one of: camera, rfid, sim)")
    assert comment_above(lines, "input.accept_seconds").endswith("(0 to 60)")
    assert "COMPANION_<SECTION>_<KEY>" in " ".join(lines[:lines.index("")])


def comment_above(lines: list[str], key: str) -> str:
    """The comment over ``key``'s line in `config --show`, its lines (wrapped to the
    terminal's width, newuser61 N4) joined."""
    shown = next(i for i, line in enumerate(lines) if line.startswith(f"{key} "))
    start = shown
    while lines[start - 1].startswith("# ") and not lines[start - 1].startswith("# ["):
        start -= 1
    return " ".join(line.removeprefix("# ") for line in lines[start:shown])


def test_config_show_says_where_the_data_folder_is(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs/architecture.md sends the player to `config --show` for the data folder (the
    save, fight files, camera_check.jpg), which printed only the config file."""
    assert main(["config", "--show"]) == 0
    head = capsys.readouterr().out.split("\n\n")[0]  # (wrapped: newuser61 N4)
    assert head.replace("\n# ", " ").split("data folder: ")[1] == (
        f"{data_dir()} (the save, the history, fight files, camera_check.jpg; not created)")
    data_dir().mkdir()
    assert main(["config", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["data_folder"] == str(data_dir())
    assert main(["config", "--show"]) == 0
    assert capsys.readouterr().out.split("\n\n")[0].endswith("camera_check.jpg)")


def test_config_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["settings"]["choices.kind"] == {
        "value": "gpio", "source": "default", "origin": "built in",
        "help": "where choices come from: the four buttons, the keyboard, or the "
                "auto-player (one of: gpio, keyboard, auto)",
        "env": "COMPANION_CHOICES_KIND"}


def test_config_show_with_corrupt_file_exits_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    write_config("= = =")
    assert main(["config", "--show"]) == 1  # a problem: setup64 RISK 1
    captured = capsys.readouterr()
    assert "not a valid TOML file" in captured.err and "Traceback" not in captured.err


def test_bad_set_syntax_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "--set", "display.kind"]) == 2
    assert "SECTION.KEY=VALUE" in capsys.readouterr().err


def test_the_dice_camera_is_the_tile_camera_unless_set() -> None:
    config = load_config(env={"COMPANION_INPUT_CAMERA_SOURCE": "camera:1"})
    assert config.dice_camera() == "camera:1"  # dice.camera_source = "auto"
    assert config.dice_camera("clip.mp4") == "clip.mp4"
    own = load_config(env={"COMPANION_DICE_CAMERA_SOURCE": "camera:2"})
    assert own.dice_camera() == "camera:2"


def test_each_camera_source_names_the_setting_that_chose_it() -> None:
    """What goes wrong with a camera names where to change it, not always
    input.camera_source."""
    path = write_config('[input]\ncamera_source = "camera:1"\n')
    config = load_config(env={"COMPANION_DICE_CAMERA_SOURCE": "camera:2"})
    assert config.camera_source().setting == f"input.camera_source ({path})"
    assert config.dice_camera().setting == "dice.camera_source (COMPANION_DICE_CAMERA_SOURCE)"
    assert config.dice_camera("clip.mp4").setting == "--source"
    auto = load_config(env={}).dice_camera()
    assert auto == "camera:1" and auto.setting.startswith(f"input.camera_source ({path}), as "
                                                          'dice.camera_source is "auto"')
    # A USB camera for the dice goes in the dice's own setting: naming the tiles' camera
    # there (newuser55 #12) would move the tiles' reader onto it as well.
    assert auto.usb == f'camera_source = "camera:0" under [dice] in {path}'
    assert config.camera_source().usb == f'camera_source = "camera:0" under [input] in {path}'


def test_a_usb_camera_is_chosen_where_the_camera_setting_came_from(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """camera75 DEFECT 1: with COMPANION_INPUT_CAMERA_SOURCE=picamera and no Picamera2, the
    advice was 'input.camera_source = "camera:0" in config.toml', which config.toml already
    said: the environment wins over it, and the same error came back. The advice is made
    where the value came from."""
    import io
    import sys

    path = write_config('[input]\ncamera_source = "camera:0"\n')
    env = load_config(env={"COMPANION_INPUT_CAMERA_SOURCE": "picamera"})
    assert env.camera_source().usb == (
        "COMPANION_INPUT_CAMERA_SOURCE=camera:0 (the environment sets input.camera_source, "
        "over config.toml; or unset it)")
    # "auto" takes the tiles' camera; a USB camera for the dice goes in the dice's setting.
    assert env.dice_camera().usb == f'camera_source = "camera:0" under [dice] in {path}'
    dice_env = load_config(env={"COMPANION_DICE_CAMERA_SOURCE": "picamera"})
    assert dice_env.dice_camera().usb == (
        "COMPANION_DICE_CAMERA_SOURCE=camera:0 (the environment sets dice.camera_source, "
        "over config.toml; or unset it)")
    typed = load_config(env={}, overrides={"input.camera_source": "picamera"})
    assert typed.camera_source().usb == "--set input.camera_source=camera:0"
    named = load_config(env={}, overrides={"input.camera_source": "picamera"},
                        flag_names={"input.camera_source": "--camera"})
    assert named.camera_source().usb == "--camera camera:0"
    write_config('[input]\ncamera_source = "picamera"\n')
    assert load_config(env={}).camera_source().usb == (
        f'camera_source = "camera:0" under [input] in {path}')
    write_config("")
    assert load_config(env={}).camera_source().usb == (
        f'camera_source = "camera:0" under [input] in {path}')  # picamera, the default
    # What the player sees: calibrate camera with no Picamera2 (its import fails).
    write_config('[input]\ncamera_source = "camera:0"\n')
    monkeypatch.setenv("COMPANION_INPUT_CAMERA_SOURCE", "picamera")
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["calibrate", "camera"]) == 1
    err = capsys.readouterr().err
    assert "Picamera2 is not installed" in err
    assert err.endswith("or use a USB camera: COMPANION_INPUT_CAMERA_SOURCE=camera:0 (the "
                        "environment sets input.camera_source, over config.toml; or unset "
                        "it)\n")


def test_relative_paths_in_config_toml_are_taken_from_its_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A font or a folder of pictures written beside config.toml is found there whatever
    the current folder (the boot service runs in $HOME); a path given in the environment
    is the shell's, from the current folder."""
    path = write_config('[display]\nfont = "fonts/Noto.otf"\n'
                        '[input]\ncamera_source = "shots"\n'
                        '[dice]\ncamera_source = "~/dice.mp4"\n')
    monkeypatch.chdir(tmp_path)
    config = load_config(env={"COMPANION_GAME_PROFILE": "mine.toml"})
    assert config.file_path("display.font") == path.parent / "fonts" / "Noto.otf"
    assert config.camera_source() == str(path.parent / "shots")
    with pytest.raises(DeviceError, match=rf"^input\.camera_source \({path}\): shots: no such "
                                          rf"camera, picture, folder or video at "
                                          rf"{path.parent / 'shots'} \(cameras are"):
        open_source(config.camera_source())  # said as written, and where it was looked for
    assert config.dice_camera() == str(Path.home() / "dice.mp4")
    assert config.file_path("game.profile") == Path("mine.toml")
    assert load_config(env={}).file_path("game.profile") is None
    write_config('[input]\ncamera_source = "camera:1"\n[dice]\ncamera_source = "picamera"\n')
    cameras = load_config(env={})
    assert (cameras.camera_source(), cameras.dice_camera()) == ("camera:1", "picamera")


def test_a_misspelt_environment_variable_is_named_with_the_one_meant() -> None:
    """COMPANION_DISPLAY_FULLSCREN=0 was ignored without a word, while a misspelt key in
    config.toml gets a notice."""
    config = load_config(env={"COMPANION_DISPLAY_FULLSCREN": "0",
                              "COMPANION_DATA_DIR": "/tmp/elsewhere", "HOME": "/root"})
    assert config.notices == ("COMPANION_DISPLAY_FULLSCREN is no setting; ignored (did you "
                              "mean COMPANION_DISPLAY_FULLSCREEN?)",)
    assert config.flag("display.fullscreen") is True


def test_config_show_says_the_problems_again_at_its_end_marks_the_lines_and_exits_1(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """setup64 RISK 1: `config --show`, the documented check of an edited config.toml, said
    its problems on stderr before 100-odd lines of settings (gone from a Pi's console, which
    keeps no scrollback), listed a refused value's setting as a plain `# default`, and
    exited 0."""
    path = write_config('[input]\nkind = "RFID"\n[buttons]\nattack_pn = 5\n')
    monkeypatch.setenv("COMPANION_DISPLAY_SIZE", "big")
    assert main(["config", "--show"]) == 1
    out, err = capsys.readouterr()
    told = load_config().notices
    assert len(told) == 3 and err.splitlines() == [f"companion: {n}" for n in told]
    lines = out.splitlines()
    setting = setting_lines(out)
    assert setting["input.kind"].endswith("""# default (config.toml's "RFID" refused)""")
    assert setting["display.size"].endswith("""# default (COMPANION_DISPLAY_SIZE's "big" """
                                            "refused)")
    assert setting["buttons.attack_pin"].endswith("# default")
    # Said again last, each notice whole once its comment lines are joined.
    end = lines[lines.index("# 3 problems with the settings, said at the top as well (this "
                            "exits 1 until they"):]
    assert end[1] == "# are mended):"
    again = " ".join(line.removeprefix("#").strip() for line in end[2:]).split("- ")[1:]
    assert [notice.strip() for notice in again] == list(told)
    assert f"{path}: unknown setting 'buttons.attack_pn' ignored" in again[1]
    # --json says the same and exits the same; --path names the file to mend, and exits 0.
    assert main(["config", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["problems"] == list(told)
    assert main(["config", "--path"]) == 0
    assert capsys.readouterr().out == f"{path}\n"
    # Mended: nothing said, no mark, exit 0.
    monkeypatch.delenv("COMPANION_DISPLAY_SIZE")
    write_config('[input]\nkind = "rfid"\n')
    assert main(["config", "--show"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "refused" not in out and "said at the top" not in out.lower()
    assert out.splitlines()[-1] == "game.pace_seconds            = 0.0          # default"


def test_an_earlier_word_is_said_again_at_the_end_and_is_no_problem(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`manual`, read as today's `typed`, is a notice and no problem: exit 0."""
    path = write_config('[dice]\nsource = "manual"\n')
    assert main(["config", "--show"]) == 0
    lines = capsys.readouterr().out.splitlines()
    end = lines.index("# Said at the top as well:")
    assert lines[end - 1] == "" and lines[end + 1].startswith(f"# - {path}:")
    assert " ".join(line[4:] for line in lines[end + 1:]) == (
        f'{path}: dice.source = "manual" is read as "typed", its name now; write "typed" to '
        "quiet this")


def test_a_section_given_a_value_names_the_setting_under_it_that_takes_the_value() -> None:
    """setup65: ``input = "rfid"`` (the section's name for its kind) was told only "should be a
    [section] table", with no word of input.kind; a value several settings take names them."""
    path = write_config('input = "rfid"\ndice = "typed"\nbuttons = 5\nnope = 1\n')
    assert load_config(env={}).notices == (
        f'{path}: input = "rfid" is under no [section]; ignored ([input] is a section of '
        'settings: write [input] on a line above it, then kind = "rfid" under it)',
        f'{path}: dice = "typed" is under no [section]; ignored ([dice] is a section of '
        'settings: write [dice] on a line above it, then source = "typed" or d100 = "typed" '
        "under it)",
        f"{path}: buttons = 5 is under no [section]; ignored ([buttons] is a section of "
        "settings: write [buttons] on a line above it, then the setting's name = the value "
        "under it (companion config --show lists them))",
        f"{path}: 'nope' should be a [section] table; ignored")


def test_a_misspelt_or_misplaced_key_names_the_setting_meant() -> None:
    """setup64 NIT 1: config.toml's unknown keys got no "did you mean", where the
    environment's and the Defaults files' do; a key above every [section] named none."""
    path = write_config('kind = "rfid"\nfulscreen = false\nnope = 1\n'
                        '[display]\nfullscren = false\nrfid_port = "/dev/ttyACM0"\n'
                        '[buttons]\nattack_pn = 5\n[zzz]\nqqq = 1\n')
    assert load_config(env={}).notices == (
        # Only input.kind takes "rfid" (review64c RISK 1); the file has no [input] yet, and
        # has a [display], which a second one would break (DEFECT 2).
        f"{path}: kind = \"rfid\" is under no [section]; ignored (did you mean input.kind? "
        "write [input] on a line above it)",
        f"{path}: fulscreen = false is under no [section]; ignored (did you mean "
        "display.fullscreen? move it into the [display] section below)",
        f"{path}: 'nope' should be a [section] table; ignored",
        f"{path}: unknown setting 'display.fullscren' ignored (did you mean "
        "display.fullscreen?)",
        f"{path}: unknown setting 'display.rfid_port' ignored (did you mean input.rfid_port?)",
        f"{path}: unknown setting 'buttons.attack_pn' ignored (did you mean "
        "buttons.attack_pin?)",
        f"{path}: unknown setting 'zzz.qqq' ignored")
    path = write_config('[play]\nshutdwn = "systemctl poweroff"\n[game]\npace = 1\n')
    assert load_config(env={}).notices == (
        f"{path}: unknown setting 'play.shutdwn' ignored (did you mean "
        "play.shutdown_command?)",
        f"{path}: unknown setting 'game.pace' ignored (did you mean game.pace_seconds?)")
    with pytest.raises(DataError) as refused:
        load_config(env={}, overrides={"display.knd": "terminal"})
    assert str(refused.value) == ("unknown setting 'display.knd' (did you mean display.kind?); "
                                  "see `companion config --show`")
    with pytest.raises(DataError, match=r'found "RFID" \(did you mean "rfid"\?\)$'):
        load_config(env={}, overrides={"input.kind": "RFID"})


@pytest.mark.parametrize(("typed", "meant"), [
    ("ｔｅｒｍｉｎａｌ", "terminal"),  # full width, as a Japanese IME types it
    ("ＳＣＲＥＥＮ", "screen"),
    ("term", "terminal"),  # a word begun
    ("scr", "screen"),
    ("no", None),  # too short to tell
    ("tv", None),
])
def test_a_word_typed_full_width_or_begun_gets_a_did_you_mean(
        typed: str, meant: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """setup75 NIT 7: "Terminal" and "terminal " were answered "did you mean", and the
    full-width ｔｅｒｍｉｎａｌ and a word begun (term) were not: read NFKC-normalised, and a
    beginning of three letters or more that begins one choice alone."""
    monkeypatch.setenv("COMPANION_DISPLAY_KIND", typed)
    config = load_config()
    said = ("COMPANION_DISPLAY_KIND: display.kind must be one of screen, terminal, none; "
            f'found "{typed}"' + (f' (did you mean "{meant}"?)' if meant else "") + "; ignored")
    assert config.notices == (said,)
    assert config.text("display.kind") == "screen"


#: A refused button pin's notice with choices.kind = "gpio", the default (reviewa73 NIT 3).
STOPS = 'play stops on it (with choices.kind = "gpio")'


def test_values_are_said_as_toml_writes_them_and_a_quoted_one_is_told_to_lose_its_quotes(
) -> None:
    """setup64 NIT 2: `fullscreen = "false"` was told `found 'false'; using the default
    True`, Python's spelling in a message about a TOML file, and not that the quotes were
    the fault."""
    path = write_config('[display]\nfullscreen = "False"\nsize = 3\n'
                        '[game]\npreset = "plsu"\npace_seconds = inf\n'
                        '[buttons]\nattack_pin = "5"\nflee_pin = "99"\nled_pin = [24]\n'
                        '[input]\naccept_seconds = " 2.5 "\nkind = "yes"\n')
    config = load_config(env={"COMPANION_DISPLAY_FULLSCREEN": "maybe"})
    assert config.notices == (
        f'{path}: display.fullscreen must be true or false, found "False" (write it without '
        "quotes: fullscreen = false); using the default true",
        f"{path}: display.size must be one of auto, 800x480, 1024x600; found 3; using the "
        'default "auto"',
        f"{path}: game.preset: unknown preset 'plsu': choose one of ez, plus, or ez with "
        "options switched on, as ez+sleep_check+drops (options: sleep_check, extended_states, "
        'strength, pc_states, drops, pincer) (did you mean "plus"?); using the default "plus"',
        f"{path}: game.pace_seconds must be at most 60, found inf; using the default 0.0",
        f'{path}: buttons.attack_pin must be a whole number, found "5" (write it without '
        f"quotes: attack_pin = 5); {STOPS}",
        f'{path}: buttons.flee_pin must be a whole number, found "99"; {STOPS}',
        f"{path}: buttons.led_pin must be a whole number, found [24]; {STOPS}",
        f'{path}: input.accept_seconds must be a number, found " 2.5 " (write it without '
        "quotes: accept_seconds = 2.5); using the default 3.0",
        f'{path}: input.kind must be one of camera, rfid, sim; found "yes"; using the default '
        '"camera"',
        'COMPANION_DISPLAY_FULLSCREEN: display.fullscreen must be true or false, found "maybe"; '
        "ignored")
    refused = config.refused
    assert refused["display.fullscreen"] == ('config.toml\'s "False"',
                                             'COMPANION_DISPLAY_FULLSCREEN\'s "maybe"')
    assert refused["buttons.led_pin"] == ("config.toml's [24]",)


@pytest.mark.parametrize("value, spelt", [
    (True, "true"), (False, "false"), ("rfid", '"rfid"'), ('say "hi"\n', r'"say \"hi\"\n"'),
    (3, "3"), (2.5, "2.5"), (float("-inf"), "-inf"), (float("nan"), "nan"),
    ([1, "a"], '[1, "a"]'), ({"kind": "rfid", "a b": True}, '{ kind = "rfid", "a b" = true }'),
    ({}, "{}"), (datetime.date(2024, 5, 1), "2024-05-01"),
    # review64c NIT 4: json.dumps left DEL raw, which TOML refuses ("Illegal character").
    ("a\x7fb\x85c\x01", r'"a\u007fb\u0085c\u0001"')])
def test_toml_value_round_trips_through_tomllib(value: object, spelt: str) -> None:
    assert toml_value(value) == spelt
    read = tomllib.loads(f"v = {spelt}")["v"]
    assert read == value or (isinstance(value, float) and math.isnan(read))


def test_a_setting_hint_pasted_under_its_section_is_read() -> None:
    """r78carry: the hint for a setting in config.toml said 'input.kind = "rfid" in …';
    pasted under the file's [input] that read as input.input.kind, ignored, and pasted
    above it made [input] twice, no TOML at all. It names the line and its section."""
    path = write_config('[input]\ncamera_source = "camera:1"\n')
    hint = load_config(env={}).how_to_set("input.kind", "rfid")
    line, section = hint.removesuffix(f" in {path}").split(" under ")
    assert section == "[input]"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("[input]\n", f"[input]\n{line}\n"), encoding="utf-8")
    again = load_config(env={})
    assert again["input.kind"] == "rfid" and not again.notices
