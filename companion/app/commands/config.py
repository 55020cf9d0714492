"""``companion config --show``: the effective settings and where each came from.

It is also the check of an edited config.toml: what was refused or ignored is said on
stderr first, marked on the setting's line, and said again after the listing (a Pi's
console keeps no scrollback), and the command then exits 1 (setup64 RISK 1)."""

from __future__ import annotations

import argparse
import json
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.app.command_list import COMMANDS
from companion.app.config import (
    Config,
    Source,
    Spec,
    file_in_the_way,
    home_not_found,
    load_config,
)
from companion.app.dice_expressions import parse_expressions
from companion.app.help_format import cell_len, cell_wrap
from companion.app.paths import data_dir, data_dir_setting
from companion.app.pin_numbers import PINS_TO_AVOID, header_pins_written
from companion.errors import CompanionError, DataError
from companion.hw.camera.choice import mistyped, names_a_file


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "config",
        help=COMMANDS["config"].help,
        description=(
            "Settings come from the built-in defaults, then config.toml in the user "
            "config folder, then COMPANION_<SECTION>_<KEY> environment variables, "
            "then the command line. A value refused is marked on its setting's line; it "
            "and any setting not known are said on stderr and again at the end, and the "
            "command exits 1 (--path alone exits 0)."
        ),
    )
    parser.add_argument(
        "--show", action="store_true", help="print every setting (the default action)"
    )
    parser.add_argument("--path", action="store_true", help="print the config file's path only")
    parser.add_argument("--json", action="store_true", help="print the settings as JSON")
    parser.add_argument(
        "--set",
        dest="assignments",
        action="append",
        default=[],
        metavar="SECTION.KEY=VALUE",
        help="show the settings as they would be with this one changed (repeatable); nothing "
             "is saved: write it in config.toml, or set COMPANION_SECTION_KEY",
    )
    parser.set_defaults(func=run)


def parse_assignments(items: list[str]) -> dict[str, str]:
    """``["display.kind=terminal"]`` -> ``{"display.kind": "terminal"}``."""
    result: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise DataError(f"--set {item!r}: write SECTION.KEY=VALUE, e.g. display.kind=terminal")
        result[key.strip()] = value.strip()
    return result


def run(args: argparse.Namespace) -> int:
    """0, or 1 when a setting was refused or ignored, or is one ``play`` or ``rules`` would
    stop on (``--path`` alone always 0: it names the file to mend)."""
    config, marks = tray_checked(load_config(overrides=parse_assignments(args.assignments)))
    config, marks = tray_rules_checked(config, marks)
    config, marks = table_rules_checked(config, marks)
    config, marks = start_checked(config, marks)
    config, marks = dice_camera_checked(config, marks)
    config, marks = font_checked(config, marks)
    config = data_folder_checked(config)
    config.tell_notices()
    if args.path:
        print(config.path)
        return 0
    if args.json:
        print(json.dumps(as_json(config), ensure_ascii=False, indent=2))
    else:
        print(render(config, marks=marks))
    return 1 if config.problems else 0


def data_folder_checked(config: Config) -> Config:
    """``config`` with a file in the data folder's place (or in a folder's above it) added
    to its problems: ``play``, ``history`` and ``genso`` stop on it, and ``config --show``
    said the folder was fine and exited 0 (a77setup NIT 5)."""
    in_the_way = file_in_the_way(data_dir() / "save.json")
    if in_the_way is None:
        return config
    data = data_dir()
    why = "is a file, not a folder" if in_the_way == data \
        else f"cannot be made: {in_the_way} is a file, not a folder"
    text = f"the data folder {data} ({data_dir_setting()}) {why}; move it away"
    return replace(config, notices=(*config.notices, text), problems=(*config.problems, text))


#: The mark on the line of a ``dice.expressions`` the dice tray stops on: it is the value
#: in effect, not "refused" as a value set aside for its default is (reviewe68 NIT 1).
TRAY_STOPS = "the dice tray stops on it ダイストレイが止まります"


def tray_checked(config: Config) -> tuple[Config, dict[str, str]]:
    """``config`` with ``dice.expressions`` read as the dice tray reads it: a roll the tray
    would stop on is refused here too (events68 RISK 1), from ``--set`` as any bad value
    there is (:class:`DataError`), from the file or the environment as a problem; and the
    marks for the settings' lines: :data:`TRAY_STOPS` on its line, the value staying, for
    ``play --mode dice`` stops on it."""
    key = "dice.expressions"
    setting = config.settings[key]
    try:
        parse_expressions(config.text(key))
    except DataError as exc:
        if setting.source is Source.COMMAND_LINE:
            raise DataError(f"{setting.origin}: {exc}") from None
        text = f"{setting.origin}: {exc}; the dice tray (play --mode dice) stops on it"
        return (replace(config, notices=(*config.notices, text),
                        problems=(*config.problems, text)), {key: TRAY_STOPS})
    return config, {}


#: The mark on ``play.mode = "dice"``'s line when the player's events.toml has a value
#: refused: the tray starts, and the tables that read its rule stop (events74 RISK 2).
TRAY_RULES_REFUSED = "events.toml refused: tables reading it stop イベント表の設定に誤り"


