#!/usr/bin/env python3
"""Count the JongRogue option labels the screen cuts, over auto-played games.

Plays games of JongRogue (the plus profile) with the headless player, cautious and
reckless, on seeds 0 to --seeds - 1, renders every menu of more than --min-options
choices on the screen at --size (the SDL dummy driver) and counts each option label
drawn cut with "…" (a label that fits its box at no size from its own down to 14 px).
Prints each distinct cut, most frequent first, with how often it was drawn and where it
was first (seed, strategy, inputs played), then the total of cuts drawn: the measure
display audit 54 and its label follow-up report.

    .venv/bin/python scripts/scan_label_cuts.py [--size 800x480] [--seeds 4] [--scale 1.0]
        [--shot SEED STRATEGY INPUTS PNG]

``--shot`` saves the screen at that point of that game (its menu as the player saw it)
to PNG instead of counting, to look at a cut (or its absence) before and after a change.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
# pygame greets on import, before companion (which hides it) is imported (scripts68 N6)
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame

from companion.app.arg_types import cannot_write_file, non_negative_int, positive_int
from companion.app.modes.jongrogue import JongRogueMode, options_for
from companion.hw.display.canvas import TEXT_SCALES
from companion.hw.display.screen import LAYOUTS, ScreenDisplay
from companion.systems.jongrogue.actions import ChoiceRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.game import Game

STRATEGIES = ("cautious", "reckless")
MAX_INPUTS = 3000  # a game the player has not ended by then is cut short here


def spy_cuts(screen: ScreenDisplay) -> list[tuple[str, str]]:
    """Record each label fitted from now on as (its text, what it was drawn as)."""
    drawn: list[tuple[str, str]] = []
    rendered: dict[int, str] = {}
    text, fit_middle = screen._text, screen._fit_middle

    def text_spy(value: str, size: int, *args: Any) -> pygame.Surface:
        surface = text(value, size, *args)
        rendered[id(surface)] = value
        return surface

    def fit_spy(value: str, size: int, width: int, *args: Any) -> pygame.Surface:
        surface = fit_middle(value, size, width, *args)
        drawn.append((value, rendered.get(id(surface), value)))
        return surface

    screen.__dict__["_text"] = text_spy
    screen.__dict__["_fit_middle"] = fit_spy
    return drawn


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # an unknown size was drawn at 800x480 and reported as itself (audit scripts68 N5)
    parser.add_argument("--size", choices=sorted(LAYOUTS), default="800x480",
                        help="the screen's layout (default %(default)s)")
    parser.add_argument("--seeds", type=positive_int, default=4,
                        help="games of each strategy, seeds 0 to N - 1 (default %(default)s)")
    low, high = TEXT_SCALES
    parser.add_argument("--scale", type=float, default=1.0,
                        help=f"every font that much larger, {low:g} to {high:g} "
                             "(display.text_scale; default %(default)s)")
    parser.add_argument("--min-options", type=positive_int, default=5,
                        help="scan menus of at least this many choices (the grid's; default "
                             "%(default)s)")
    parser.add_argument("--shot", nargs=4, metavar=("SEED", "STRATEGY", "INPUTS", "PNG"),
                        help="instead of scanning: play seed SEED with STRATEGY and save the "
                             "menu at input INPUTS as PNG")
    args = parser.parse_args(argv)
    if not low <= args.scale <= high:
        parser.error(f"--scale {args.scale:g}: give {low:g} to {high:g}")
    if args.shot:
        seed, strategy, inputs, png = args.shot
        try:
            non_negative_int(seed), non_negative_int(inputs)
        except argparse.ArgumentTypeError as exc:
            parser.error(f"--shot: {exc}")
        if strategy not in STRATEGIES:
            parser.error(f"--shot: strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")
        # before the game is played to it, not pygame's error after (a76maker DEFECT 1)
        trouble = cannot_write_file(Path(png))
        if trouble:
            parser.error(f"--shot: {png}: {trouble}")
    screen = ScreenDisplay(args.size, text_scale=args.scale)
    drawn = spy_cuts(screen)
    cuts: collections.Counter[tuple[str, str]] = collections.Counter()
    first: dict[tuple[str, str], tuple[int, str, int]] = {}
    games = [(int(args.shot[0]), args.shot[1])] if args.shot else \
        [(seed, strategy) for seed in range(args.seeds) for strategy in STRATEGIES]
    for seed, strategy in games:
        game = Game("plus")
        player = HeadlessPlayer(seed, strategy)
        mode = JongRogueMode(game, player)
        while game.outcome() is None and len(game.inputs) < MAX_INPUTS:
            request = game.pending
            at = (seed, strategy, len(game.inputs))
            if args.shot and at[2] == int(args.shot[2]):
                if not isinstance(request, ChoiceRequest):
                    sys.exit(f"input {at[2]} of {seed} {strategy} asks for a tile, not a choice")
                options, highlight = options_for(game, request)
                screen.render(mode.view(f"Floor {game.floor}, room {game.room_no}: what next?",
                                        options=options, highlight=highlight))
                pygame.image.save(screen.surface, args.shot[3])
                return
            if isinstance(request, ChoiceRequest) and len(request.options) >= args.min_options:
                options, highlight = options_for(game, request)
                drawn.clear()
                screen.render(mode.view(f"Floor {game.floor}, room {game.room_no}: what next?",
                                        options=options, highlight=highlight))
                for label, shown in drawn:
                    if label != shown:
                        cuts[(label, shown)] += 1
                        first.setdefault((label, shown), at)
            mode.push(player.answer(game))
    if args.shot:
        sys.exit(f"{args.shot[0]} {args.shot[1]} ended before input {args.shot[2]}")
    for (label, shown), n in cuts.most_common():
        print(n, repr(label), "->", repr(shown), first[(label, shown)])
    print(f"{sum(cuts.values())} cut labels drawn, {len(cuts)} distinct, at {args.size} "
          f"(seeds 0-{args.seeds - 1}, scale {args.scale})")


if __name__ == "__main__":
    main()
