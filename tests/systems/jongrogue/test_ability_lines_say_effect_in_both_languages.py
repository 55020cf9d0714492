"""a78journey NIT 3: a monster ability's outcome was printed as the event's code ("毒攻撃
(poison attack): none", "金塊盗み (steals gold): vanished", "炎ブレス (fire breath): flee"),
the only lines of a game with no Japanese of their own, and "none" gave no reason: each now
reads in English with the seed's word beside, and a strength loss with no effect names the
two reasons the seed gives (JR-AB-POISON, JR-AB-DRAINSTR: 「無効果」)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from companion.systems.jongrogue.autoplay import play
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.profile import DEFAULT_PROFILE

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize(("data", "line"), [
    ({"ability": "poison", "uid": 1, "effect": "none"},
     "  毒攻撃 (poison attack): no effect 無効果: the ring of strength 増強の指輪 worn, or "
     "strength 強さ at −3 already"),
    ({"ability": "steal_gold", "uid": 1, "effect": "vanished"},
     "  金塊盗み (steals gold): vanished 消えた"),
    ({"ability": "drain_level", "uid": 1, "effect": "level down"},
     "  レベル・ドレイン (drains levels): level −1 レベルを1つ下げる"),
    ({"ability": "drain_level", "uid": 1, "effect": "none (level ≤ 5)"},
     "  レベル・ドレイン (drains levels): no effect 無効果 (level ≤ 5 レベル5以下)"),
    ({"ability": "poison", "uid": 1, "effect": "strength -1", "strength": 0},
     "  毒攻撃 (poison attack): strength −1 強さを1つ減らす"),
    ({"ability": "drain_strength", "uid": 1, "effect": "strength -1", "strength": -2},
     "  強さドレイン (drains strength): strength 強さ −1 → −2 (in the rate only under 強さルール, "
     "the strength rule)"),  # one minus sign, as the floor's (r78journey NIT 10)
    ({"ability": "gold_lover", "uid": 1, "effect": "off the gold, sealed"},
     "  金塊好き (gold-lover): off the gold 金塊から降ろし, sealed 封魔"),
    ({"ability": "fire_breath", "uid": 1, "why": "flee"},
     "  炎ブレス (fire breath): as the PC flees 逃げている間"),
    ({"ability": "fire_breath", "uid": 1, "why": "ranged"},
     "  炎ブレス (fire breath): at range 遠隔攻撃"),
], ids=lambda value: value.get("effect", value.get("why")) if isinstance(value, dict) else "")
def test_each_ability_outcome_reads_in_english_with_its_japanese(
        data: dict[str, object], line: str) -> None:
    assert describe(Event(Kind.ABILITY, data), DEFAULT_PROFILE) == line


def test_no_strength_loss_names_the_profiles_floor() -> None:
    """A profile whose strength_min is above the book's −3 stops the loss there (JR-PC-2)."""
    profile = replace(DEFAULT_PROFILE, strength_min=-1)
    said = describe(Event(Kind.ABILITY, {"ability": "poison", "uid": 1, "effect": "none"}),
                    profile)
    assert said.endswith("or strength 強さ at −1 already")


def test_the_audits_game_says_each_ability_outcome_in_both_languages() -> None:
    """`play --headless --seed 5 --strategy reckless` (plus): its poison attack stopped by the
    ring and a leprechaun vanished read "none" and "vanished" alone."""
    game = play(5, "plus", "reckless")
    outcomes = [describe(e, game.profile, game.options).partition("): ")[2]
                for e in game.events if e.kind is Kind.ABILITY]
    assert {"vanished 消えた", "no effect 無効果: the ring of strength 増強の指輪 worn, or "
            "strength 強さ at −3 already"} <= set(outcomes)
    assert all(JAPANESE.search(outcome) for outcome in outcomes), outcomes
