"""`fight new` without --force over a fight file that cannot be read (a power cut's zero
bytes) said "a fight is saved at …; pass --force to start over, keeping it as
fight.json.replaced-…; or end it first with `… fight end`": --force keeps such a file as
``.corrupt-…``, and there is no fight in it to end. Now the refusal names the fault and what
--force does with it, for coc and genso alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.companion_process import ROOT

EXAMPLES = ROOT / "docs" / "examples"
COC_NEW = ["coc", "fight", "new", "--investigators", str(EXAMPLES / "ann.toml"),
           "--foes", str(EXAMPLES / "cultist.toml")]
GENSO_NEW = ["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:1"]


@pytest.mark.parametrize(("system", "new"), [("coc", COC_NEW), ("genso", GENSO_NEW)])
def test_fight_new_over_an_unreadable_fight_names_the_fault_and_the_corrupt_copy(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], system: str,
        new: list[str]) -> None:
    path = user_dirs / "data" / system / "fight.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(100))
    assert main(new) == 2
    err = capsys.readouterr().err
    assert (f"{path}: not JSON (the fight file is all zero bytes: a power cut as it was "
            "written?); it cannot be played on: pass --force to start over, keeping it as "
            "fight.json.corrupt-…") in err
    assert "replaced-" not in err and "fight end" not in err
    assert path.read_bytes() == bytes(100)  # refused: nothing moved
    assert main([*new, "--force"]) == 0
    (kept,) = path.parent.glob("fight.json.corrupt-*")
    assert kept.read_bytes() == bytes(100)
