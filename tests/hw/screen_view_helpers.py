"""Views that crowd the screen, for the screen's cut and tap target tests: a long status of
trouble (TROUBLE), eight cultists with long, alike names, long menus of orcs and of targets,
the dice tray's poison, and every kind of screen with options (VIEWS)."""

from __future__ import annotations

from dataclasses import replace

from companion.hw.buttons import Button
from companion.hw.display.view import (
    BoardView,
    DiceStep,
    DiceView,
    FighterView,
    FightView,
    Name,
    Option,
    PieceView,
    View,
    example_fight_view,
    example_view,
    message_view,
)
from tests.hw.screen_layout_helpers import (
    RING_MENU,
    TILE_PROMPT,
    _big_fight,
)


def fight_of(view: View) -> FightView:
    assert view.fight is not None
    return view.fight


TROUBLE = ("cannot save (No space left on device): free space or fix the folder; the game is "
           "safe up to move 41 · camera:0 stopped sending pictures (unplugged?); check the "
           "cable, or choose another camera: dice.camera_source (config.toml); retrying")


def cultists(board: bool) -> View:
    view = example_fight_view()
    enemy = Name("敵", "enemy")
    fighters = tuple(
        FighterView(Name(f"C{i} ダゴン秘密教団の狂信者{i}",
                         f"C{i} Cultist of the Innsmouth Deep Order {i}"), enemy, 13, 13, 10, 10,
                    ("c3 N",), acting=i == 6, ally=False, san=50) for i in range(1, 9))
    fight = replace(fight_of(view), fighters=fighters, turn=str(fighters[5].name),
                    board=BoardView(8, 8, tuple(PieceView(i, 0, f"C{i}") for i in range(8)))
                    if board else None)
    return replace(view, fight=fight)


ORCS = tuple(Option(str(i), f"オーク{i} Orc {i}") for i in range(1, 14))
ANTS = tuple(Option(f"t:{n}", f"ジャイアント・アント{n} Giant Ant {n}") for n in (1, 2, 3)) \
    + tuple(Option(f"t:{n}", f"アンデッド・コープス{n} Undead Corpse {n}") for n in (1, 2)) \
    + (Option("back", "Back 戻る", Button.FLEE),)


def tray_view() -> View:
    dice = DiceView("毒 Poison (EV-POI-4)", (1, 1), ("(1D6) ＞ 1",),
                    (DiceStep("EV-POI-1", "判定−1/−1 to all checks"),))
    return replace(example_view(), dice=dice)


def all_views() -> dict[str, View]:
    """Every kind of screen with options: the game, a long menu and its second page, with
    a status; a fight with and without a board, a long fight menu, a fight's status of two
    rows; the dice tray; message screens; a two-row prompt."""
    fight, game = example_fight_view(), example_view()
    board = cultists(True)
    return {
        "game": game,
        "game status": replace(game, status="read 5p: place the tile again"),
        "long menu": replace(game, options=RING_MENU, highlight=0),
        "long menu page 2": replace(game, options=RING_MENU, highlight=len(RING_MENU) - 1),
        "long menu status": replace(game, options=RING_MENU, highlight=0, status=TROUBLE),
        "tile prompt": replace(game, prompt=TILE_PROMPT, prompt_tile="3m",
                               status="3m 三萬 lifted: it still counts in 2 s"),
        "fight": fight,
        "fight long menu": replace(fight, options=ORCS, highlight=1),
        "fight targets": replace(fight, options=ANTS, highlight=0),
        "fight status": replace(fight, status=TROUBLE),
        "fight long menu status": replace(fight, options=ORCS, highlight=1, status=TROUBLE),
        "many combatants": _big_fight(5),
        "board": board,
        "board long menu": replace(board, options=ORCS, highlight=1),
        "board long menu status": replace(board, options=ORCS, status=TROUBLE),
        "fight two-row prompt": replace(
            fight, options=fight.options[:2],
            prompt="Throw 2D6 in the dice area for the attack of オーク1 Orc 1 on 冒険者1 PC 1 "
                   "with the great sword 2D6を振って"),
        "dice tray": tray_view(),
        "dice tray status": replace(tray_view(), status=TROUBLE),
        "message": message_view("The save could not be read. Start a new game?",
                                (Option("new", "New game 新しいゲーム", Button.ATTACK),
                                 Option("quit", "Quit 終了", Button.FLEE))),
        "message long menu": message_view("Which mode? どのモード？", RING_MENU),
    }


VIEWS = all_views()
