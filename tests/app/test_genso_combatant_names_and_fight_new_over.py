"""review59a (genso): names, the fight-new refusal, the help, the checks' Defaults at the
table.

- D1/R4: the command line names each combatant as the table does, through one function
  (words.english_names) on the combatant: a player's name holding a monster's
  (オークスレイヤー, オーク) stays whole, and the same combatant reads the same at both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.app.modes.genso.table import read_fight_file
from tests.app.genso_cli_out_helpers import unwrapped
from tests.app.genso_names_helpers import RULES, out


def test_a_name_holding_a_monsters_is_left_whole(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The player's オークスレイヤー was shown オーク/Orcスレイヤー: the monster's name was
    replaced inside it."""
    out(capsys, "new", "オークスレイヤー", "--body", "6", "--perception", "5", "--magic", "4",
        "--skill", "combat", "--seed", "1")
    shown = out(capsys, "fight", "new", "--party", "オークスレイヤー", "--monsters", "orc")
    hit = out(capsys, "fight", "attack", "オークスレイヤー", "オーク", "--seed", "1")
    logged = out(capsys, "fight", "log")
    for text in (shown, hit, logged):
        assert "Orcスレイヤー" not in text and "オーク Orcスレイヤー" not in text, text
    assert "GM-COMBAT-2  オークスレイヤー PC → オーク Orc: " in hit
    assert "オークスレイヤー PC → オーク Orc" in logged
    undone = out(capsys, "fight", "undo")
    assert undone.startswith("undone: オークスレイヤー PC → オーク Orc 攻撃 attack"), undone


