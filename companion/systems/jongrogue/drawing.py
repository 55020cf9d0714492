"""The engine's second layer, :class:`_Drawing`: tiles from the wall. Drawing a tile (asked
for, or from an in-line wall), the wall made again of the discards, a d9 drawn from tiles,
and a check against a target. ``Proc``, the type of the rules' generator procedures (each
yields a request and receives its answer), is declared here, where the first of them is.

Rules: JR-WALL-1, JR-DICE-1, JR-DICE-2.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from companion.systems.jongrogue.actions import Purpose, Request, TileRequest
from companion.systems.jongrogue.checks import D9, passes, read_d9
from companion.systems.jongrogue.core import Outcome, Termination, _Core
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.narration import seed_head
from companion.systems.jongrogue.state import MonsterOnMap
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place

Proc = Generator[Request, Any, Any]


def _both(text: str, m: MonsterOnMap | None) -> str:
    """A prompt's text with the English name beside the monster's Japanese one (a check's
    ``what`` names it in Japanese only, and is logged as it is)."""
    if m is None:
        return text
    return text.replace(m.monster.name_ja, f"{m.monster.name_ja} {m.monster.name_en}", 1)


#: A check whose ``what`` (as logged) holds no Japanese, and the Japanese its prompt adds (its
#: line in the log ends in 成功 or 失敗 instead: the Log panel has no room for both).
CHECK_JA = {"ranged combat goes on": "遠隔戦闘の継続"}


def _what(what: str, m: MonsterOnMap | None) -> str:
    """What a check is for, in a prompt: the monster in both languages, and the Japanese
    beside a ``what`` that has none or beside its head, as its log line has (melee 近接攻撃)."""
    ja = CHECK_JA.get(what)
    return f"{what} {ja}" if ja else _both(seed_head(what), m)


# Requests of a game that is not recorded: nobody reads their prompts.
_SILENT_TILE = {purpose: TileRequest(purpose, "") for purpose in Purpose}


class _Drawing(_Core):
    """Adds drawing tiles: the wall, the d9 and checks."""

    def _draw(self, purpose: Purpose, prompt: str, place: Place) -> Proc:
        """Ask for the next tile of the wall and move it to ``place``."""
        if self._draw_now is not None:
            return self._drawn(place)
        self._wall_ready()
        request = TileRequest(purpose, prompt) if self.record else _SILENT_TILE[purpose]
        if self._answer_now is None:
            tile: Tile = yield request
        else:
            answer = self._ask(request)
            assert isinstance(answer, Tile)
            tile = answer
        self.ledger.move(tile, Place.WALL, place)
        return tile

    def _drawn(self, place: Place) -> Tile:
        """:meth:`_draw` for an in-line wall, with no generator: callers drawing many tiles
        call it themselves when ``_draw_now`` is set."""
        draw = self._draw_now
        assert draw is not None
        if self.ledger.wall_total == 0:
            self._wall_ready()
        tile = draw(self)
        self.inputs.append(tile)
        self.ledger.draw(tile, place)
        return tile

    def _wall_ready(self) -> None:
        """JR-WALL-1: an empty wall is made again of the discards; with none, the game ends."""
        if self.ledger.wall_total == 0:
            moved = self.ledger.reshuffle()
            self._emit(Kind.RESHUFFLE, tiles=moved)
            if moved == 0:
                self._finish(Outcome(Termination.WALL_EXHAUSTED, self.floor, ""))

    def _d9(self, purpose: Purpose, prompt: str) -> Proc:
        """JR-DICE-1: draw until a number, a critical or a fumble; other honours are set aside."""
        drawn: tuple[Tile, ...] = ()
        while True:
            if self._draw_now is None:
                tile = yield from self._draw(purpose, prompt, Place.DISCARDS)
            else:
                tile = self._drawn(Place.DISCARDS)
            drawn += (tile,)
            d9 = read_d9(drawn, self.profile)
            if d9 is not None:
                return d9

    def _check(
        self,
        what: str,
        target: int,
        *,
        automatic: bool = False,
        terms: list[tuple[str, int]] | None = None,
        raw: int | None = None,
        against: MonsterOnMap | None = None,
    ) -> Proc:
        """JR-DICE-2: a ``1d9 >= target`` check, emitted with every term of its target."""
        prompt = f"Draw a tile for the check: {_what(what, against)} (判定 1d9 >= {target})" \
            if self.record else ""
        d9: D9 = yield from self._d9(Purpose.CHECK, prompt)
        success = passes(d9, target, automatic)
        if self.record:
            self._emit(
                Kind.CHECK,
                what=what,
                target=target,
                raw=raw if raw is not None else target,
                terms=[[name, value] for name, value in terms or ()],  # JSON-shaped
                tiles=[str(t) for t in d9.tiles],
                value=d9.value,
                critical=d9.critical,
                fumble=d9.fumble,
                success=success,
                monster=against.monster.id if against else "",
                uid=against.uid if against else 0,
            )
        return success, d9
