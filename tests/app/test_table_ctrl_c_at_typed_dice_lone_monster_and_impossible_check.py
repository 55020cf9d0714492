"""tables65's NITs: Ctrl-C at a typed die says what it says at the end of input (NIT 1), a lone
monster answers to orc1 (NIT 3), a genso check that cannot succeed asks no dice (NIT 4), the
no-fight hint starts the fight where the table looks (NIT 5), and ``--d100`` with no camera
is refused (NIT 6)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.modes import coc, genso
from companion.app.session.controls import Controls
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollAsk, Throw
from companion.app.session.system_menu import SystemMenu
from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.hw.buttons import Button, Press
from companion.hw.keyboard import press_for_key
from companion.systems.genso.checks import general_check, simple_check
from companion.systems.genso.combat import ENGINE, Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.coc_command_helpers import sheets
from tests.app.table import Player as TablePlayer
from tests.app.typed_terminal_helpers import Terminal

RULES = load_rules()


def fight_file(user_dirs: Path, system: str) -> Path:
    return user_dirs / "data" / system / "fight.json"


def test_ctrl_c_at_a_genso_damage_die_says_nothing_was_saved_and_the_dice_taken(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """NIT 1: Ctrl-C at the damage prompt exited 130 saying nothing; it says, as the end of
    input does, that nothing was saved and to run the command again, with the to-hit typed."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:2"]) == 0
    path = fight_file(user_dirs, "genso")
    before = path.read_bytes()
    capsys.readouterr()
    terminal = Terminal("4 5")
    monkeypatch.setattr("sys.stdin", terminal)
    assert main(["genso", "fight", "attack", "pc1", "orc1", "--dice", "typed"]) == 130
    err = capsys.readouterr().err
    assert terminal.read == 1  # stopped at the second roll, the damage's
    said = " ".join(err.split())
    assert "stopped before damage" in said and "was typed: nothing was saved, and any dice " \
        "typed before it are dropped; run the command again" in said
    assert "the dice taken so far 入力済 (not saved):" in said
    assert ": 4 5" in said  # the to-hit, as typed
    assert path.read_bytes() == before


def test_ctrl_c_at_a_coc_d100_says_so_too(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """NIT 1: ``coc fight act`` and ``coc roll`` alike; at the first die, no dice taken."""
    ann, cult = sheets(user_dirs)
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult]) == 0
    path = fight_file(user_dirs, "coc")
    before = path.read_bytes()
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", Terminal())
    assert main(["coc", "fight", "act", "attack", "Ann", "Cult", "--dice", "typed"]) == 130
    said = " ".join(capsys.readouterr().err.split())
    assert "stopped before Ann キック/Kick (1D100<=60) to hit 命中 was typed: nothing was " \
        "saved" in said
    assert "taken so far" not in said
    assert path.read_bytes() == before
    monkeypatch.setattr("sys.stdin", Terminal())
    assert main(["coc", "roll", "CCB<=50", "--dice", "typed"]) == 130
    assert "was typed: nothing was saved" in " ".join(capsys.readouterr().err.split())