def tray_rules_checked(config: Config,
                       marks: Mapping[str, str]) -> tuple[Config, dict[str, str]]:
    """``config`` with the player's events.toml read as the dice tray reads it, when
    ``play.mode`` is the tray: each value refused (the file, key and value named) is a
    problem, and ``play.mode``'s line is marked :data:`TRAY_RULES_REFUSED`. ``config
    --show``, which checks what play meets at its start, said nothing of it while the tray
    stopped on it (events74 RISK 2)."""
    if config.text("play.mode") != "dice":
        return config, dict(marks)
    # Here, not with the module: config --show imports no engine (reviewe68 RISK 2).
    from companion.app.commands.events import load_user_rules, refused_rules

    texts = [f"{line}; the dice tray (play --mode dice) starts, and its tables that read "
             "it stop" for line in refused_rules(load_user_rules([]))]
    if not texts:
        return config, dict(marks)
    return (replace(config, notices=(*config.notices, *texts),
                    problems=(*config.problems, *texts)),
            {**marks, "play.mode": TRAY_RULES_REFUSED})


#: The mark on ``play.mode = "genso"``'s line when the player's genso.toml is refused as a
#: genso fight at the table reads it: ``play`` stops on it at its start (setup75 DEFECT 1).
TABLE_RULES_REFUSED = "genso.toml refused: play stops on it プレイが止まります"


def table_rules_checked(config: Config,
                        marks: Mapping[str, str]) -> tuple[Config, dict[str, str]]:
    """``config`` with what a fight table (``play.mode`` genso or coc) stops on at its start
    added to its problems, ``play.mode``'s line marked. play stopped on it (exit 2, again at
    each start of the boot service) while ``config --show`` exited 0 (setup75 DEFECT 1;
    events.toml is checked so for the tray, :func:`tray_rules_checked`).

    For genso, the player's genso.toml read as ``play --mode genso`` reads it (the rules a
    saved fight falls back on, ``saved_fight_rules``): its refusal (the file, and the key
    and value refused, or the file not TOML) marks the line :data:`TABLE_RULES_REFUSED`.
    coc.toml is not read at a coc table's start, so it is not checked here.

    With neither the fight file nor the table's save there (no fight made yet), play stops
    on "no fight at … yet" (``no_fight_yet``), which is said too, for a coc table as for a
    genso one (the coc one passed: setup75), and genso.toml is read with its ranges, as
    ``genso fight new``, the command that message names, reads it: the check passed, play
    stopped, and the command it named refused the file (reviewsetup75 RISK 4)."""
    mode = config.text("play.mode")
    if mode not in ("genso", "coc"):
        return config, dict(marks)
    # Here, not with the module: config --show imports no engine (reviewe68 RISK 2).
    from companion.app.modes.fight_file import read_fight_data

    # play's default files (table_files): config --show has no --fight or --state.
    fight, state = data_dir() / mode / "fight.json", data_dir() / mode / "table.json"
    no_fight = not fight.exists() and not state.exists()
    texts, mark = [], PLAY_STOPS
    if mode == "genso":
        from companion.app.commands.genso import load_user_rules, saved_fight_rules

        try:
            load_user_rules([]) if no_fight else saved_fight_rules([])
        except CompanionError as exc:
            texts.append(f"{exc}; " + ("genso fight new, which makes the fight a genso fight "
                                       "(play --mode genso) needs, stops on it" if no_fight
                                       else "a genso fight (play --mode genso) stops on it"))
            mark = TABLE_RULES_REFUSED
    if no_fight:
        if mode == "genso":
            from companion.app.modes.genso.table import start_hint
        else:
            from companion.app.modes.coc.table import start_hint
        try:
            read_fight_data(fight, start_hint(), fight)
        except CompanionError as exc:
            texts.append(f"{exc}; a {mode} fight (play --mode {mode}) stops on it")
    if not texts:
        return config, dict(marks)
    return (replace(config, notices=(*config.notices, *texts),
                    problems=(*config.problems, *texts)),
            {**marks, "play.mode": mark})


#: The mark on the line of a setting ``play`` stops on at its start (a pin two parts
#: share, a hold not longer than the other, a file not there): the value in effect.
PLAY_STOPS = "play stops on it プレイが止まります"

#: The Pi's serial pin a reader is read on. Only GPIO15 (RXD): the RDM6300's own RX is not
#: connected (hardware/wiring.md), and the pin mux is per pin, so a part on GPIO14 (TXD)
#: takes only the port's TXD, which nothing listens to; it is warned of as a pin to avoid
#: (reviewa73 DEFECT 1: it was refused, saying the reader held it).
UART_PINS = {
    15: "the serial port's RXD, on which {reader} reads its tags: opened as a GPIO pin it is "
        "taken from the port, and the reader reads nothing",
}
#: The ports on the Pi's serial pins (GPIO14/15), as an RDM6300 is read on them: "" is
#: /dev/serial0, the reader's default; ttyAMA0 is a Pi 5's with uart0 on (wiring.md).
UART_PORTS = ("", "/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")


