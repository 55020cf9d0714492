"""Review61c's findings on jr61: the EZ gold-lover keeps its 封魔 on the room panel (F1), the
readings in `rules defaults` (F2-F4), the pincered flight's revision-7 case (F7)."""

from __future__ import annotations

from companion.app.modes.jongrogue import room_tiles
from companion.systems.jongrogue.events import Kind
from tests.systems.jongrogue.script import feed
from tests.systems.jongrogue.test_abilities import meet


def test_an_ez_gold_lover_knocked_off_its_gold_shows_sealed() -> None:
    """Seed l.242-250: 「金塊好き」 (オーク, the EZ table's l.160) has no EZプラス marker, and a
    hit takes it off the gold into 「封魔状態」 (l.249): EZ's panel says so, as Plus's does."""
    for preset in ("ez", "plus"):
        game = meet(preset, 4, "9m 5s 1z 1z")
        events = feed(game, "fight:1 9m")
        assert any(e.kind is Kind.ABILITY and e.data.get("effect") == "off the gold, sealed"
                   for e in events), preset
        orc = next(t for t in room_tiles(game) if t.meaning.en == "orc")
        assert orc.detail.endswith("sealed 封魔"), (preset, orc.detail)