def test_ctrl_c_in_events_is_said_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``events`` says its own walk at a Ctrl-C (say_walked): not the note a second time."""
    monkeypatch.setattr("sys.stdin", Terminal("3"))
    assert main(["events", "monster", "--dice", "typed"]) == 130
    err = capsys.readouterr().err
    assert "(awaiting" in err and "stopped before" not in err


def test_a_typed_d66_is_still_read_as_its_two_digits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The source the command hands on keeps typed dice's own D66 reading (35: 3 and 5)."""
    monkeypatch.setattr("sys.stdin", Terminal("35"))
    assert main(["roll", "D66", "--dice", "typed", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 35


@pytest.mark.parametrize("typed", ["orc1", "ORC1", "オーク1", "オーク１", "orc"])
def test_a_lone_monster_answers_to_its_number_one(
    typed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 3: ``orc:1`` makes オーク, unnumbered; ``orc1`` (the help's example) was refused."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:1"]) == 0
    capsys.readouterr()
    assert main(["genso", "fight", "attack", "pc1", typed, "--dice", "sim", "--seed", "1",
                 "--json"]) == 0, capsys.readouterr().err
    entry = json.loads(capsys.readouterr().out)["entry"]
    assert "オーク" in json.dumps(entry, ensure_ascii=False)


def test_orc2_is_still_refused_for_a_lone_orc(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:1"]) == 0
    capsys.readouterr()
    assert main(["genso", "fight", "attack", "pc1", "orc2", "--dice", "sim"]) == 2
    assert "no combatant 'orc2'" in capsys.readouterr().err


def test_an_impossible_genso_check_asks_no_dice() -> None:
    """NIT 4: P = 0/36 (a simple check at 15, a general one at 20 with Magic 4) asks no die:
    the seed gives 2D no automatic success, so no throw could change the failure."""
    check = simple_check(RULES, ScriptedDice([]), "extremely_hard")
    assert not check.success and check.result.dice == ()
    assert check.result.text == "(2D6>15) ＞ 不可能/impossible, not rolled ＞ 失敗/failure"
    adventurer = preset(RULES, "adventurer_m")
    general = general_check(RULES, ScriptedDice([]), adventurer, "magic", "extremely_hard")
    assert not general.success and "not rolled" in general.result.text
    # One that can succeed (P = 1/36 at 11) is still rolled.
    assert simple_check(RULES, ScriptedDice([(6, 6), (6, 6)]), 11).success


def test_an_impossible_check_asks_the_typed_player_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = Terminal()
    monkeypatch.setattr("sys.stdin", terminal)
    assert main(["genso", "check", "simple", "--difficulty", "extremely_hard",
                 "--dice", "typed"]) == 0
    captured = capsys.readouterr()
    assert "Roll 2D6" not in captured.err
    assert "不可能/impossible, not rolled" in captured.out


@pytest.mark.parametrize("system", ["genso", "coc"])
def test_no_fight_hint_names_the_file_asked_and_sheets_by_whole_path(
    tmp_path: Path, system: str
) -> None:
    """NIT 5: for a ``--fight`` not the default, the command printed wrote the default file;
    coc's sample sheets were named from the repository's root."""
    fight, state = tmp_path / "no such.json", tmp_path / "table.json"
    with pytest.raises(DataError) as stopped:
        if system == "genso":
            genso.table_session(RULES, fight, state, resume=True, seed=1, choices=None)  # type: ignore[arg-type]
        else:
            coc.table_session(fight, state, resume=True, seed=1, choices=None)  # type: ignore[arg-type]
    command = str(stopped.value).split("端末で: ", 1)[1]
    words = shlex.split(command)
    assert words[words.index("--file") + 1] == str(fight)
    # coc's goes to the checkout first (review65t NIT 6): its sheets are named from there.
    where = Path(words[1]) if words[0] == "cd" else Path.cwd()
    named = [where / w for w in words if w.endswith(".toml")]
    assert len(named) == (2 if system == "coc" else 0)
    assert all(w.is_file() for w in named)


def test_the_default_fight_file_needs_no_file_option(user_dirs: Path) -> None:
    fight = fight_file(user_dirs, "genso")
    with pytest.raises(DataError) as stopped:
        genso.table_session(RULES, fight, user_dirs / "t.json", resume=True, seed=1,
                            choices=None)  # type: ignore[arg-type]
    assert "--file" not in str(stopped.value)


@pytest.mark.parametrize("argv", [
    ["coc", "roll", "CCB<=50", "--dice", "typed", "--d100", "sim"],
    ["coc", "roll", "CCB<=50", "--dice", "sim", "--d100", "typed"],
])
def test_d100_without_the_camera_is_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """NIT 6: ``--d100`` names where the dice the camera cannot read come from; with no
    camera it was taken and ignored (the d100 asked to be simulated was typed)."""
    terminal = Terminal("30")
    monkeypatch.setattr("sys.stdin", terminal)
    assert main(argv) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert "--d100 goes with --dice camera" in said and "leave --d100 out" in said
    assert terminal.read == 0


def test_play_refuses_d100_without_the_camera(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--mode", "genso", "--dice", "sim", "--d100", "sim",
                 "--display", "terminal", "--choices", "keyboard"]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert "--d100 goes with --dice camera" in said and "every die is simulated" in said


class Player:
    """Presses one press each time a menu is shown, in turn; the prompts shown are kept."""

    def __init__(self, *presses: Press | None) -> None:
        self.presses = list(presses)
        self.pending: list[Press] = []
        self.prompts: list[str] = []
        self.statuses: list[tuple[str, str]] = []  # (prompt, status) of each menu

    def poll(self) -> list[Press]:
        out, self.pending = self.pending, []
        return out

    def show(self, prompt: str, **kwargs: Any) -> None:
        if kwargs.get("options"):
            self.prompts.append(prompt)
            self.statuses.append((prompt, kwargs.get("status", "")))
            assert self.presses, f"no press left for {prompt!r}"
            press = self.presses.pop(0)
            assert press is not None
            self.pending.append(press)


def test_the_system_menu_says_a_throw_typed_part_way_is_asked_again() -> None:
    """NIT 2: a die typed of a 2D6 is not kept (a throw is saved when whole), yet the System
    menu opened over it said "every step is saved": it says the throw is asked again, and
    after Back the throw is asked from its first die, as the menu said."""
    player = Player(press_for_key("4"), Button.SYSTEM, Button.FLEE, press_for_key("1"),
                    press_for_key("2"))
    controls = Controls([player])
    menu = SystemMenu(controls, "genso", 0.0, "", sleep=lambda s: None, service="")
    pad = Keypad(controls, 0.0, "typed 手入力", sleep=lambda s: None)
    throw = menu.answering(lambda: pad.next_throw(RollAsk("to hit", 2, 6), player.show),
                           player.show, lambda: "")
    assert throw == Throw((1, 2))
    heading = next(p for p in player.prompts if p.startswith("System 設定"))
    assert heading == "System 設定: saved 保存済み, but not this throw: typed again 出目は再入力"
    after = player.prompts[player.prompts.index(heading) + 1:]
    assert "(1 of 2)" in after[0]  # asked again from its first die, as said


@pytest.mark.parametrize(("keys", "said"), [((), ""), (("3",), "3_ typed of 1D100")])
def test_a_throw_not_begun_is_all_saved_and_the_d100s_tens_are_said(
    keys: tuple[str, ...], said: str
) -> None:
    """Nothing typed yet: the heading as it was. A d100's tens typed: said as ``3_``."""
    player = Player(*map(press_for_key, keys), Button.SYSTEM, Button.FLEE, press_for_key("3"),
                    press_for_key("0"))
    controls = Controls([player])
    menu = SystemMenu(controls, "coc", 0.0, "", sleep=lambda s: None, service="")
    pad = Keypad(controls, 0.0, "typed 手入力", sleep=lambda s: None)
    assert menu.answering(lambda: pad.next_throw(RollAsk("", 1, 100), player.show),
                          player.show, lambda: "") == Throw((30,))
    heading = next(p for p in player.prompts if p.startswith("System 設定"))
    assert heading == "System 設定: " + (
        "saved 保存済み, but not this throw: typed again 出目は再入力" if said
        else "every step is saved 保存済み")
    status = [s for p, s in player.statuses if p == heading]
    assert status[0] == (f"{said} 入力済: asked again from its first die 最初のダイスから再入力"
                         if said else "")


# --- fixt65b: a table save of engine revision 5 with an impossible check -------------------

GENSO_DATA = Path(__file__).parents[1] / "systems" / "genso" / "data"
PC1 = "駆け出し冒険者１"


def test_a_revision_5_table_save_with_an_impossible_check_replays_as_played(
    tmp_path: Path
) -> None:
    """table_impossible_check_r5*.json, written by revision 5 (before NIT 4): the GM's simple
    check at 15 and PC 1's Magic check at 20 (both P = 0/36), each thrown, a simple check at
    7, PC 1's attack and PC 2's Healing, then a stop. The impossible checks took no die
    after NIT 4, so their throws went to the next menu and the save was kept aside as
    corrupt. Resumed, it plays on by revision 5: the same answers, the same checks and
    entries as the revision-5 table had (its ``_events.json``), and an impossible check
    called now is thrown, as that table would have."""
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    (fight).write_bytes((GENSO_DATA / "table_impossible_check_r5_fight.json").read_bytes())
    saved = json.loads((GENSO_DATA / "table_impossible_check_r5.json").read_text(
        encoding="utf-8"))
    played = json.loads((GENSO_DATA / "table_impossible_check_r5_events.json").read_text(
        encoding="utf-8"))
    assert saved["fight"]["version"] == 5 and saved["inputs"][4] == "5,3"
    assert [e["result"]["chance"] for e in played if "call" in e] == ["0/36", "0/36", "15/36"]
    saved["fight_path"] = str(fight.resolve())
    state.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    told: list[str] = []
    session = genso.table_session(RULES, fight, state, resume=True, seed=None,
                                  choices=TablePlayer([]), tell=told.append)
    try:
        session.run()
    except KeyboardInterrupt:
        pass
    mode = session.mode
    assert isinstance(mode, genso.GensoFightMode) and mode.fight.engine == 5
    assert mode.journal == saved["inputs"]
    replayed = [e.to_json() for e in mode.history()]
    # Written today, each entry names the revision that played it (5), as ENGINE is not 5.
    assert [e.pop("engine", None) for e in replayed] == [None] * 3 + [5, 5]
    assert replayed == played
    assert not list(tmp_path.glob("table.json.corrupt*")) and not told
    for key in ("gm", "check", "c:simple", "d:extremely_hard"):
        mode.restore(key)
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and (ask.count, ask.sides) == (2, 6)


class NoDice:
    """Dice that must not be asked for."""

    def next_throw(self, ask: RollAsk, show: Any) -> Throw:
        raise AssertionError(f"a die was asked for: {ask}")


def test_a_new_table_fight_asks_no_dice_for_an_impossible_check(tmp_path: Path) -> None:
    """A fight begun today plays by revision 6 (ENGINE), which does not roll a check that
    cannot succeed: no throw asked, none saved, and the save resumes to the same checks."""
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    genso.write_fight_file(fight, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")], [("orc", 2)])))
    keys = ["gm", "check", "c:simple", "d:extremely_hard",
            "gm", "check", "c:general", "t:" + PC1, "a:magic", "d:extremely_hard", "m:0"]
    session = genso.table_session(RULES, fight, state, resume=False, seed=None,
                                  choices=TablePlayer(keys), rolls=NoDice())
    try:
        session.run()
    except KeyboardInterrupt:
        pass
    mode = session.mode
    assert isinstance(mode, genso.GensoFightMode) and mode.fight.engine == ENGINE >= 6
    saved = json.loads(state.read_text(encoding="utf-8"))
    assert saved["inputs"] == keys and saved["fight"]["version"] == ENGINE
    checked = [e for e in mode.history() if isinstance(e, genso.Checked)]
    assert len(checked) == 2
    assert all(c.check.result.dice == () and not c.check.success for c in checked)
    assert all("不可能/impossible, not rolled" in c.check.result.text for c in checked)
    again = genso.table_session(RULES, fight, state, resume=True, seed=None,
                                choices=TablePlayer([]), rolls=NoDice())
    try:
        again.run()
    except KeyboardInterrupt:
        pass
    assert again.mode.journal == keys  # type: ignore[attr-defined]
    assert [e.to_json() for e in again.mode.history()] == [  # type: ignore[attr-defined]
        e.to_json() for e in mode.history()]
