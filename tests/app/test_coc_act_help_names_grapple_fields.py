"""`coc fight act --help` names the grapple, throw and tackle fields (a77cocgrapple NIT 8:
its --with list had none of them, so option=knock_down was found only by guessing wrong
first), and every key it names is a field of an action."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from companion.app.cli import main
from companion.systems.coc.combat import ACTIONS


def test_the_with_help_names_the_grapple_fields(
        capsys: pytest.CaptureFixture[str], user_dirs: object) -> None:
    with pytest.raises(SystemExit):
        main(["coc", "fight", "act", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    named = text.rsplit("--with KEY=VALUE", 1)[1].split("--json")[0]
    for shown in ("option=blow_back|knock_down", "obstacle=true", "height_m=6", "toward=N",
                  "at_dodges=true", "skill=budo_grappling"):
        assert shown in named, named
    keys = set(re.findall(r"([a-z_0-9]+)=", named))
    known = {f.name for cls in ACTIONS.values() for f in fields(cls)}
    assert keys and keys <= known, keys - known