def uart_reader(config: Config) -> str | None:
    """The RDM6300 of a game read on the Pi's serial pins, as a clash names it (its
    settings, where they came from), or None. A part on GPIO15 there takes the pin from the
    UART when opened (the Pi's pin controller is not strict), and the reader reads nothing: it
    was only warned of, as a pin the wiring guide says to avoid (keys73 RISK 2)."""
    if config.text("play.mode") != "game" or config.text("input.kind") != "rfid" \
            or config.text("input.rfid_kind") != "rdm6300" \
            or config.text("input.rfid_port").strip() not in UART_PORTS:
        return None
    port = config.text("input.rfid_port").strip() or "/dev/serial0"
    return (f"the RDM6300 on {port} ({config.where('input.rfid_kind')}, "
            f"{config.where('input.rfid_port')})")


#: Each part wired to the Pi's pins as a sentence names it, by its ``buttons.`` setting's.
PART_NAMES = {"attack": "A button", "flee": "B button", "ranged": "R button",
              "item": "I button", "led": "LED", "buzzer": "buzzer"}

#: The parts wired to the Pi's pins, by their ``buttons.`` settings.
PIN_SETTINGS = tuple(f"buttons.{part}_pin"
                     for part in ("attack", "flee", "ranged", "item", "led", "buzzer"))


def pin_check(config: Config) -> tuple[list[tuple[tuple[str, ...], str]], list[str]]:
    """The buttons' pins checked, as ``(clashes, warnings)``: every two parts on one GPIO
    pin, which would fight, as ``(settings, problem)``, both settings named with where
    their values came from (a clash from an environment variable is in no config.toml the
    player reads, keys71 DEFECT 1) and both marked by ``config --show`` (reviewk71 NIT 1:
    only the later was, at times the built-in default rather than the line the player
    wrote); a part on the serial pins an RDM6300 is read on (:func:`uart_reader`), as a
    clash of the part and the reader; and a pin the wiring guide says to avoid, allowed
    (the player may have freed it) but warned about, as are two or more parts set to the
    header pins the wiring guide wires them to (:func:`header_pins_written`); such a part's
    pin is not warned of as one to avoid too, its header pin being no GPIO chosen."""
    used: dict[int, str] = {}
    clashes: list[tuple[tuple[str, ...], str]] = []
    warnings: list[str] = []
    reader = uart_reader(config)
    # Two or more parts on the header pins wiring.md wires them to ("GPIO17 [11]" copied as
    # 11): legal BCM numbers, so taken, and no button answers (keys75 RISK 2). One alone
    # may be a pin chosen so; two are the wiring table's other column.
    written = header_pins_written({key.removeprefix("buttons.").removesuffix("_pin"):
                                   config.integer(key) for key in PIN_SETTINGS})
    # One alone is said where its pin is a problem: most likely the header pin, and "give
    # each part its own pin" or "avoid it" alone sent the maker to move the other part, or
    # off the pin (a77keys RISK 2). Two or more are said by the warning alone, each once:
    # a clash said "write buzzer_pin = 25" and the warning said it again (r77keys NIT).
    header_notes = {f"buttons.{part}_pin": f"; {pin} is the header pin of GPIO{gpio}, which "
                    f"hardware/wiring.md wires the {PART_NAMES[part]} to: write "
                    f"{part}_pin = {gpio}" for part, pin, gpio in written if len(written) < 2}
    if len(written) < 2:
        written = []
    # Their pins are not warned of as pins to avoid: "ranged_pin = 15" is header pin 15
    # (GPIO22), not GPIO15 chosen, and "GPIO15 ... avoid it", said first, sent the maker
    # off that pin rather than to 22 (a76maker NIT 2).
    header_written = {f"buttons.{part}_pin" for part, _, _ in written}
    for key in PIN_SETTINGS:
        pin = config.integer(key)
        if pin < 0:
            continue
        if pin in used:
            clashes.append(((key, used[pin]),
                            f"{config.where(key)} and {config.where(used[pin])} are both "
                            f"GPIO{pin}; give each part its own pin"
                            f"{header_notes.get(used[pin], '')}{header_notes.get(key, '')}"))
            continue
        if reader is not None and pin in UART_PINS:
            clashes.append(((key, "input.rfid_kind"),
                            f"{config.where(key)} is GPIO{pin}, "
                            f"{UART_PINS[pin].format(reader=reader)}; give the part another "
                            f"pin{header_notes.get(key, '')}"))
            continue
        used[pin] = key
        if pin in PINS_TO_AVOID and key not in header_written:
            warnings.append(f"{config.where(key)} is GPIO{pin}, {PINS_TO_AVOID[pin]}" + (
                header_notes.get(key) or "; hardware/wiring.md says to avoid it"))
    if (header_warning := header_pins_warning(config)) is not None:
        warnings.append(header_warning)
    return clashes, warnings