def test_the_command_line_and_the_table_name_a_combatant_alike(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`fight show` gave 駆け出し冒険者１/Novice adventurer 1 where the table gives
    駆け出し冒険者１ PC 1; each combatant's row and the action's line now read the same."""
    out(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2")
    hit = unwrapped(out(capsys, "fight", "attack", "pc1", "orc1", "--seed", "1"))
    shown = out(capsys, "fight", "show")
    fight = read_fight_file(RULES, user_dirs / "data" / "genso" / "fight.json")
    view = GensoFightMode(RULES, fight).fight_view()
    labels = [f"{f.name.ja} {f.name.en}" for f in view.fighters]
    assert labels == ["駆け出し冒険者１ PC 1", "駆け出し冒険者２ PC 2", "オーク1 Orc 1",
                      "オーク2 Orc 2"]
    for label in labels:
        assert label in shown, (label, shown)
    table_line = next(step.text for step in view.result if step.rule == "GM-COMBAT-2")
    assert f"GM-COMBAT-2  {table_line}" in hit


def hurt_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """pc1 saved as a sheet file, hit by the orc (seed 2) to HP 11: a result to apply."""
    sheet = tmp_path / "one.toml"
    out(capsys, "sheet", "pc1", "--save-as", str(sheet))
    out(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    out(capsys, "fight", "wait", str(sheet))
    out(capsys, "fight", "attack", "orc", str(sheet), "--seed", "2")
    return sheet


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["genso", *argv]) == 2
    return capsys.readouterr().err


def test_fight_new_writes_over_a_fight_over_and_applied(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """D3: `fight new` refused over any saved fight, applied or not, where its help said
    only one whose results are not on the sheets. As coc's over a fight that is over, one
    over and applied is now written over with no --force and no copy; one under way, or
    over and not applied, is still refused, each saying what to do."""
    sheet = hurt_sheet(tmp_path, capsys)
    new = ("fight", "new", "--party", str(sheet), "--monsters", "orc")
    under_way = refused(capsys, *new)
    assert "it is not over" in under_way and "fight end" in under_way
    out(capsys, "fight", "end")
    not_applied = refused(capsys, *new)
    assert "write them first with `companion genso fight apply`" in not_applied
    after_the_end = refused(capsys, "fight", "attack", str(sheet), "orc", "--seed", "1")
    assert "`companion genso fight apply`; then to fight again: `companion genso fight new " \
           "--party …`" in after_the_end
    out(capsys, "fight", "apply")
    # N5: applied, the refusal after the end no longer says to apply it.
    after_apply = refused(capsys, "fight", "attack", str(sheet), "orc", "--seed", "1")
    assert "fight apply" not in after_apply
    assert "to fight again: `companion genso fight new --party …`" in after_apply
    main(["genso", *new])
    made = capsys.readouterr()
    assert "was over; the new one is saved over it" in made.err, made.err
    assert "round 1" in made.out
    folder = user_dirs / "data" / "genso"
    assert not list(folder.glob("fight.json.replaced-*"))


def test_fight_new_under_way_with_nothing_to_apply_names_fight_end(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    err = refused(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    assert "pass --force" in err and "or end it first with `companion genso fight end`" in err
    out(capsys, "fight", "end")
    out(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")


def test_fight_new_help_says_what_is_refused_and_what_written_over(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["genso", "fight", "new", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "over, its results on the sheets (`fight apply`, or presets only), is written " \
           "over with no copy kept" in text
    assert "under way, or over with results not yet applied, is refused" in text
    assert "one over and applied is written over, --force or not" in text


@pytest.mark.parametrize(("kind", "rule", "setting", "label", "line"), [
    ("simple", "GM-CHECK-1", "easy", "標準 default 易しい easy 3 (default)", "2D > 3 (P"),
    ("general", "GM-CHECK-2", "very_hard", "標準 default 非常に難しい very hard 16 (default)",
     "> 16 (P"),
    ("trap", "GM-CHECK-3", "hastily_set", "標準 default 急ごしらえの罠 hastily set 8 (default)",
     "> 8 (P"),
    # Untouched, the line says it is the Default's, as `genso check simple` does.
    ("simple", "GM-CHECK-1", None, "標準 default 難しい hard 7 (default)", "2D > 7 (default)"),
])
def test_the_tables_check_menu_lights_the_checks_default(
        kind: str, rule: str, setting: str | None, label: str, line: str) -> None:
    """R3: the GM-CHECK-1/2/3 difficulty Default set to another (genso.toml, --set) was
    ignored at the table: its menu lit hard (a trap's, cleverly set) and a check with none
    rolled hard. The Default is offered first, lit and labelled, and rolled as one."""
    from companion.app.session.mode import ChoiceAsk
    from companion.dice import SimulatedDice
    from tests.app.genso_table_mode_helpers import play, table

    house = RULES.with_overrides({rule: {"difficulty": setting}}) if setting else RULES
    mode = table(house)
    who = () if kind == "simple" else ("t:駆け出し冒険者１",)
    ability = ("a:body",) if kind == "general" else ()
    play(mode, "gm", "check", f"c:{kind}", *who, *ability)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    lit = ask.options[ask.highlight]
    assert (lit.choice, lit.label) == ("d:default", label)
    keys = ("d:default",) if kind == "simple" else ("d:default", "m:0")
    play(mode, *keys, dice=SimulatedDice.seeded(1))
    assert mode.last_check is not None and mode.last_check.call.difficulty is None
    assert line in mode.last_check.check.text, mode.last_check.check.text


def test_fight_attack_help_says_who_rolls(capsys: pytest.CaptureFixture[str]) -> None:
    """N3: "The attacker's Body + Combat + 2D against the defender's" is untrue against a
    monster, which does not roll (GM-COMBAT-2/3); only PC against PC both roll."""
    with pytest.raises(SystemExit):
        main(["genso", "fight", "attack", "--help"])
    # argparse may wrap a rule ID at its hyphen (GM-\nCOMBAT-3).
    text = " ".join(capsys.readouterr().out.split()).replace("GM- ", "GM-")
    assert "the monster's Body + 7, which does not roll (GM-COMBAT-2)" in text
    assert "the PC defends with Body + Combat + 2D ≥ the monster's Body + Combat + 7 " \
           "(GM-COMBAT-3)" in text
    assert "PC against PC: both roll Body + Combat + 2D" in text
    assert "against the defender's" not in text


def test_check_difficulty_help_says_what_a_default_takes(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """N8, decided: `--difficulty 15` is taken and `--set GM-CHECK-1.difficulty=15` refused.
    The seed's difficulties are the named levels of its tables (PG 2-1, 2-2), and a
    Default is the level a check with none gets; a number is one check's own call. The
    help says so, and the refusal lists the names."""
    with pytest.raises(SystemExit):
        main(["genso", "check", "--help"])
    text = " ".join(capsys.readouterr().out.split()).replace("GM- ", "GM-")
    assert ("for simple, general and trap to a name, a level of the seed's table, as a "
            "number is one check's own call given here; for enemy to a number, GM-CHECK-6's "
            "Default") in text
    assert main(["genso", "check", "simple", "--set", "GM-CHECK-1.difficulty=15"]) == 2
    assert "extremely_hard" in capsys.readouterr().err
    assert main(["genso", "check", "simple", "--difficulty", "15", "--seed", "1"]) == 0


def test_two_copies_of_an_npc_preset_come_numbered(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """genso74 DEFECT 2: `--npc knight_m knight_m` was refused with "give one of them another
    name (name = … in its sheet)", which a preset has not, and `knight_m:2` was "no sheet".
    Now `knight_m:2` (a colon and a number of any width too) brings two, numbered as
    monsters are, each named by the key and its number; the plain duplicate is refused
    pointing there, and a preset on both sides to a copy saved under another name."""
    knight = "騎士（男性）"
    main(["genso", "fight", "new", "--party", "pc1", "--npc", "knight_m", "knight_m"])
    err = capsys.readouterr().err
    assert "name = … in its sheet" not in err
    assert (f"--npc knight_m and --npc knight_m bring 2 copies of the preset knight_m "
            f"({knight}), which would share its name: bring them as `--npc knight_m:2`, "
            f"numbered {knight}1 and {knight}2") in err
    main(["genso", "fight", "new", "--party", "pc1", "--npc", "pc1"])
    err = capsys.readouterr().err
    assert "the preset pc1 (駆け出し冒険者１) on both sides" in err
    assert "genso sheet pc1 --save-as FILE`, give it another name" in err
    for typed in ("knight_m:2", "knight_m：２"):
        shown = out(capsys, "fight", "new", "--party", "pc1", "--npc", typed, "--force")
        assert f"enemy {knight}1 Knight (male) 1" in shown
        assert f"enemy {knight}2 Knight (male) 2" in shown
    main(["genso", "fight", "wait", "knight_m2"])  # done, or refused as not its turn
    said = "".join(capsys.readouterr())
    assert f"{knight}2" in said and "no combatant" not in said, said
    assert main(["genso", "fight", "attack", "knight_m", "pc1"]) == 2
    assert f"{knight}1 Knight (male) 1 = knight_m1" in capsys.readouterr().err
    assert main(["genso", "fight", "new", "--party", "pc1", "--npc", "knight_m:0",
                 "--force"]) == 2
    assert "N a whole number of 1 or more" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["genso", "fight", "new", "--help"])
    assert "a preset's KEY:N brings N copies, numbered (knight_m:2)" in " ".join(
        capsys.readouterr().out.split())


def test_a_monster_where_a_sheet_goes_is_said_to_be_one(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """genso74 NIT 7: `--party orc` was "no sheet 'orc'" alone; it names the monster and the
    --monsters that brings it (its count too). A word that is neither is refused as ever."""
    assert main(["genso", "fight", "new", "--party", "orc", "--monsters", "orc"]) == 2
    err = capsys.readouterr().err
    assert "--party orc: no sheet 'orc'" in err
    assert "'orc' is a monster (オーク/Orc, GM-MON-7): bring it with `--monsters orc`" in err
    assert main(["genso", "fight", "new", "--party", "pc1", "--npc", "ghost:2"]) == 2
    assert "bring it with `--monsters ghost:2`" in capsys.readouterr().err
    assert main(["genso", "fight", "new", "--party", "pcx"]) == 2
    assert "is a monster" not in capsys.readouterr().err


def test_monsters_take_a_full_width_colon(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """genso74 NIT 10: `--monsters オーク：２`, as an IME types it, was "no monster"; the
    key and the number were taken in any width, the colon was not."""
    for typed in ("オーク：２", "ｏｒｃ：2"):
        shown = out(capsys, "fight", "new", "--party", "pc1", "--monsters", typed, "--force")
        assert "enemy オーク1 Orc 1" in shown and "enemy オーク2 Orc 2" in shown


def test_copies_refused_are_said_apart_from_a_key_n(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg74 NIT 5: "--npc knight_m:2 and --npc knight_m: 3 copies" read as a
    `knight_m:3` typed; NIT 6: `knight_m:-1` (a minus of any width) was "no sheet
    'knight_m:-1'", where `:0` gets the KEY:N line."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--npc", "knight_m:2",
                 "knight_m"]) == 2
    err = capsys.readouterr().err
    assert "knight_m: 3" not in err
    assert "--npc knight_m:2 and --npc knight_m bring 3 copies of the preset knight_m" in err
    assert "bring them as `--npc knight_m:3`" in err
    for typed in ("knight_m:-1", "knight_m:−1", "knight_m：－１"):
        assert main(["genso", "fight", "new", "--party", "pc1", "--npc", typed]) == 2
        err = capsys.readouterr().err
        assert f"--npc {typed}: write a sheet, or a preset's KEY:N, N a whole number of 1 or " \
            "more" in err and "no sheet" not in err, err


def test_a_preset_where_a_monster_goes_is_said_to_be_one(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg74 NIT 7, the reverse of genso74 NIT 7: `--monsters knight_m:2` was only "no
    monster 'knight_m'"; it names the NPC preset and the --npc that brings it, count and
    all (a PC preset too). A word that is neither is refused as ever."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "knight_m:2"]) == 2
    err = capsys.readouterr().err
    assert "--monsters knight_m:2: no monster 'knight_m'" in err
    assert "'knight_m' is an NPC preset (騎士（男性）): bring it with `--npc knight_m:2`" in err
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "pc2"]) == 2
    assert "'pc2' is a PC preset (駆け出し冒険者２): bring it with `--npc pc2`" in \
        capsys.readouterr().err
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "dragon"]) == 2
    assert "preset" not in capsys.readouterr().err


def test_apply_tells_an_npc_presets_copy_to_come_back_by_npc(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg74 NIT 8: `fight apply` told an `--npc` preset to come back as `fight new
    --party FILE`, a PC; an NPC comes back by `--npc FILE`, a numbered copy with a name of
    its own, and a PC preset by `--party FILE` as before."""
    out(capsys, "fight", "new", "--party", "pc1", "--npc", "knight_m:2", "priest_f")
    out(capsys, "fight", "end")
    said = out(capsys, "fight", "apply")
    lines = {line.split(":")[0]: line for line in said.splitlines() if "a preset" in line}
    assert "(`fight new --party FILE`)" in lines["駆け出し冒険者１ PC"]
    assert "name of its own" not in lines["駆け出し冒険者１ PC"]
    priest = lines["一般的な神官（女性） Typical priest (female)"]
    assert "(`fight new --npc FILE`)" in priest and "name of its own" not in priest
    for n in (1, 2):
        copy = lines[f"騎士（男性）{n} Knight (male) {n}"]
        assert "(`fight new --npc FILE`)" in copy and "--party" not in copy
        assert "give it a name of its own (name = … in FILE" in copy


def test_a_fight_brings_at_most_99_of_one_kind(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """fixcarry75 item 3: `--npc knight_m:N` and `--monsters orc:N` took any N, and
    `orc:1000000000` ran on for minutes, filling memory. Above 99 of one kind (a preset's
    copies, or a monster's counts together) is refused naming the bound and why; 99 is
    brought, numbered to オーク99. reviewcarry75 NIT 2: the game's terms have their
    Japanese beside them (戦闘, 遭遇), and one count of a monster names it as the counts
    together do (オーク/Orc)."""
    for option, typed, said in (
            ("--npc", "knight_m:100", "--npc knight_m:100: at most 99 copies of a preset in "
                                      "a fight 戦闘"),
            ("--npc", "knight_m：１０００００００００", "at most 99 copies of a preset"),
            ("--monsters", "orc:100", "--monsters orc:100: オーク/Orc: at most 99 of one kind "
                                      "in a fight 戦闘"),
            ("--monsters", "オーク：１００", "オーク/Orc: at most 99 of one kind in a fight 戦闘"),
            ("--monsters", "orc:1000000000", "at most 99 of one kind in a fight")):
        err = refused(capsys, "fight", "new", "--party", "pc1", option, typed)
        assert said in err and "(an encounter 遭遇 at a table, numbered 1 to 99; more would " \
            "take minutes to set up" in err, err
    err = refused(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc:60", "orc:40")
    assert "オーク/Orc: 100 of one kind in all; at most 99 in a fight 戦闘 (an encounter 遭遇" \
        in err
    shown = out(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc:60", "orc:39")
    assert "enemy オーク99 Orc 99" in shown


def test_one_preset_typed_twice_above_99_in_all_is_told_the_bound(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewcarry75 DEFECT 2: `--npc knight_m:60 knight_m:40` was told to "bring them as
    `--npc knight_m:100`", which the bound of 99 then refused; above 99 in all the refusal
    says the bound instead. 99 in all is still pointed to its KEY:N."""
    for typed in (("knight_m:60", "knight_m:40"), ("knight_m:99", "knight_m")):
        err = refused(capsys, "fight", "new", "--party", "pc1", "--npc", *typed)
        assert f"--npc {typed[0]} and --npc {typed[1]} bring 100 copies of the preset " \
            "knight_m" in err and "at most 99 copies of a preset" in err, err
        assert "bring them as" not in err and "knight_m:100" not in err, err
    err = refused(capsys, "fight", "new", "--party", "pc1", "--npc", "knight_m:98", "knight_m")
    assert "bring them as `--npc knight_m:99`" in err and "at most" not in err, err


def test_a_repeated_party_npc_or_monsters_option_adds_to_the_earlier_ones(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewb75 NIT B4: `--npc knight_m:60 --npc knight_m:40` kept only the 40 and saved the
    fight without a word (argparse's store); the refusal of 100 in all even spells them so.
    Repeated, each option adds up, and the bound of 99 counts them all."""
    err = refused(capsys, "fight", "new", "--party", "pc1", "--npc", "knight_m:60",
                  "--npc", "knight_m:40")
    assert "bring 100 copies of the preset knight_m" in err and "at most 99" in err, err
    shown = out(capsys, "fight", "new", "--party", "pc1", "--party", "pc2", "--monsters",
                "orc:2", "--monsters", "slime", "--npc", "knight_m:2", "--npc", "knight_f")
    for name in ("駆け出し冒険者１", "駆け出し冒険者２", "オーク1", "オーク2", "スライム",
                 "騎士（男性）1", "騎士（男性）2", "騎士（女性）"):
        assert name in shown, shown
    # The same typed twice is one name twice, refused as typed in one option.
    err = refused(capsys, "fight", "new", "--party", "pc1", "--npc", "knight_m",
                  "--npc", "knight_m", "--force")
    assert "bring them as `--npc knight_m:2`" in err, err


@pytest.mark.parametrize("name, monsters, said", [
    ("オーク・ウォーリア", ("orc_warrior", "orc:2"),
     "'オーク・ウォーリア' is also the name of the monster `--monsters orc_warrior` brings "
     "(オーク・ウォーリア/Orc Warrior)"),
    ("オーク1", ("orc:2",),
     "'オーク1' is also the name of a monster `--monsters orc:2` brings (オーク/Orc, numbered "
     "オーク1 and オーク2)"),
    ("オーク１", ("orc", "orc"),
     "'オーク１' and 'オーク1', the name of a monster `--monsters orc orc` brings (オーク/Orc, "
     "numbered オーク1 and オーク2), differ only in full- and half-width letters"),
])
def test_a_sheet_named_as_a_monster_of_the_fight_is_told_which(
        name: str, monsters: tuple[str, ...], said: str, tmp_path: Path, user_dirs: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """a76gensofight DEFECT 1: an NPC sheet named as a monster the rules name in the fight
    (a boss written as オーク・ウォーリア, or オーク1 beside ``--monsters orc:2``) was refused
    with the engine's bare "every combatant needs its own name", naming neither side nor
    the remedy. The sheets and the monsters' names are now checked together."""
    boss = tmp_path / "boss.toml"
    boss.write_text(f'name = "{name}"\nkind = "npc"\nbody = 8\nperception = 6\nmagic = 4\n',
                    encoding="utf-8")
    err = refused(capsys, "fight", "new", "--party", "pc1", "--npc", str(boss),
                  "--monsters", *monsters)
    assert f"--npc {boss}: {said}" in err, err
    assert (f"a monster's name is the rules', so give the sheet another name (name = … in "
            f"{boss.resolve()})") in err
    assert "every combatant needs its own name" not in err
    assert not (user_dirs / "data" / "genso" / "fight.json").exists()


def test_a_saved_character_named_as_a_monster_is_told_which(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """a76gensofight DEFECT 1, a saved character: `--party オーク --monsters orc`."""
    out(capsys, "new", "オーク", "--body", "6", "--perception", "5", "--magic", "4",
        "--skill", "combat", "--seed", "1")
    err = refused(capsys, "fight", "new", "--party", "オーク", "--monsters", "orc")
    assert ("--party オーク: 'オーク' is also the name of the monster `--monsters orc` brings "
            "(オーク/Orc)") in err, err
    assert "genso/characters/オーク.toml)" in err


def test_genso_sheet_of_a_monster_says_it_is_one(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """a76gensofight NIT 4: `genso sheet orc` listed only the presets, while `check --sheet
    orc` and `fight new --party orc` say it is a monster. A word that is neither is refused
    as ever."""
    err = refused(capsys, "sheet", "orc")
    assert "no sheet 'orc'" in err
    assert ("'orc' is a monster (オーク/Orc, GM-MON-7), which has a stat block, not a sheet: "
            "`") in err and " genso list monsters` shows it" in err
    assert "'Orc Warrior' is a monster (オーク・ウォーリア/Orc Warrior" in refused(
        capsys, "sheet", "Orc Warrior", "--save-as", str(user_dirs / "x.toml"))
    assert not (user_dirs / "x.toml").exists()
    assert "is a monster" not in refused(capsys, "sheet", "orx")
