"""What the events system's tests share: sw-mode party files (PARTY_FILE; PARTY, Aki and Ben
with HP and MP), a rating table's CSV, a poison file, and `companion events` run with its
output (_events). No test module imports another."""

from __future__ import annotations

import pytest

from companion.app.cli import main

PARTY_FILE = """
[[member]]
name = "Aki"
thief = 3
hp = 20
max_hp = 25
mp = 5
max_mp = 12
"""


PARTY = """
[[member]]
name = "Aki"
adventurer = 3
vitality = 2
hp = 20
max_hp = 25
mp = 10
max_mp = 12

[[member]]
name = "Ben"
adventurer = 2
hp = 14
max_hp = 16
mp = 18
max_mp = 21
"""


#: Every base power at rating 5 is 4, at rating 0 is 1.
RATINGS = ("rating,2,3,4,5,6,7,8,9,10,11,12\n5,4,4,4,4,4,4,4,4,4,4,4\n"
           "0,1,1,1,1,1,1,1,1,1,1,1\n")


VITALITY_DAMAGE = '[Ben]\nface = 4\nrule = "EV-POI-8"\ntoxicity = 8\ndamage_max = 3\n'


def _events(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    code = main(["events", *words])
    out, err = capsys.readouterr()
    return code, out, err
