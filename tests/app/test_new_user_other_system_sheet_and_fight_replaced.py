"""New-user audit 55, findings 7, 9, 10 and 13: what the companion says to a player who
has no tiles, a sheet of the other system, a fight replaced, and small messages."""

from __future__ import annotations

import json
import shlex
import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.cli import main
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.host import Session
from companion.errors import DataError
from companion.hw.camera.sim_scene import render_scene
from companion.hw.ports import Slot
from companion.systems.coc.rules import load_rules as load_coc_rules
from companion.systems.coc.sheet import sheet_from_mapping
from companion.systems.genso.rules import load_rules as load_genso_rules
from companion.systems.genso.sheet import load_sheet
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.game import Game
from tests.app.session_helpers import RecordingDisplay
from tests.app.set_aside_helpers import Hand, NoChoices, Stop
from tests.tile_picture_helpers import tile_picture

# ---- 7: with --input sim the prompts say the simulated wall draws ------------------------


def test_a_simulated_wall_s_prompts_say_the_wall_draws_not_the_player() -> None:
    """With ``--input sim`` nobody lays a tile: the start room's 1d9, each room tile and the
    note of a tile set aside say that the simulated wall draws, in English and Japanese,
    on the screen and the terminal alike (both show the view's prompt and status)."""
    screen = RecordingDisplay()
    session = Session(JongRogueMode(Game("plus"), HeadlessPlayer(7)), choices=NoChoices(),
                      tiles=Hand(["2z", "6p", "1m", "2m"]), display=screen)
    with pytest.raises(Stop):
        session.run()
    asked = [v for v in screen.views if v.prompt_tile == "back"]
    assert asked[0].prompt == ("The simulated wall draws a tile 模擬山から1枚引きます: "
                               "1d9 for the start room 開始部屋の1d9")
    assert asked[1].status == ("2z 南 set aside: it is not a number tile; the simulated wall "
                               "draws another 南は数牌ではないので除外: 模擬山からもう1枚")
    assert asked[2].prompt == ("The simulated wall lays this room's 4 tiles: now the "
                               "top-left room slot 模擬山から部屋の4枚を置きます: 次は部屋の左上")
    assert asked[3].prompt.endswith("now the top-right room slot 模擬山から部屋の4枚を置きます: "
                                    "次は部屋の右上")
    assert not any("put it on" in v.prompt or "draw another 南" in v.status for v in asked)


# ---- 9: a sheet of the other system is named as such -------------------------------------

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"


