"""The Keeper's disarm penalty menu (CO-DISARM-1) at the table, by the disarmer's Grapple.

coc63 D1 at the table (fix63c): the Keeper's disarm penalty menu (CO-DISARM-1) is offered
to one who writes Grapple at its base, 25, as to one who leaves it out, and hidden from one
who has it above its base, as the engine waives the penalty (one function decides both)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from companion.systems.coc.combat import Attack, Fight
from companion.systems.coc.rules import Profile
from tests.app.coc_table_helpers import FOE, INV, at_the_table, offered, people

PENALTY_MENU = "Keeper's penalty 補正 (Keeper): which?"


def knife_fight(grapple: int) -> Callable[[], Fight]:
    return people(Profile.P004, ("Ann", 14, ("knife",), INV, {"knife": 90, "grapple": grapple}),
                  ("Cult", 10, ("blackjack",), FOE, {"club": 50}))


def test_grapple_written_at_its_base_still_gets_the_penalty_menu(tmp_path: Path) -> None:
    mode, player = at_the_table(tmp_path, knife_fight(25), [], [
        "attack", "t:Cult", "h:disarm", "m:more", "m:penalty", "v:50", "d:none"], [
        Attack("Ann", "Cult", disarm=True, penalty=-50)])
    assert offered(player, PENALTY_MENU) == [["v:20", "v:30", "v:40", "v:50", "v:60", "back"]]
    assert "-50 (disarm, CO-DISARM-1)" in "\n".join(mode.fight.journal[-1].lines)


def test_grapple_above_its_base_has_no_penalty_menu(tmp_path: Path) -> None:
    mode, player = at_the_table(tmp_path, knife_fight(26), [], [
        "attack", "t:Cult", "h:disarm", "m:more", "back", "d:none"], [
        Attack("Ann", "Cult", disarm=True)])
    more = [keys for prompt, keys in player.seen if "m:dark" in keys]
    assert more and all("m:penalty" not in keys for keys in more)
    assert "no penalty, CO-DISARM-1" in "\n".join(mode.fight.journal[-1].lines)
