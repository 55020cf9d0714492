"""The packaged profile names the rule each key serves (README: "each key beside the rule
ID it serves"). Several keys leaned on a table's comment or named none: hasted_attacks
(JR-AB-HASTE), bound_escape and its siblings (JR-PC-3), ranged_check_first_turn
(JR-RANGED-1), the [pc] start keys (JR-PC-1), heal_on_level_up (JR-LVL-1), and
pincer_attackers_room was tagged [SEED] though its 4 "in all" reads 「前後最大4体」
(defaults57 F9)."""

from __future__ import annotations

import re
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest

from companion.systems.jongrogue.profile import DEFAULT_PROFILE, SEED_VALUES, load_profile

#: A rule as the profile names one: a spec rule ID, or §2 (the tile roles, which the spec
#: gives no ID).
RULE = re.compile(r"JR-[A-Z]+(-[A-Z0-9]+)*|§2")
#: The tables whose every key names its rule beside it; [roles] and [items.N] are one rule
#: each (§2, JR-ITEM-1), named by their table's comment.
KEYED = ("dice", "map", "pc", "combat")


def _lines() -> list[str]:
    text = (files("companion.systems.jongrogue") / "data" / "profile.toml").read_text("utf-8")
    return text.splitlines()


def _keys_and_words() -> list[tuple[str, str, str]]:
    """(table, key, its words): the key's line with its comment, the comment lines that
    carry on below it (indented), and the comment block just above it."""
    lines, found, table = _lines(), [], ""
    for i, line in enumerate(lines):
        header = re.match(r"^\[([\w.]+)\]", line)
        if header:
            table = header.group(1)
            continue
        key = re.match(r"^(\w+) = ", line)
        if not key:
            continue
        words = [line]
        j = i + 1
        while j < len(lines) and re.match(r"^\s+#", lines[j]):
            words.append(lines[j])
            j += 1
        j = i - 1
        while j >= 0 and lines[j].startswith("#"):
            words.append(lines[j])
            j -= 1
        found.append((table, key.group(1), "\n".join(words)))
    return found


def test_every_key_names_the_rule_it_serves() -> None:
    """Each key of [dice], [map], [pc] and [combat] names its rule on its line, in the
    comment below it, or in the comment just above it; [roles] and [items] are named by
    their table's comment."""
    keys = [(table, key, words) for table, key, words in _keys_and_words() if table in KEYED]
    text = "\n".join(_lines())
    raw = tomllib.loads(text)
    assert sorted((table, key) for table, key, _ in keys) == sorted(
        (table, key) for table in KEYED for key in raw[table])
    for table, key, words in keys:
        assert RULE.search(words), f"{table}.{key}"
    assert re.search(r"^# §2 tile roles.*\n.*\n\[roles\]$", text, re.MULTILINE)
    assert re.search(r"^# JR-ITEM-1: .*\n.*\n\[items\.1\]$", text, re.MULTILINE)


@pytest.mark.parametrize(("key", "rule"), [
    ("hasted_attacks", "JR-AB-HASTE"), ("bound_escape", "JR-PC-3"), ("confused_act", "JR-PC-3"),
    ("confusion_ends_next_room", "JR-PC-3"), ("ranged_check_first_turn", "JR-RANGED-1"),
    ("strength", "JR-PC-1"), ("gold", "JR-PC-1"), ("weapon", "JR-PC-1"), ("ranged", "JR-PC-1"),
    ("arrows", "JR-PC-1"), ("armour", "JR-PC-1"), ("heal_on_level_up", "JR-LVL-1"),
    ("steal_ammo", "JR-AB-STEALITEM"), ("last_floor", "JR-MAP-4"), ("critical", "JR-DICE-1"),
])
def test_the_keys_that_named_no_rule_name_theirs(key: str, rule: str) -> None:
    """defaults57 F9: the rule on the key's own line or the comment below it."""
    words = {k: w for _, k, w in _keys_and_words()}[key]
    own = [w for w in words.split("\n") if not w.startswith("#")]
    assert rule in "\n".join(own), key


def test_the_pincered_room_cap_is_a_reading_not_the_books_number(tmp_path: Path) -> None:
    """JR-MULTI-1: 「挟み撃ち中 前後最大4体」 does not say whether the 4 is in all or each
    side's, so 4 in all is the companion's [DEFAULT]: tagged so, not among the book's
    values, and a profile that sets 8 plays it as any Default, with no house rule said.
    The door's and corridor's 「前後1体ずつ（計2体）」 stay the book's."""
    words = {k: w for _, k, w in _keys_and_words()}["pincer_attackers_room"]
    assert "[DEFAULT]" in words and "[SEED]" not in words and "前後最大4体" in words
    assert "pincer_attackers_room" not in {s.key for s in SEED_VALUES}
    assert {"pincer_attackers_door", "pincer_attackers_corridor"} <= {s.key for s in SEED_VALUES}
    assert DEFAULT_PROFILE.attackers[("room", True)] == 4
    mine = tmp_path / "mine.toml"
    mine.write_text("[combat]\npincer_attackers_room = 8\n", encoding="utf-8")
    profile = load_profile(mine)
    assert profile.attackers[("room", True)] == 8 and profile.house_rules == ()