def header_pins_warning(config: Config) -> str | None:
    """The warning of two or more parts set to the header pins wiring.md wires them to
    (:func:`pin_check`), or None."""
    written = header_pins_written({key.removeprefix("buttons.").removesuffix("_pin"):
                                   config.integer(key) for key in PIN_SETTINGS})
    if len(written) < 2:
        return None
    settings = ", ".join(f"{config.where(f'buttons.{part}_pin')} = {pin}"
                         for part, pin, _ in written)
    meant = ", ".join(f"{part}_pin = {gpio} (header pin {pin} is GPIO{gpio})"
                      for part, pin, gpio in written)
    # Said as a likelihood: two may match by chance (item 16 and an LED on PWM GPIO18),
    # and the LED is no button (reviewkeys75 NIT 2).
    return (f"{settings} are the header pins hardware/wiring.md wires those parts to, not "
            "their BCM GPIO numbers, which the settings take: wired as wiring.md shows, "
            f"nothing is on those GPIOs and those parts do nothing; then write {meant}")


def refused_pins(config: Config) -> list[tuple[tuple[str, ...], str]]:
    """Each part's pin whose value was refused (``flee_pin = 40``, a header pin for a BCM
    number), as ``(settings, problem)``, said as its refusal was: play stops on it (with
    ``choices.kind = "gpio"``). It ran that part on the built-in pin (GPIO27 for flee), the
    one it is wired to never read, after a notice (keys73 NIT 3). A value that replaced
    the one refused (the environment's over a config.toml's) is the pin: none."""
    return [((key,), why) for key in PIN_SETTINGS
            if config.settings[key].source in (Source.DEFAULT, Source.FILE)
            for why in config.refusals.get(key, ())]


def hold_problem(config: Config) -> str | None:
    """The item button held for the System menu must be held longer than for the menu, or
    one of the two could never be pressed: what is wrong, or None."""
    long_press = config.number("buttons.long_press_seconds")
    system_press = config.number("buttons.system_press_seconds")
    if system_press > long_press:
        return None
    return (f"{config.where('buttons.system_press_seconds')} is {system_press:g} s, not longer "
            f"than {config.where('buttons.long_press_seconds')} ({long_press:g} s): the "
            "System menu needs the longer hold")


def start_problems(config: Config) -> list[tuple[tuple[str, ...], str]]:
    """Every setting ``play`` stops on at its start, as ``(settings, problem)``, all at once
    (keys71 DEFECT 1: one was said per start, and ``config --show`` said none): a display
    and choices that cannot go together (:func:`pairing_problems`), with the buttons
    (``choices.kind = "gpio"``) their pins (one refused too) and hold times, with the screen a
    ``display.font`` not there or no font (:func:`font_problems`), for a game read by the
    camera an ``input.camera_source`` that can name no camera, and for one read by the RFID
    tray an ``input.rfid_port`` URL pyserial opens none of (:func:`unknown_port_url`).
    ``play`` and ``config`` share this one check (setup73 DEFECT 1: config passed all but
    the pins, holds and a missing file, and play stopped on them)."""
    problems = pairing_problems(config)
    if config.text("choices.kind") == "gpio":
        problems += refused_pins(config) + pin_check(config)[0]
        if (held := hold_problem(config)) is not None:
            problems.append((("buttons.system_press_seconds",), held))
    if config.text("display.kind") == "screen":
        problems += font_problems(config)
    if config.text("play.mode") == "game" and config.text("input.kind") == "camera":
        key = "input.camera_source"
        if (reason := mistyped(config.text(key)) or missing_source(config, key)) is not None:
            problems.append(((key,), f"{config.where(key)}: {reason}"))
    if config.text("play.mode") == "game" and config.text("input.kind") == "rfid" \
            and (reason := unknown_port_url(config)) is not None:
        problems.append((("input.rfid_port",), f"{config.where('input.rfid_port')}: {reason}"))
    return problems


def unknown_port_url(config: Config) -> str | None:
    """Why ``input.rfid_port`` is a URL of a scheme pyserial opens none of (``bogus://x``),
    or None. Play refused it at the reader's opening (rfid75 NIT 5), after a
    ``config --show`` that passed it, and then asked whether there was no camera, buttons
    or screen here (a laptop) (reviewrfid75 RISK 1). pyserial is imported only here, for a
    game read by the RFID tray."""
    port = config.text("input.rfid_port")
    if "://" not in port:
        return None
    from companion.hw.rfid.link import unknown_url

    return unknown_url(port)


