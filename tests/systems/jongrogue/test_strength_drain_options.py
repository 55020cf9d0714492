"""JR-AB-DRAINSTR (options), rules72 RISK 2: the vampire's strength drain under
PCの状態ルール (pc_states) without 強さルール (strength). The seed's Plus text is under
PCの状態ルール (l.326-332): the 強さドレイン判定 is made and a failure lowers strength, not
EZ's 100 gold; strength is in the monster rate only under 強さルール (l.372-375), so the
log line says the loss counts there alone, and ``rules defaults`` lists the reading."""

from __future__ import annotations

from companion.systems.jongrogue.autoplay import play
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.profile import DEFAULT_PROFILE
from companion.systems.jongrogue.reference import FIXED_READINGS, defaults_table

SAID = "(in the rate only under 強さルール, the strength rule)"


def test_jr_ab_drainstr_with_pc_states_alone_the_check_is_made_and_the_line_says_where_it_counts(
) -> None:
    """The rules72 repro game (ez+pc_states, reckless, seed 6): the vampire's hit draws
    the check, a failure lowers strength, which no rate of the game then counts, and the
    line says it counts only under the strength rule."""
    game = play(6, "ez+pc_states", "reckless")
    drains = [e for e in game.events if e.kind is Kind.ABILITY
              and e.data["ability"] == "drain_strength" and "strength" in e.data]
    assert drains
    line = describe(drains[0])
    assert line.startswith("  強さドレイン")
    strength = drains[0].data["strength"]
    before, after = (str(n).replace("-", "−") for n in (strength + 1, strength))
    assert f"strength 強さ {before} → {after} {SAID}" in line
    checks = [e.data for e in game.events if e.kind is Kind.CHECK and e.data.get("terms")]
    assert checks and not any(t[0] == "strength" for c in checks for t in c["terms"])
    gold = [e.data for e in game.events if e.kind is Kind.ITEM
            and e.data.get("why") == "strength drain"]
    assert gold == []  # not EZ's gold loss


def test_jr_ab_drainstr_the_reading_is_in_rules_defaults() -> None:
    readings = {d.rule: d.text for d in FIXED_READINGS}
    text = readings["JR-AB-DRAINSTR (options)"]
    assert "PCの状態ルール (pc_states) and not 強さルール (strength)" in text
    assert "l.326-332" in text
    table = defaults_table(DEFAULT_PROFILE, None)
    assert "JR-AB-DRAINSTR (options)" in table.text
    assert table.data["fixed_readings"]["JR-AB-DRAINSTR (options)"] == text


def test_jr_ab_drainstr_under_the_strength_rule_the_line_says_nothing_of_where_it_counts(
) -> None:
    """reviewr72 NIT 4: under ``plus`` strength is in the rate, and the line said "in the
    rate only under 強さルール" there too; the words are for a game without 強さルール."""
    plus = play(108, "plus", "cautious")
    drains = [e for e in plus.events if e.kind is Kind.ABILITY
              and e.data["ability"] == "drain_strength" and "strength" in e.data]
    assert drains
    # the sheet shows strength then
    assert describe(drains[0], plus.profile, plus.options) == \
        "  強さドレイン (drains strength): strength −1 強さを1つ減らす"
    pc_states = play(6, "ez+pc_states", "reckless")
    drained = next(e for e in pc_states.events if e.kind is Kind.ABILITY
                   and e.data["ability"] == "drain_strength" and "strength" in e.data)
    assert describe(drained, pc_states.profile, pc_states.options).endswith(SAID)