def test_a_coc_sheet_given_to_genso_is_named_a_coc_sheet_not_fixed_key_by_key() -> None:
    """ann.toml (a CoC investigator) given to genso: its [characteristics] tell what it is,
    said instead of 'unknown field skills (did you mean spells?)'."""
    text = (EXAMPLES / "ann.toml").read_text(encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_sheet(load_genso_rules(), text, "ann.toml")
    assert str(caught.value) == ("ann.toml looks like a Call of Cthulhu sheet ([characteristics]);"
                                 " genso takes 幻想迷宮冒険譚 sheets (docs/sheets.md)")


def test_a_genso_sheet_given_to_coc_is_named_a_genso_sheet_not_fixed_key_by_key() -> None:
    """aki.toml (a 幻想迷宮冒険譚 PC) given to coc: its body, perception and magic tell what it
    is, said instead of 21 unknown keys ending 'armor (did you mean armour?)'."""
    data = tomllib.loads((EXAMPLES / "aki.toml").read_text(encoding="utf-8"))
    with pytest.raises(DataError) as caught:
        sheet_from_mapping(load_coc_rules(), data, "aki.toml")
    assert str(caught.value) == ("aki.toml looks like a 幻想迷宮冒険譚 sheet (body, perception, "
                                 "magic); coc takes Call of Cthulhu sheets (docs/sheets.md)")


def test_a_slip_in_a_sheet_of_the_right_system_still_gets_its_did_you_mean() -> None:
    """A CoC sheet with one genso-like key (a slip, its [characteristics] there) is still
    a CoC sheet: the unknown key is named with the one meant."""
    data = tomllib.loads((EXAMPLES / "ann.toml").read_text(encoding="utf-8"))
    data["armor"] = data.pop("armour")
    data["magic"] = 3
    with pytest.raises(DataError, match=r"ann.toml: unknown key 'armor' \(did you mean "
                                        r"'armour'\?\); unknown key 'magic'$"):
        sheet_from_mapping(load_coc_rules(), data, "ann.toml")


# ---- 10: fight new --force keeps the fight it replaces -----------------------------------


def test_coc_fight_new_force_keeps_the_fight_it_replaces(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A fight played on (Ann's turn ended) is kept as fight.json.replaced-… by `coc fight new
    --force`, and shown by the command the notice gives; the refusal without --force says
    what --force does with it."""
    sheets = ["--investigators", str(EXAMPLES / "ann.toml"), "--foes",
              str(EXAMPLES / "cultist.toml")]
    assert main(["coc", "fight", "new", *sheets]) == 0
    assert main(["coc", "fight", "act", "end_turn", "Ann", "--seed", "1"]) == 0
    path = user_dirs / "data" / "coc" / "fight.json"
    played = path.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["coc", "fight", "new", *sheets]) == 2
    assert (f"a fight is saved at {path}; pass --force to start over, keeping it as "
            "fight.json.replaced-…") in capsys.readouterr().err
    assert main(["coc", "fight", "new", "--force", *sheets]) == 0
    (kept,) = path.parent.glob("fight.json.replaced-*")
    assert kept.read_text(encoding="utf-8") == played and path.read_text() != played
    assert (f"companion: note: the fight replaced is kept as {kept.name}, beside fight.json: "
            f"companion coc fight show --file {kept} shows it") in capsys.readouterr().err


def test_fight_new_force_in_a_folder_that_renames_nothing_replaces_nothing(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The old fight cannot be kept (a read-only folder: the rename is refused, the edge of
    the world mocked): the new one is not written over it, and the error says what to do."""
    new = ["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]
    assert main(new) == 0
    path = user_dirs / "data" / "genso" / "fight.json"
    before = path.read_text(encoding="utf-8")

    def refused(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("companion.files.os.replace", refused)
    capsys.readouterr()
    assert main([*new, "--force"]) != 0
    assert ("the fight in it cannot be kept aside for a new one (Permission denied): play it "
            "on, or start the new one with another --file") in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == before


# ---- 13: small messages ----------------------------------------------------------------


def test_classify_of_a_whole_mat_picture_without_mat_says_add_mat(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/mat.png (the mat's own flat picture) and a camera frame of the mat, given as
    tile pictures, were "unsure (maybe 1m at 29%)" with success; their corner markers say
    what they are, and the tile picture beside them is still read."""
    frame = tmp_frame(user_dirs)
    tile = tile_picture(user_dirs / "tile.png", "7z")
    mat = Path(__file__).parents[2] / "docs" / "mat.png"
    assert main(["classify", str(mat), str(frame), str(tile)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (f"{mat}: this looks like the whole mat, not one tile: add --mat "
                        f"(companion classify --mat {shlex.quote(str(mat))} reads its slots)")
    assert lines[1].startswith(f"{frame}: this looks like the whole mat, not one tile")
    assert lines[2].startswith(f"{tile}: 7z ")
    assert main(["classify", str(frame), "--json"]) == 1
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert set(record) == {"image", "error"} and "add --mat" in record["error"]


def tmp_frame(folder: Path) -> Path:
    """A camera's view of the mat with two tiles on it, as a picture file."""
    frame = render_scene({Slot.DRAW: "4s", Slot.ROOM_BL: "1z"}, np.random.default_rng(2),
                         vary=False)
    path = folder / "frame.png"
    cv2.imwrite(str(path), frame)
    return path


@pytest.mark.parametrize("argv, said", [
    (["simulate", "--games", "abc"], "argument --games: 'abc' is not a whole number"),
    (["rules", "encounter", "--floor", "x"], "argument --floor: 'x' is not a whole number"),
    (["rules", "sleep", "--rings", "y"], "argument --rings: 'y' is not a whole number"),
    (["simulate", "--games", "2", "--seed", "-1"],
     "argument --seed: -1 is negative: a seed is 0 or more"),
])
def test_a_bad_number_is_said_plainly(capsys: pytest.CaptureFixture[str], argv: list[str],
                                      said: str) -> None:
    """'abc' for a count said "invalid positive_int value: 'abc'" (the function's name),
    and a negative seed "(1 plays what it would)", which for simulate was not even true."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith(said) and "positive_int" not in err
