"""reviews71 NIT 8: each EZ Plus option's Japanese rule name (睡眠判定ルール …) is read from
the one place the code keeps it, beside the option in systems/jongrogue/profile.py, not
copied a third time into rules.py; and the names are checked, against docs/playing.md's
list of the six, not only that every option has one."""

from __future__ import annotations

import re
from pathlib import Path

from companion.app.commands.rules import option_rules
from companion.systems.jongrogue.profile import Option

DOCS = Path(__file__).resolve().parents[1] / "docs" / "playing.md"


def docs_names() -> dict[str, str]:
    """playing.md's `sleep_check` (睡眠判定ルール), … in the --preset paragraph."""
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    return dict(re.findall(r"`([a-z_]+)` \(([^()]*ルール)\)", text))


def test_each_option_is_named_as_the_docs_name_it() -> None:
    named = {option.value: name for option, name in option_rules().items()}
    assert set(named) == {option.value for option in Option}
    assert named == docs_names()


def test_the_names_are_profile_py_s_own() -> None:
    """Not a copy: rules.py holds none of them."""
    source = (Path(__file__).resolve().parents[1] / "companion" / "app" / "commands"
              / "rules.py").read_text(encoding="utf-8")
    assert not [name for name in option_rules().values() if name in source]
