"""The JongRogue mode's choice labels: every monster and item named in English and Japanese,
so a screen without a Japanese font still tells the buttons apart (docs/playing.md)."""

from __future__ import annotations

from companion.app.modes.jongrogue import choice_label, options_for
from companion.hw.buttons import Button
from companion.hw.display.fonts import without_cjk
from companion.systems.jongrogue.actions import Choice, ChoiceRequest
from companion.systems.jongrogue.game import Game
from tests.systems.jongrogue.script import feed

# Seed 1 at the table (the auditor's game): a snake (TL) and an emu (BL) in room 9, then a
# ring of armour protection taken and worn.
SNAKE_AND_EMU = "9m 5m 8p 8m 5z"
RING_WORN = "shoot:1 2z 4z 7s 5p 7m shoot:2 5z 2m fight:2 7s take"


def labels(game: Game) -> list[str]:
    assert isinstance(game.pending, ChoiceRequest)
    return [option.label for option in options_for(game, game.pending)[0]]


def test_several_targets_are_named_in_english_then_japanese() -> None:
    """A snake and an emu: their names tell them apart, so no spot (TL, BL) is said."""
    game = Game("plus")
    feed(game, SNAKE_AND_EMU)
    assert labels(game) == ["Fight snake 大蛇と戦う", "Fight emu 大うずらと戦う",
                            "Fire snake 大蛇を射撃", "Fire emu 大うずらを射撃",
                            "Defend 防御"]
    english = [without_cjk(label) for label in labels(game)]
    assert english == ["Fight snake", "Fight emu", "Fire snake", "Fire emu", "Defend"]


def test_two_monsters_of_one_name_are_told_apart_by_their_spots() -> None:
    """Room 6 of the table audit: an emu TL and two bats, TR and BL. The bats' labels say
    where each lies; the emu's, alone of its name, does not (label audit 54: in a grid's
    box "[A] Fight ice monster TR" was cut to "[A] Fi…onster TR")."""
    game = Game("plus")
    feed(game, "6s 3m 9m 4m 2s")
    assert labels(game)[:3] == ["Fight emu 大うずらと戦う", "Fight bat TR 大こうもりと戦う",
                                "Fight bat BL 大こうもりと戦う"]
    assert len(set(labels(game))) == len(labels(game))


def test_a_worn_ring_is_named_in_english_then_japanese() -> None:
    game = Game("plus")
    feed(game, f"{SNAKE_AND_EMU} {RING_WORN}")
    assert labels(game)[-1] == "Doff armour protection 鎧保護を外す"
    assert without_cjk(labels(game)[-1]) == "Doff armour protection"


def test_items_are_told_apart_by_their_english_names() -> None:
    game = Game("plus")
    choices = [Choice.from_notation(c) for c in
               ("use:1p", "equip:6p", "equip:9p", "unequip:8p", "unequip:7s")]
    shown = [without_cjk(choice_label(game, c, alone=False)) for c in choices]
    assert shown == ["Use healing potion", "Wear stealth", "Wear adornment",
                     "Doff armour protection", "Doff strength"]
    # Each label keeps the item's Japanese name beside the English.
    assert choice_label(game, choices[1]) == "Wear stealth 隠密を装備"
    # Found gear is equipped as before: only a ring is worn (JR-PC-4).
    assert choice_label(game, Choice.from_notation("equip:4p")) == "Equip weapon 武器を装備"


def test_the_japanese_alone_tells_the_buttons_apart() -> None:
    """Fight and Shoot on one monster read the same in Japanese ("Fight snake TL 大蛇",
    "Shoot snake TL 大蛇"): the verb was left in English alone (firstrun audit, item 9)."""
    game = Game("plus")
    feed(game, SNAKE_AND_EMU)
    japanese = [label.removeprefix(without_cjk(label)).strip() for label in labels(game)]
    assert len(set(japanese)) == len(japanese), japanese
    items = [choice_label(game, Choice.from_notation(c), alone=False)
             for c in ("use:1p", "equip:6p", "unequip:8p")]
    assert items == ["Use healing potion 回復薬を使う", "Wear stealth 隠密を装備",
                     "Doff armour protection 鎧保護を外す"]