def missing_source(config: Config, key: str) -> str | None:
    """Why the camera source ``key`` names a picture, folder or video that is not there
    (the full path, and how a relative one was taken), or None: it passed ``config --show``
    and play stopped on it, then asked whether there was no camera here (a laptop) when the
    path was mistyped (setup75 RISK 3). A camera (``camera:0``, ``picamera``) and anything
    under /dev/ (a webcam's node comes when it is plugged in) are not looked for, but for
    /dev/shm/, a folder of files (a temporary folder may be there): one missing there is
    said so too, where it was opened as a camera not there, and asked whether there was no
    camera here (a laptop), after a System-menu switch to JongRogue (fixsetup75's left)."""
    written = config.text(key)
    if not names_a_file(written):
        return None
    if (unknown_home := home_not_found(written)) is not None:
        return unknown_home
    path = config.file_path(key)
    if path is None or (written.startswith("/dev/") and not written.startswith("/dev/shm/")):
        return None
    try:
        if path.exists():
            return None
    except OSError as exc:
        # A stick udisks mounted under another user's /media/<user> (mode 0750): exists()
        # raised EACCES, and config --show stopped before its listing (reviewsetup75 RISK 3).
        return (f"{path.absolute()}: cannot be looked at ({exc.strerror or exc}): the user "
                "companion runs as may not open a folder on the way to it")
    base = "config.toml's folder" if config.settings[key].source is Source.FILE \
        else "the current folder"
    relative = "" if Path(written).expanduser().is_absolute() else \
        f" (the relative path {written} is taken from {base})"
    # Under /media/ or /mnt/ the path may be right and the stick not there yet: "mend it"
    # alone sent the player to change a correct setting (reviewsetup75 NIT 6).
    stick = " (a USB stick not in, or not yet mounted?)" \
        if path.absolute().parts[1:2] in (("media",), ("mnt",)) else ""
    return (f"{path.absolute()}: no such picture, folder or video{relative}{stick}; cameras "
            "are camera:0, /dev/video0 or picamera")


def said_setting(config: Config, key: str, value: object | None = None) -> str:
    """``key`` given ``value`` (its own, by default) as the player set it, for a message:
    ``--display none`` when typed as a flag, ``--set display.kind=none``,
    ``COMPANION_DISPLAY_KIND=none``, ``display.kind = "none" in …/config.toml``, or
    ``choices.kind = "gpio" (the default)``: a value from config.toml was said as a flag the
    player never typed (setup73 DEFECT 1)."""
    setting = config.settings[key]
    shown = setting.value if value is None else value
    if setting.source is Source.COMMAND_LINE:
        joint = "=" if setting.origin.startswith("--set ") else " "
        return f"{setting.origin}{joint}{shown}"
    if setting.source is Source.ENV:
        return f"{setting.origin}={shown}"
    where = " (the default)" if setting.source is Source.DEFAULT else f" in {setting.origin}"
    return f"{key} = {json.dumps(shown, ensure_ascii=False)}{where}"


#: play's flags for the settings :func:`pairing_problems` pairs (as play's FLAG_KEYS gives
#: them): a default's remedy beside a flag the player typed is given as a flag.
PLAY_FLAGS = {"play.mode": "--mode", "display.kind": "--display", "choices.kind": "--choices"}


def typed_flag(config: Config, key: str) -> bool:
    """Whether ``key`` was given by a flag of play's typed (``--display none``), not
    ``--set``."""
    setting = config.settings[key]
    return setting.source is Source.COMMAND_LINE and not setting.origin.startswith("--set ")


def remedy(config: Config, key: str, values: tuple[str, ...], flags: bool = False) -> str:
    """How to give ``key`` one of ``values``, where the player set it: ``use --display
    terminal or screen`` for a flag, ``set display.kind = "terminal" or "screen"`` for a
    setting (config.toml, the environment, or the default, changed in config.toml). With
    ``flags`` (the player typed a flag of the problem's) a default is given by its flag,
    there to be typed beside it (reviewa73 NIT 9: `play --display none` was told to set
    choices.kind = "auto" in config.toml, where it had said "or --choices auto")."""
    setting = config.settings[key]
    if typed_flag(config, key):
        return f"use {setting.origin} {' or '.join(values)}"
    if flags and setting.source is Source.DEFAULT and key in PLAY_FLAGS:
        return f"use {PLAY_FLAGS[key]} {' or '.join(values)}"
    if setting.source is Source.ENV:
        return f"set {setting.origin}={' or '.join(values)}"
    return f"set {key} = {' or '.join(json.dumps(v) for v in values)}"


#: The modes that are a table for a player (play.mode), and what each is called.
TABLES = {"dice": "the dice tray", "genso": "a genso fight", "coc": "a coc fight"}


def pairing_problems(config: Config) -> list[tuple[tuple[str, ...], str]]:
    """``play.mode``, ``display.kind`` and ``choices.kind`` that cannot go together, each
    said by its setting and where it came from (:func:`said_setting`): a table (the dice
    tray, a fight) needs a display and a player; with no display nothing shows a player
    the choices. The settings named are those not at their default (the ones to mend)."""
    mode, display, choices = (config.text(key) for key in
                              ("play.mode", "display.kind", "choices.kind"))
    if mode in TABLES and (display == "none" or choices == "auto"):
        bad = [key for key, wrong in (("display.kind", display == "none"),
                                      ("choices.kind", choices == "auto")) if wrong]
        fixes = {"display.kind": ("screen", "terminal"), "choices.kind": ("gpio", "keyboard")}
        flags = any(typed_flag(config, key) for key in ("play.mode", *bad))
        text = (f"{TABLES[mode]} needs a display and a player ({said_setting(config, 'play.mode')}"
                f"), not {' and '.join(said_setting(config, key) for key in bad)}: "
                + ", and ".join(remedy(config, key, fixes[key], flags) for key in bad))
        return [(_mended(config, ("play.mode", *bad)), text)]
    if display == "none" and choices != "auto":
        flags = any(typed_flag(config, key) for key in ("display.kind", "choices.kind"))
        text = (f"with {said_setting(config, 'display.kind')} nothing shows the choices of "
                f"{said_setting(config, 'choices.kind')}: "
                f"{remedy(config, 'display.kind', ('terminal', 'screen'), flags)}, or "
                f"{remedy(config, 'choices.kind', ('auto',), flags)}")
        return [(_mended(config, ("display.kind", "choices.kind")), text)]
    return []


