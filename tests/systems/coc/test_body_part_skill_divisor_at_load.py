"""The coc rules refuse at load a CO-BODY-5 part without its skill_divisor.

review61e N3: a CO-BODY-5 part naming the skill it halves without ``skill_divisor`` is
refused where the rules load, naming the file and the part; it was a KeyError at the moment
of the loss."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.systems.coc.rules import Profile, _read, load_rules

TEXT = _read("rules.toml")
LINE = "skill_divisor = 2           # 004 l.109"


@pytest.mark.parametrize("profile", list(Profile))
def test_a_part_without_its_skill_divisor_is_refused_at_load(profile: Profile) -> None:
    assert LINE in TEXT
    with pytest.raises(DataError, match=r"^rules\.toml: \[source\.\"CO-BODY-5\"\.eye\] names "
                       r"skill 'spot_hidden' but lacks skill_divisor, a whole number 1 or more"):
        load_rules(profile, {"rules.toml": TEXT.replace(LINE, "#", 1)})
    load_rules(profile)
