"""What the screen's layout tests share: the texts a screen draws (``spy_text``,
``texts_drawn``) and the pictures it blits (``spy_blits``), its own text size, and the menus,
prompts and fights drawn on it (moved from tests/hw/test_screen_layout.py, tidy72: no test
module imports another), and the ``screen`` fixture, each layout (tests/hw/conftest.py offers
it to tests/hw; tidy73)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import pygame
import pytest

from companion.hw.buttons import Button
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import (
    FighterView,
    FightView,
    Name,
    Option,
    View,
    example_fight_view,
)


def at_own_text_size(screen: ScreenDisplay) -> None:
    """Skip a test of how much reads whole at the screen's own text size: with larger text
    (``display.text_scale``) less does, and gives way (a step closer, then cut with …),
    which the other tests, and ``test_text_sizes``, check at every scale."""
    if screen.text_scale != 1.0:
        pytest.skip("how much reads whole is set for the screen's own text size")


@dataclass
class Drawn:
    """A text the screen fitted: what, at which size, into what width, what it became, and
    whether it is an option's label (fitted by ``_fit_middle``)."""

    text: str
    size: int
    width: int
    shown: str
    label: bool

    @property
    def cut(self) -> bool:
        return "…" in self.shown and "…" not in self.text


def texts_drawn(screen: ScreenDisplay) -> list[str]:
    """Every text the screen renders from now on (as given, before a cut)."""
    texts: list[str] = []
    text = screen._text

    def spy(value: str, size: int, color: tuple[int, int, int] = (0, 0, 0)) -> pygame.Surface:
        texts.append(value)
        return text(value, size, color)

    screen.__dict__["_text"] = spy
    return texts


def spy_text(screen: ScreenDisplay) -> list[Drawn]:
    """Record every text fitted (and so drawn) from now on, with what it was cut to."""
    drawn: list[Drawn] = []
    rendered: dict[int, str] = {}
    text = screen._text

    def text_spy(value: str, size: int, color: tuple[int, int, int] = (0, 0, 0)) \
            -> pygame.Surface:
        surface = text(value, size, color)
        rendered[id(surface)] = value
        return surface

    def wrap(fit: Callable[..., pygame.Surface], label: bool) -> Callable[..., pygame.Surface]:
        def spy(value: str, size: int, width: int, *args: Any) -> pygame.Surface:
            surface = fit(value, size, width, *args)
            drawn.append(Drawn(value, size, width, rendered.get(id(surface), value), label))
            return surface
        return spy

    screen.__dict__["_text"] = text_spy
    screen.__dict__["_fit"] = wrap(screen._fit, False)
    if hasattr(screen, "_fit_middle"):  # (not before labels were cut in the middle)
        screen.__dict__["_fit_middle"] = wrap(screen._fit_middle, True)
    return drawn


def drawn_on(view: View, size: str = "800x480", text_scale: float = 1.0) -> list[Drawn]:
    """Every text a fresh screen of ``size`` draws of ``view`` (spy_text), the screen closed
    after (dedupe73 D7/D8/D12)."""
    screen = ScreenDisplay(size, text_scale=text_scale)
    try:
        drawn = spy_text(screen)
        screen.render(view)
    finally:
        screen.close()
    return drawn


RING_MENU = tuple(
    [Option(f"fight:{n}", f"Fight {who} {pos} {ja}") for n, (who, pos, ja) in enumerate(
        [("medusa", "TL", "メデューサ"), ("troll", "TR", "トロール"),
         ("xeroc", "BL", "ゼロックス"), ("medusa", "BR", "メデューサ")])]
    + [Option("shoot:0", "Shoot medusa TL メデューサ", Button.RANGED)]
    + [Option(f"shoot:{n}", f"Shoot {who} 射撃") for n, who in enumerate(["troll", "xeroc",
                                                                          "medusa"], 1)]
    + [Option("use:1p", "Use healing potion 回復薬", Button.ITEM), Option("defend", "Defend 防御"),
       Option("flee", "Flee 逃げる", Button.FLEE)]
    + [Option(f"equip:{t}", f"Equip ring of {what} 指輪") for t, what in
       (("8p", "armour protection"), ("9p", "adornment"), ("7p", "strength"),
        ("6p", "stealth"))]
    + [Option("unequip:6p", "Remove ring of stealth 隠密の指輪"),
       Option("ready:bow", "Ready bow 弓を構える")])