def _mended(config: Config, keys: tuple[str, ...]) -> tuple[str, ...]:
    """Of ``keys``, those set somewhere (not their default): the lines to mark."""
    return tuple(key for key in keys if config.settings[key].source is not Source.DEFAULT) \
        or keys


def font_problems(config: Config) -> list[tuple[tuple[str, ...], str]]:
    """``[(("display.font",), problem)]`` when the font file is not there, or is there but
    is no font the screen can draw with (opened as the screen opens it: a file of another
    kind passed ``config --show`` and stopped ``play``, setup73 DEFECT 1); else ``[]``.
    Without pygame (no screen to draw on) only the file is looked for."""
    def drawn(path: Path) -> str | None:
        try:
            import pygame.freetype
        except ImportError:
            return None
        try:
            pygame.freetype.init()
            pygame.freetype.Font(str(path), 16)
        except (OSError, pygame.error) as exc:
            return f"{path}: not a font the screen can draw with ({exc})"
        return None
    return _file_problems(config, "display.font", drawn)


#: The mark on the line of a ``display.font`` that draws no Japanese: the screen plays on.
NO_JAPANESE = "no Japanese in it: the screen shows English only 日本語が出ません"


def font_checked(config: Config, marks: Mapping[str, str]) -> tuple[Config, dict[str, str]]:
    """``config`` with a ``display.font`` that draws no Japanese said in its notices, as the
    screen says it on opening (:func:`~companion.hw.display.fonts.say_no_japanese`), and its
    line marked :data:`NO_JAPANESE`: the screen drops every Japanese half, and neither said
    why (a78screen RISK 3). No problem: play goes on, and the exit stays 0. A font not there
    or no font at all is :func:`font_problems`'."""
    # Imported here: `companion config` loads nothing of the screen unless a font is set
    # (reviewe68 RISK 2's start-up time, test_config_imports_no_tray).
    from companion.hw.display.fonts import no_japanese_note

    key = "display.font"
    path = config.file_path(key) if not font_problems(config) else None
    if path is None or _draws_japanese(path):
        return config, dict(marks)
    return (replace(config, notices=(*config.notices, f"note: {no_japanese_note(path)}")),
            {**marks, key: NO_JAPANESE})


def _draws_japanese(path: Path) -> bool:
    """Whether the font file has the screen's Japanese (asked as the screen asks it); True
    without pygame, where there is no screen to draw on."""
    try:
        import pygame.freetype
    except ImportError:
        return True
    from companion.hw.display.fonts import JAPANESE_PROBE

    pygame.freetype.init()
    return pygame.freetype.Font(str(path), 16).get_metrics(JAPANESE_PROBE)[0] is not None


def missing_file(config: Config, key: str) -> list[tuple[tuple[str, ...], str]]:
    """``[((key,), problem)]`` when the setting names a file that is not there, else ``[]``."""
    try:
        config.existing_file(key)
    except DataError as exc:
        return [((key,), str(exc))]
    return []


def _file_problems(config: Config, key: str, read: Callable[[Path], str | None]
                   ) -> list[tuple[tuple[str, ...], str]]:
    """``[((key,), problem)]`` when the file the setting names is not there, or ``read``
    (the file's path) says what is wrong with it, named with the setting; else ``[]``."""
    found = missing_file(config, key)
    if found:  # file_path raises what missing_file said (a ~user not here)
        return found
    path = config.file_path(key)
    if path is None:
        return found
    problem = read(path)
    return [] if problem is None else [((key,), f"{config.where(key)}: {problem}")]


def profile_problems(config: Config) -> list[tuple[tuple[str, ...], str]]:
    """``[(("game.profile",), problem)]`` when the profile is not there, or is there and
    refused as a new game, ``rules`` and ``simulate`` refuse it (read, not only looked for:
    a key misspelt passed ``config --show``, setup73 DEFECT 1); else ``[]``."""
    def loaded(path: Path) -> str | None:
        # Here, not with the module: config --show imports no engine (reviewe68 RISK 2).
        from companion.systems.jongrogue.profile import load_profile

        try:
            load_profile(path)
        except (CompanionError, OSError) as exc:
            return str(exc)
        return None
    return _file_problems(config, "game.profile", loaded)


