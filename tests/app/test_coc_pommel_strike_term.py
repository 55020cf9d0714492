"""The pommel strike's Japanese name at the table is the seed's (coc72 NIT 9): seed 003
「「柄打ち」を宣言した場合、柄打ちを繰り出して敵をスタン状態にすることができる」, as
profiles.toml's CO-IAI-4 title says; the menu and the log's tag said 柄当て."""

from __future__ import annotations

from companion.app.modes.coc.words import HOW, describe
from companion.systems.coc.combat import Attack
from companion.systems.coc.rules import Profile, load_rules


def test_the_menu_and_the_tag_name_the_pommel_strike_as_the_seed_does() -> None:
    term = "柄打ち"
    assert f"({term})" in load_rules(Profile.P003).table["CO-IAI-4"]["title"]
    label = next(label for key, label, _ in HOW if key == "pommel")
    assert label == f"Iai pommel strike 居合 {term}"
    tag = describe(Attack("Deep", "Bob", iai=True, pommel=True))
    assert tag == f"Deep 攻撃 attacks → Bob [Iai 居合] [pommel {term}]"
