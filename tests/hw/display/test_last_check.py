"""The Last check 判定 panel, shortened by a long menu's grid, keeps the check's outcome (its
last line) whole, and the check's own verdict (its first line's ``→ success 成功``): what it
leaves out, from the middle of the check's terms or whole lines between, is marked with
``…`` (display audit 56, item 4; review 56, finding 2). Drawn through :class:`ScreenDisplay`
on SDL's dummy driver; what was drawn is read back from the texts it fitted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import example_view
from tests.hw.screen_layout_helpers import RING_MENU, Drawn, spy_text

# Worded as the log words them (narration.describe, with the seed's 近接攻撃, 遠隔攻撃 and
# the rate's 攻撃力 − レベル − 強さ − 武器);
# tests/app/test_check_lines_long_words_on_screen_and_terminal.py draws a played game's.
MELEE = ("melee 近接攻撃 vs ケンタウロス (centaur): rate 4 = 7 attack 攻撃力 − 1 level レベル − "
         "0 strength 強さ − 2 weapon 武器; drew 8s → 8 ≥ 4 → success 成功")
# The docs' screenshot's check: a miss, whose verdict was cut to "→ 9 ≥ 1 →…".
RANGED = ("ranged 遠隔攻撃 (arrows) vs 大うずら (emu): rate 1 = 7 attack 攻撃力 − 5 level レベル − "
          "0 strength 強さ − 1 weapon 武器; drew 9s → 9 ≥ 1 → failure 失敗")
CHECK = (
    MELEE,
    "tile drawn 8s → 8 ≥ 4 → hit, damage 2 + 1 weapon − 0 armour = 3 → HP 0",
    "Gold 金塊 +90 (gold pile 9s) → 90",
    "ケンタウロス (centaur) #33 defeated: +2 XP → 88",
)
MISSED = (RANGED, "大うずら (emu) #33 defeated: +2 XP → 88")


def _panel_rows(drawn: list[Drawn], lines: tuple[str, ...]) -> list[str]:
    """The rows the Last check panel drew, as shown: those after its title that are pieces
    of ``lines`` (split where ``…`` marks a cut)."""
    start = next(i for i, d in enumerate(drawn) if d.text == "Last check 判定")
    rows = []
    for d in drawn[start + 1:]:
        pieces = [p.strip() for p in d.shown.split("…") if p.strip()]
        if d.label or not pieces or not all(any(p in line for line in lines) for p in pieces):
            break
        rows.append(d.shown)
    return rows


@pytest.mark.parametrize("lines", [CHECK, MISSED], ids=["four lines", "a miss"])
@pytest.mark.needs_japanese_font
def test_a_short_last_check_keeps_the_verdict_and_the_outcome_and_marks_the_cut(
        screen: ScreenDisplay, lines: tuple[str, ...]) -> None:
    """Under a two-row grid the panel showed the check's first rows only (the outcome was
    gone); then the outcome, but the check cut at its end ("… drew 9s → 9 ≥ 1 →…"): the
    player saw the monster beaten or hitting, not whether their own check failed. The
    check's start and verdict, and the outcome, are whole; a cut is marked."""
    view = replace(example_view(), options=RING_MENU, highlight=0, last_check=lines)
    drawn = spy_text(screen)
    screen.render(view)
    rows = _panel_rows(drawn, lines)
    assert rows, [d.shown for d in drawn]
    shown = " ".join(rows)
    assert shown.endswith(lines[-1]) and not rows[-1].endswith("…"), rows
    if shown != " ".join(lines):  # something left out: its place is marked
        assert "…" in shown, rows
    check, verdict = lines[0], lines[0][lines[0].rindex("→"):]
    if screen.text_scale > 1 and shown.lstrip("…") == lines[-1]:
        return  # larger text: the outcome fills the panel, the check is left out whole
    # Its start (whose check) and its verdict, "→ success 成功", "→ failure 失敗", whole.
    assert shown.startswith(check.split(" ")[0]) and verdict in shown, rows


# A check the seed's words make longer: the monster named in both languages, a tile set
# aside (JR-DICE-1), each with no outcome line or one (the level it gave).
ICE = ("melee 近接攻撃 vs 氷の怪物 (ice monster): rate 4 = 7 attack 攻撃力 − 2 level レベル − "
       "0 strength 強さ − 1 weapon 武器; drew 4m → 4 ≥ 4 → success 成功",
       "  Level 3 レベル3: max HP 14, HP 14")
DEFEND = ("defend 防御 vs 氷の怪物 (ice monster): rate 5 = 6 defence 防御力 + 1 level レベル − "
          "2 armour 鎧; drew 2z (set aside), 7p → 7 ≥ 5 → success 成功",)


@pytest.mark.parametrize(("lines", "roll"), [
    (MISSED, "9s → 9 ≥ 1 → failure 失敗"), (ICE, "4m → 4 ≥ 4 → success 成功"),
    (DEFEND, "7p → 7 ≥ 5 → success 成功")], ids=["a miss", "a level", "a tile set aside"])
@pytest.mark.needs_japanese_font
def test_a_check_cut_in_its_middle_keeps_its_roll(screen: ScreenDisplay,
                                                  lines: tuple[str, ...], roll: str) -> None:
    """With text a quarter larger under a two-row grid the check's middle was cut with its
    terms, the roll among them: "melee 近接攻撃 vs … → success 成功", the tile drawn and the
    rate it met gone, what the player checks against the tile on the table (reviewscreen66
    NIT 2). The rate's terms go first, then the tiles set aside, then the subject's last
    words: the tile drawn, its number against the rate and the verdict stay, after the
    check's first word."""
    view = replace(example_view(), options=RING_MENU, highlight=0, last_check=lines)
    drawn = spy_text(screen)
    screen.render(view)
    start = next(i for i, d in enumerate(drawn) if d.text == "Last check 判定")
    rows = [d.shown for d in drawn[start + 1:start + 4]]
    shown = " ".join(rows)
    assert roll in shown and shown.startswith(lines[0].split(" ")[0]), rows
    assert all(not d.cut for d in drawn[start + 1:start + 4]), rows  # whole rows, no … cut