def start_checked(config: Config, marks: Mapping[str, str]) -> tuple[Config, dict[str, str]]:
    """``config`` with what :func:`start_problems` finds, and a ``game.profile`` missing or
    refused (:func:`profile_problems`: a new game, ``rules`` and ``simulate`` stop on it;
    setup71 DEFECT 1), added to its problems, and each setting's line marked
    :data:`PLAY_STOPS`: ``config --show`` is the check of an edited file the docs send the
    player to, and passed what ``play`` refused.
    The warnings ``play`` says at its start (a pin to avoid) are added to its notices
    alone: said, and the exit left 0."""
    found = start_problems(config) + profile_problems(config)
    said = set(refused_pins(config))  # said as its value was refused, and a problem so
    texts = [problem if keys != ("game.profile",) else f"{problem}; a new game, rules and "
             "simulate stop on it" for keys, problem in found if (keys, problem) not in said]
    # A pin the wiring guide says to avoid, as play warns of it at its start: said, but no
    # problem, for play goes on (reviewk71 NIT 2: config --show, the maker's check, said
    # nothing of it).
    warnings = [f"warning: {warning}" for warning in pin_check(config)[1]] \
        if config.text("choices.kind") == "gpio" else []
    return (replace(config, notices=(*config.notices, *texts, *warnings),
                    problems=(*config.problems, *texts)),
            {**marks, **{key: PLAY_STOPS for keys, _ in found for key in keys}})


#: The mark on the line of a ``dice.camera_source`` naming a picture, folder or video not
#: there, at a table reading its dice by camera: play goes on, and asks to type the dice.
DICE_TYPED = "the table asks to type the dice instead 手入力を尋ねます"


def dice_camera_checked(config: Config, marks: Mapping[str, str]
                        ) -> tuple[Config, dict[str, str]]:
    """``config`` with a dice camera (``dice.camera_source``) that names a picture, folder
    or video not there (:func:`missing_source`, as ``input.camera_source`` is checked) added
    to its problems, at a table (``play.mode`` not "game") whose dice the camera reads
    (``dice.source = "camera"``), its line marked :data:`DICE_TYPED`: no stop, for the
    table asks at its start to type the dice instead, but under the boot service a maker
    who checked with ``config --show`` met that question only at the table (maker75 NIT
    6: exit 0, no mark). With "auto" the dice camera is ``input.camera_source``: that one
    is looked for, and marked."""
    key = "dice.camera_source"
    if config.text(key) == "auto":
        key = "input.camera_source"
    if config.text("play.mode") == "game" or config.text("dice.source") != "camera":
        return config, dict(marks)
    reason = missing_source(config, key)
    if reason is None:
        return config, dict(marks)
    text = f"{config.where(key)}: {reason}; the table asks at its start to type the dice instead"
    return (replace(config, notices=(*config.notices, text),
                    problems=(*config.problems, text)),
            {**marks, key: DICE_TYPED})


def said_together(problems: list[str], remedy: str) -> str:
    """Several problems as one error: the count first, each said, then what to do
    (``remedy`` with ``{}`` for "it" or "them")."""
    if len(problems) == 1:
        return f"{problems[0]} ({remedy.replace('{}', 'it')})"
    listed = "; ".join(f"({n}) {problem}" for n, problem in enumerate(problems, 1))
    return f"{len(problems)} problems with the settings: {listed} ({remedy.replace('{}', 'them')})"


def as_json(config: Config) -> dict[str, Any]:
    return {
        "path": str(config.path),
        "data_folder": str(data_dir()),
        "settings": {
            key: {"value": s.value, "source": s.source.value, "origin": s.origin,
                  "help": explain(s.spec), "env": s.spec.env_var}
            for key, s in config.settings.items()
        },
        "notices": list(config.notices),
        "problems": list(config.problems),
    }


def explain(spec: Spec) -> str:
    """What a setting does, and the values it takes when they are a closed set or a range."""
    if spec.choices:
        return f"{spec.help} (one of: {', '.join(spec.choices)})"
    if spec.minimum is not None and spec.maximum is not None:
        return f"{spec.help} ({spec.minimum:g} to {spec.maximum:g})"
    if spec.minimum is not None:
        return f"{spec.help} (at least {spec.minimum:g})"
    return spec.help


