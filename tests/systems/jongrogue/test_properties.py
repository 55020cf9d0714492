"""Invariants over whole games, random seeds and both presets (hypothesis)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.systems.jongrogue.actions import Choice, TileRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer, play
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import Game, neighbours
from companion.systems.jongrogue.tables import TABLES
from companion.systems.jongrogue.tiles import SET_SIZE, Tile
from companion.systems.jongrogue.wall import Place

seeds = st.integers(min_value=0, max_value=2**40)
presets = st.sampled_from(["ez", "plus"])
strategies = st.sampled_from(["cautious", "reckless"])


@settings(max_examples=25, deadline=None)
@given(seed=seeds, preset=presets, strategy=strategies)
def test_invariants_hold_after_every_input(seed: int, preset: str, strategy: str) -> None:
    """JR-WALL-1: 136 tiles conserved, never 5 of a kind; HP ≤ max HP; the level follows
    the XP table except right after a drain (JR-AB-DRAIN); no exception escapes a game."""
    game = Game(preset)
    player = HeadlessPlayer(seed, strategy)
    while game.pending is not None:
        game.push(player.answer(game))
        ledger = game.ledger
        assert ledger.is_conserved()
        assert sum(ledger.total(p) for p in Place) == SET_SIZE
        assert ledger.wall_total == ledger.total(Place.WALL)
        # The simulated wall holds what the ledger says is in the wall; right after a
        # reshuffle it is refilled on the next draw.
        just_reshuffled = game.events[-1].kind is Kind.RESHUFFLE and not len(player.wall)
        assert just_reshuffled or len(player.wall) == ledger.wall_total
        pc = game.pc
        assert pc.hp <= pc.max_hp
        assert pc.drained or pc.level == TABLES.level_for_xp(pc.xp)
        assert pc.strength >= game.profile.strength_min
    assert game.outcome() is not None


@pytest.mark.parametrize("preset", ["ez", "plus"])
@pytest.mark.parametrize("strategy", ["cautious", "reckless"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_choice_is_among_the_legal_actions(seed: int, preset: str,
                                                 strategy: str) -> None:
    """``Game.legal_actions()`` is the engine's public contract: while a choice is pending it
    is that request's options, every choice the auto-player makes is among them, and one
    not among them is refused; while a tile is awaited, and after the game, it is empty."""
    game = Game(preset)
    player = HeadlessPlayer(seed, strategy)
    choices = 0
    while game.pending is not None:
        legal = game.legal_actions()
        answer = player.answer(game)
        if isinstance(game.pending, TileRequest):
            assert legal == () and isinstance(answer, Tile)
        else:
            assert legal == game.pending.options and answer in legal
            choices += 1
        game.push(answer)
    assert choices and game.legal_actions() == ()
    assert game.outcome() is not None


def test_a_choice_not_offered_is_refused() -> None:
    """``push`` takes a choice only from ``legal_actions()``."""
    game = Game("plus")
    player = HeadlessPlayer(5)
    offered: set[Choice] = set()
    while game.pending is not None:
        legal = game.legal_actions()
        if legal and (stale := offered - set(legal)):
            with pytest.raises(IllegalAction):
                game.push(next(iter(stale)))
            return
        offered.update(legal)
        game.push(player.answer(game))
    pytest.fail("no choice was ever withdrawn")


@settings(max_examples=10, deadline=None)
@given(seed=seeds, preset=presets)
def test_same_inputs_same_events_and_pop_undoes(seed: int, preset: str) -> None:
    """The engine is deterministic: replaying the journal gives the same events; pop()
    leaves the game as if the last input never came."""
    game = Game(preset)
    player = HeadlessPlayer(seed)
    for _ in range(400):
        if game.pending is None:
            break
        game.push(player.answer(game))
    again = Game.replay(game.inputs, preset)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]
    before_last = Game.replay(game.inputs[:-1], preset)
    last = game.pop()
    assert last is not None
    assert [e.to_json() for e in game.events] == [e.to_json() for e in before_last.events]
    assert game.pending == before_last.pending


@pytest.mark.parametrize("seed", [43, 193, 205, 231, 279])  # issue 22's seeds
@pytest.mark.parametrize("preset", ["ez", "plus"])
def test_every_walk_and_flight_leads_to_a_neighbour(seed: int, preset: str) -> None:
    """JR-MAP-1, JR-FLEE-1: a PC walks or flees only to a neighbouring room of its floor;
    on a new floor the first door it stands on is the start room drawn."""
    game = play(seed, preset, "cautious")
    room = 0
    for event in game.events:
        d = event.data
        if event.kind is Kind.START_ROOM:
            room, start = 0, d["room"]
        elif event.kind is Kind.MOVE and d["position"] == "door":
            assert d["room"] == start if room == 0 else d["room"] in neighbours(room), d
            room = d["room"]


def attacks_per_turn(log: list[dict[str, Any]]) -> list[tuple[dict[str, Any], set[int]]]:
    """Read a log as a reader would: each turn event, with the monsters that attacked in
    that turn (a defend check, or damage that is not a breath) before the next turn."""
    turns: list[tuple[dict[str, Any], set[int]]] = []
    for event in log:
        kind = event["kind"]
        if kind == "turn":
            turns.append((event, set()))
        elif (kind == "check" and event["what"].startswith("defend")) or (
            kind == "damage" and not event["breath"]
        ):
            assert turns, f"an attack before any turn: {event}"
            turns[-1][1].add(event["uid"])
    return turns


@pytest.mark.parametrize("seed", [43, 193, 205, 231, 279, 1000, 1001, 1002])
@pytest.mark.parametrize("preset", ["ez", "plus"])
@pytest.mark.parametrize("strategy", ["cautious", "reckless"])
def test_jr_multi_1_can_be_checked_from_the_log(seed: int, preset: str, strategy: str) -> None:
    """JR-MULTI-1: from the log alone, every turn's attackers are at most its cap, every
    attack falls in a turn, and only the monsters its turn event named attack in it (who
    steps in for a fallen one attacks from the next turn)."""
    game = play(seed, preset, strategy)
    log = [json.loads(json.dumps(e.to_json())) for e in game.events]
    turns = attacks_per_turn(log)
    assert turns
    for turn, attackers in turns:
        assert len(attackers) <= turn["cap"], (turn, attackers)
        assert attackers <= set(turn["attackers"]), (turn, attackers)
        assert turn["cap"] == game.profile.attackers[(turn["position"], turn["pincer"])]
