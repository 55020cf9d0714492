"""JongRogue's bound PC (拘束, JR-PC-3) told why it only draws; rules rate; preset names.

rules70c: the review of rules revision 11 (reviewr70), its RISK and NITs fixed.

- RISK 1: a bound PC (拘束, JR-PC-3) that no monster attacks is asked only for its
  break-free tiles from revision 11; the screen and the terminal now say why, as guidance
  on the status line (the app's words only: the events are unchanged).
- NIT 3: revision 11's reading has its own entry, ``JR-PC-3 (unattacked)``, not the door's.
- NIT 4: ``companion rules rate`` refuses a strength above the profile's pc.strength, the
  most a PC has (JR-PC-1: poison and strength drain only lower it).
- NIT 5: the engine gives a preset its one name itself (``preset_name``), not only when the
  app named it first.
(NIT 2 is pinned in tests/systems/jongrogue/test_golden_games.py's ``RULE_OF[11]``, NIT 6 is
test_play_again_by_seed_across_rules_revisions's names.)
"""

from __future__ import annotations

import pytest
from rich.console import Console

from companion.app.cli import main
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.mode import ChoiceAsk
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.terminal import TROUBLE_MARK, render
from companion.hw.display.view import View
from companion.systems.jongrogue.actions import ChoiceRequest, TileRequest
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.profile import DEFAULT_PROFILE, Option
from companion.systems.jongrogue.reference import FIXED_READINGS
from companion.systems.jongrogue.state import PCState
from companion.systems.jongrogue.tiles import Tile
from tests.app.jongrogue_bound_pc_helpers import bound_with_a_potion, flytrap
from tests.hw.screen_layout_helpers import spy_text
from tests.systems.jongrogue.script import feed

WHY = "bound 拘束 with no monster attacking: break free first (1d9 >= 5)"


def shown(mode: JongRogueMode, status: str = "") -> View:
    """The view the session shows for the mode's ask (host.show_next: the ask's prompt, a
    menu's options, and the status the session has, none by default)."""
    ask = mode.ask()
    if isinstance(ask, ChoiceAsk):
        return mode.view(ask.prompt, options=ask.options, highlight=ask.highlight,
                         status=status)
    assert ask is not None
    return mode.view(ask.prompt, status=status)


# RISK 1: why only tiles are asked


def test_jr_pc_3_a_bound_pc_no_monster_attacks_is_told_why_it_only_draws() -> None:
    """The reviewr70 repro: bound, the flytrap dead, a potion held. The prompt asks for the
    break-free tile; the status says the PC only draws those checks until free and that its
    choices come back then, as guidance (the next step), not as trouble. It says so again at
    the next check, and once free the choices are asked with no such status."""
    mode = JongRogueMode(bound_with_a_potion())
    for _ in range(2):
        assert isinstance(mode.game.pending, TileRequest)
        view = shown(mode)
        assert "break free (拘束)" in view.prompt
        assert view.status.startswith(WHY), view.status
        assert "your choices come back once free" in view.status
        assert "拘束中: 解除判定のみ、解除後に行動" in view.status
        assert view.guidance
        mode.push(Tile.from_notation("2p"))  # 2 < 5: still bound, and still only a check
    mode.push(Tile.from_notation("6m"))  # 6 >= 5: free
    assert PCState.BOUND not in mode.game.pc.states
    assert isinstance(mode.game.pending, ChoiceRequest)
    view = shown(mode)
    assert view.status == "" and not view.guidance
    assert any("healing potion" in option.label for option in view.options)


def test_a_bound_pc_a_monster_attacks_is_not_told_to_wait() -> None:
    """The flytrap alive and attacking: the break-free check is followed by the PC's choice
    (fight, defend, potion), so the status says nothing of waiting."""
    game = flytrap()
    feed(game, "fight:1 1m 3m 3m")  # the miss, then the flytrap's hit binds the PC
    assert PCState.BOUND in game.pc.states and game.attackers()
    assert isinstance(game.pending, TileRequest) and "break free" in game.pending.prompt
    view = shown(JongRogueMode(game))
    assert view.status == "" and not view.guidance