def render(config: Config, columns: int | None = None,
           marks: Mapping[str, str] | None = None) -> str:
    """Aligned ``key = value  # source (origin)`` lines, grouped by section, each under a
    comment saying what it does: the user reads here what config.toml can hold, and where
    the config file and the data folder (the save, fight files, camera_check.jpg) are. The
    comments are wrapped to the terminal's ``columns``, each line a comment: the terminal
    wrapped lines of up to 152 cells at 80, their rest no comment (newuser61 N4). A value
    refused is named on its setting's line, and the notices are said again at the end,
    where they are still on the screen when the listing has scrolled (setup64 RISK 1)."""
    columns = columns or shutil.get_terminal_size().columns
    data = data_dir()
    lines = comment(f"config file: {config.path}" + file_state(config.path), columns)
    lines += comment("In config.toml write a setting under its section: [display] then kind = "
                     "\"terminal\"; or set COMPANION_<SECTION>_<KEY> (COMPANION_DISPLAY_KIND).",
                     columns)
    in_the_way = file_in_the_way(data / "save.json")
    state = "" if data.is_dir() else "; not created" if in_the_way is None \
        else f"; {in_the_way} is a file, not a folder"
    lines += comment(f"data folder: {data} (the save, the history, fight files, "
                     f"camera_check.jpg{state})", columns)
    width = max(len(k) for k in config.settings)
    section = ""
    for key, s in config.settings.items():
        head = key.split(".", 1)[0]
        if head != section:
            section = head
            lines += ["", f"# [{head}]"]
        value = json.dumps(s.value, ensure_ascii=False)
        # The config file by its name: the header gives its path, and a Pi's (99 columns)
        # folded each line's mark below it, out of `config --show | grep` (reviewa73 RISK 6).
        origin = config.path.name if s.source is Source.FILE and s.origin == str(config.path) \
            else s.origin
        where = "default" if s.source is Source.DEFAULT else f"{s.source.value}: {origin}"
        if key in config.refused:
            where += f" ({' and '.join(config.refused[key])} refused)"
        if marks and key in marks:  # a value in effect that something stops on
            where += f" ({marks[key]})"
        lines += comment(explain(s.spec), columns)
        lines += setting_line(f"{key:<{width}} = {value:<12}", where, columns)
    return "\n".join(lines + said_again(config, columns))


#: Begins the line a setting's ``# where`` is folded onto, under it (:func:`setting_line`).
FOLDED = "#   ^ "


def setting_line(setting: str, where: str, columns: int) -> list[str]:
    """``setting  # where``, or, past ``columns``, the setting alone and its ``where``
    folded below it, each line a comment begun :data:`FOLDED` (then ``#     ``): a mark
    such as ``# file: …/config.toml (play stops on it プレイが止まります)`` ran to 123
    cells, and a Pi's console wrapped it to column 0 (setup73 NIT 7). A path too wide
    for a line is kept whole (:func:`cell_wrap`)."""
    line = f"{setting} # {where}"
    if cell_len(line) <= columns:
        return [line]
    folded = exact_wrap(where, max(columns - len(FOLDED), 20))
    return [setting.rstrip(), f"{FOLDED}{folded[0]}", *(f"#     {part}" for part in folded[1:])]


def file_state(path: Path) -> str:
    """What ``config --show`` says after the config file's path when it is not there: a
    link whose target is gone was said "(not created)" (setup73 NIT 4), and so was a folder
    of its that is a file."""
    if path.exists():
        return ""
    if path.is_symlink():
        return " (a link to a file not there)"
    # A file where its folder is wanted was said "(not created)" too (setup75 NIT 4).
    in_the_way = file_in_the_way(path)
    return " (not created)" if in_the_way is None else f" ({in_the_way} is a file, not a folder)"


def said_again(config: Config, columns: int) -> list[str]:
    """The notices, said on stderr before the listing, again after it as comments: the
    problems under a line that counts them, then the others (an earlier word read as
    today's) under one of their own, so the count is the bullets under it (review64c NIT 1)."""
    problems = [n for n in config.notices if n in config.problems]
    others = [n for n in config.notices if n not in config.problems]
    lines: list[str] = []
    n = len(problems)
    for head, notices in (
            (f"{n} {'problem' if n == 1 else 'problems'} with the settings, said at the top as "
             f"well (this exits 1 until {'it is' if n == 1 else 'they are'} mended):", problems),
            ("Said at the top as well" + (", and no problem:" if n else ":"), others)):
        if not notices:
            continue
        lines += ["", *comment(head, columns)]
        for notice in notices:
            wrapped = exact_wrap(notice, max(columns - 4, 20))
            lines += [f"# - {wrapped[0]}", *(f"#   {line}" for line in wrapped[1:])]
    return lines


#: Stands for a space :func:`exact_wrap` keeps while the words are wrapped: a private-use
#: character, which no notice holds.
_HOLD = "\ue000"


def exact_wrap(text: str, width: int) -> list[str]:
    """``text`` wrapped as :func:`cell_wrap` wraps it, but a run of spaces other than one
    plain space (two spaces, a full-width ``　``, a tab) kept as it is, not a place to
    break: a notice quotes the value refused, and ``found "  "`` (spaces only, refused as
    empty) was said ``found " "`` under the listing, not the value in the file (reviewe70
    NIT 4). Line ends stay the wrap's."""
    kept: list[str] = []

    def hold(match: re.Match[str]) -> str:
        kept.extend(match.group())
        return _HOLD * len(match.group())

    held = re.sub(r"[^\S\n]{2,}|[^\S \n]", hold, text)
    spaces = iter(kept)
    return ["".join(next(spaces) if c == _HOLD else c for c in line)
            for line in cell_wrap(held, width)]


def comment(text: str, columns: int) -> list[str]:
    """``text`` as comment lines of at most ``columns`` cells, each begun with ``# ``."""
    return [f"# {line}" for line in cell_wrap(text, max(columns - 2, 20))]