def test_attack_and_ranged_aim_at_the_monster_attacking() -> None:
    """Room 6 of the table audit (F1): an asleep emu TL, an awake bat TR, a deeply asleep
    bat BL; "大こうもり bat attack!". A and R went to the emu, the first in tile order, and
    attacking it wakes it (JR-STATE-1) while the bat hits on: they aim at the bat."""
    game = Game("plus")
    feed(game, "6s 3m 9m 4m 2s")
    assert isinstance(game.pending, ChoiceRequest)
    assert "bat attack!" in game.pending.prompt
    options, highlight = options_for(game, game.pending)
    assert options[highlight].label == "Fight bat TR 大こうもりと戦う"
    ranged = [o.label for o in options if o.button is Button.RANGED]
    assert ranged == ["Fire bat TR 大こうもりを射撃"]


def test_with_the_attacker_first_the_buttons_are_as_before() -> None:
    """The snake TL attacks: A and R stay on it, the first in tile order (the fallback)."""
    game = Game("plus")
    feed(game, SNAKE_AND_EMU)
    assert isinstance(game.pending, ChoiceRequest)
    options, highlight = options_for(game, game.pending)
    assert highlight == 0 and options[0].label == "Fight snake 大蛇と戦う"
    assert [o.label for o in options if o.button is Button.RANGED] == ["Fire snake 大蛇を射撃"]


def test_with_no_fight_the_highlight_is_not_on_an_item_asked_again() -> None:
    """a76journey DEFECT 1: with no monster to fight, the highlight started on the first
    choice, *Use healing potion*, listed first: A to move on, then A at "Use … now?", drank
    it at HP 10/12. It starts on the first choice not asked again (Take, Stairs, …)."""
    from companion.app.modes.jongrogue import ASKED_FIRST
    from companion.systems.jongrogue.actions import Verb
    from companion.systems.jongrogue.autoplay import HeadlessPlayer

    game, player = Game("plus"), HeadlessPlayer(11)
    while not (isinstance(game.pending, ChoiceRequest)
               and game.pending.options[0].verb is Verb.USE
               and all(c.verb is not Verb.FIGHT for c in game.pending.options)):
        assert game.pending is not None, "the game ended before such a menu"
        game.push(player.answer(game))
    options, highlight = options_for(game, game.pending)
    assert options[0].label == "Use healing potion 回復薬を使う"
    assert game.pending.options[highlight].verb not in ASKED_FIRST
    assert highlight == next(i for i, c in enumerate(game.pending.options)
                             if c.verb not in ASKED_FIRST)


def test_with_no_fight_the_highlight_does_not_start_on_the_stairs() -> None:
    """f77carry item 1: with no monster and Stairs listed before the rooms, the highlight
    started on Stairs, and one A (confirm) left the floor for good. It starts on the first
    room instead; Stairs is still offered, to walk the highlight onto or tap."""
    from companion.app.modes.jongrogue import ASKED_FIRST
    from companion.systems.jongrogue.actions import Verb
    from companion.systems.jongrogue.autoplay import HeadlessPlayer

    def stairs_first(game: Game) -> bool:  # no fight, nothing to take: Stairs, the rooms
        return isinstance(game.pending, ChoiceRequest) and next(
            c.verb for c in game.pending.options if c.verb not in ASKED_FIRST) is Verb.STAIRS

    game, player = Game("plus"), HeadlessPlayer(1)
    while not stairs_first(game):
        assert game.pending is not None, "the game ended before such a menu"
        game.push(player.answer(game))
    assert isinstance(game.pending, ChoiceRequest)
    verbs = [c.verb for c in game.pending.options]
    assert Verb.FIGHT not in verbs and verbs.index(Verb.STAIRS) < verbs.index(Verb.MOVE)
    options, highlight = options_for(game, game.pending)
    assert "Stairs 階段" in [o.label for o in options]
    assert game.pending.options[highlight].verb is Verb.MOVE
    assert highlight == verbs.index(Verb.MOVE)