def test_revision_10_which_asks_the_bound_pc_says_nothing_of_waiting() -> None:
    """A game of revision 10 (a save resumed) asks the bound PC what to do each turn, its
    potion the only answer; its next break-free check, the PC bound with no monster left,
    is not followed by "your choices come back once free", so the status says nothing."""
    game = bound_with_a_potion(revision=10)
    assert isinstance(game.pending, ChoiceRequest)
    assert [str(c) for c in game.pending.options] == ["use:1p"]  # revision 10 asks
    feed(game, "use:1p")
    assert PCState.BOUND in game.pc.states and not game.attackers()
    assert isinstance(game.pending, TileRequest) and "break free" in game.pending.prompt
    view = shown(JongRogueMode(game))
    assert view.status == "" and not view.guidance


def test_the_sessions_own_status_comes_first() -> None:
    """A reader's or the save's trouble (the status the session passes) is shown as it is,
    as trouble; the wait is said when the session has nothing to say."""
    view = shown(JongRogueMode(bound_with_a_potion()), status="camera: no tile seen")
    assert view.status == "camera: no tile seen" and not view.guidance


def test_the_terminal_says_why_as_guidance() -> None:
    """The terminal display prints the status after the prompt, without the trouble mark."""
    view = shown(JongRogueMode(bound_with_a_potion()))
    console = Console(width=200, record=True, color_system=None)
    console.print(render(view, rows=40))
    text = console.export_text()
    line = next(row for row in text.splitlines() if WHY in row)
    assert not line.startswith(TROUBLE_MARK)
    assert "拘束中: 解除判定のみ、解除後に行動" in text


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_the_screen_draws_why_whole(size: str) -> None:
    """The screen draws the status under the prompt, its English not cut."""
    view = shown(JongRogueMode(bound_with_a_potion()))
    screen = ScreenDisplay(size)
    drawn = spy_text(screen)
    screen.render(view)
    screen.close()
    said = [d for d in drawn if d.text.startswith(WHY)]
    assert said and not any(d.cut for d in said)


# NIT 3: the reading's own entry


def test_revision_11s_reading_is_its_own_entry_not_the_doors() -> None:
    readings = {d.rule: d.text for d in FIXED_READINGS}
    unattacked = readings["JR-PC-3 (unattacked)"]
    for words in ("bound (拘束) PC that no monster attacks", "in the room (部屋の中) or on the "
                  "door (ドアの上)", "from revision 11", "break-free checks",
                  "no potion (回復薬) is drunk nor ring (指輪) taken off", "拘束状態 (l.275)"):
        assert words in unattacked, words
    assert "revision 11" not in readings["JR-PC-3 (door)"]


# NIT 4: no strength above the start


def test_rules_rate_refuses_a_strength_above_the_profiles_start(
        capsys: pytest.CaptureFixture[str]) -> None:
    high = DEFAULT_PROFILE.strength + 1
    assert main(["rules", "rate", "--monster", "S", "--level", "1", "--weapon", "2",
                 "--strength", str(high)]) != 0
    assert (f"--strength {high}: strength never rises above {DEFAULT_PROFILE.strength}, "
            "where it starts (JR-PC-1, the profile's pc.strength)") in capsys.readouterr().err
    assert main(["rules", "rate", "--monster", "S", "--level", "1", "--weapon", "2",
                 "--strength", str(DEFAULT_PROFILE.strength)]) == 0


# NIT 5: the engine names the preset


@pytest.mark.parametrize(("given", "named"), [
    ("EZ+Pincer", "ez+pincer"),
    ("ez+pincer+sleep_check", "ez+sleep_check+pincer"),
    ("ez+" + "+".join(o.value for o in reversed(Option)), "plus"),
    ("PLUS", "plus"),
    ("ez", "ez"),
])
def test_the_engine_gives_a_preset_its_one_name(given: str, named: str) -> None:
    game = Game(given)
    assert game.preset == named
    assert Game(named).options == game.options
