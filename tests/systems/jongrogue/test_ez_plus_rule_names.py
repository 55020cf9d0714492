"""reviews71 NIT 8: each EZ Plus option's Japanese rule name (睡眠判定ルール …) is kept once,
beside the option in systems/jongrogue/profile.py (Option.rule_name), and checked against
docs/playing.md's list of the six, not only that every option has one."""

from __future__ import annotations

import re
from pathlib import Path

from companion.systems.jongrogue.profile import Option

ROOT = Path(__file__).resolve().parents[3]


def docs_names() -> dict[str, str]:
    """playing.md's `sleep_check` (睡眠判定ルール), … in the --preset paragraph."""
    text = " ".join((ROOT / "docs" / "playing.md").read_text(encoding="utf-8").split())
    return dict(re.findall(r"`([a-z_]+)` \(([^()]*ルール)\)", text))


def test_each_option_is_named_as_the_docs_name_it() -> None:
    assert {option.value: option.rule_name for option in Option} == docs_names()


def test_rules_py_copies_none_of_them() -> None:
    source = (ROOT / "companion" / "app" / "commands" / "rules.py").read_text(encoding="utf-8")
    assert not [option.rule_name for option in Option if option.rule_name in source]