def _fight() -> FightView:
    fight = example_fight_view().fight
    assert fight is not None
    return fight


TILE_PROMPT = ("Draw a tile and put it on the draw slot 牌を引いて引き牌の枠に置いて: "
               "melee 近接攻撃 vs 大蛇 snake (判定 1d9 >= 3)")


def _big_fight(acting: int, outcome: str = "") -> View:
    party, enemy = Name("味方", "party"), Name("敵", "enemy")
    fighters = [FighterView(Name(f"冒険者{n}", f"PC {n}"), party, 10, 10, 8, 8,
                            ("全力回避 full dodge",) if n == 2 else ()) for n in range(1, 7)]
    fighters += [FighterView(Name(f"ジャイアント・アント{n}", f"Giant Ant {n}"), enemy, -2, 4,
                             4, 4, ("DEAD 死亡",), ally=False, down=True) for n in range(1, 8)]
    fighters[acting] = replace(fighters[acting], acting=True)
    fight = replace(_fight(), fighters=tuple(fighters), outcome=outcome,
                    turn="" if outcome else "x")
    return replace(example_fight_view(), fight=fight)


@pytest.fixture(params=[("800x480", 1.0), ("1024x600", 1.0), ("800x480", 1.25),
                        ("1024x600", 1.25)],
                ids=["800x480", "1024x600", "800x480-text1.25", "1024x600-text1.25"])
def screen(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    """Each layout, and each with its fonts a quarter larger (``display.text_scale``): what
    fits, fits as well; what does not gives way as it does at its own size."""
    size, scale = request.param
    if scale != 1.0 and not request.module.__name__.startswith("tests.hw."):
        pytest.skip("a mode's screens (tests/app) are checked at the screen's own text size")
    display = ScreenDisplay(size, text_scale=scale) if scale != 1.0 else ScreenDisplay(size)
    yield display
    display.close()


@dataclass(frozen=True)
class Blit:
    """A text blitted onto the screen: what, at which (unscaled) size, where, and where
    its glyphs are (``ink``: the rect less the font's padding)."""

    text: str
    size: int
    rect: pygame.Rect
    ink: pygame.Rect
    mask: pygame.mask.Mask


class _Spy(pygame.Surface):
    """The screen's surface, with a record of each rendered text blitted onto it."""

    texts: dict[int, tuple[str, int]]
    blits: list[Blit]

    def blit(self, source: pygame.Surface, dest: Any, *args: Any, **kwargs: Any) \
            -> pygame.Rect:
        rect = super().blit(source, dest, *args, **kwargs)
        text = self.texts.get(id(source))
        if text is not None:
            at = source.get_rect(topleft=rect.topleft)
            ink = source.get_bounding_rect().move(at.topleft)
            self.blits.append(Blit(text[0], text[1], at, ink, pygame.mask.from_surface(source)))
        return rect


def spy_blits(screen: ScreenDisplay) -> list[Blit]:
    """Every text drawn on the screen from now on (a surface of its own size stands in for
    the screen, which ``render`` returns); and, in ``screen.titles`` and ``screen.panels``,
    the panels' titles and rects."""
    spy = _Spy(screen.surface.get_size())
    spy.texts, spy.blits = {}, []
    screen.surface = spy
    text, panel = screen._text, screen._panel
    titles: set[str] = set()
    panels: list[pygame.Rect] = []
    screen.__dict__["titles"], screen.__dict__["panels"] = titles, panels

    def panel_spy(rect: pygame.Rect, title: str | None = None) -> int:
        panels.append(rect.copy())
        if title is not None:
            titles.add(title)
        return panel(rect, title)

    screen.__dict__["_panel"] = panel_spy

    def text_spy(value: str, size: int, color: tuple[int, int, int] = (0, 0, 0)) \
            -> pygame.Surface:
        surface = text(value, size, color)
        spy.texts[id(surface)] = (value, size)
        return surface

    screen.__dict__["_text"] = text_spy
    return spy.blits
