#!/usr/bin/env python3
"""Benchmark the screen display: full redraw time and time to the first screen.

Targets (issue 5): a full redraw at 800x480 within 16 ms; the first screen
within 3 s of start. Runs on the SDL dummy driver unless SDL_VIDEODRIVER is
set (on the Pi: SDL_VIDEODRIVER=kmsdrm to measure the real screen).

    python scripts/bench_display.py [--frames 300] [--screenshots docs/]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

FIRST_SCREEN = """
import time
t0 = time.perf_counter()
from companion.app.view import example_view
from companion.hw.display import open_display
display = open_display("screen", "800x480")
display.show(example_view())
print(time.perf_counter() - t0)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--screenshots", type=Path, help="save one PNG per layout here")
    args = parser.parse_args()

    from companion.app.view import example_view
    from companion.hw.display.screen import LAYOUTS, ScreenDisplay

    view = example_view()
    for size in LAYOUTS:
        display = ScreenDisplay(size)
        start = time.perf_counter()
        display.render(view)
        cold = time.perf_counter() - start
        # A step changes the log and the last check: vary them so some text is new each frame.
        times = []
        for i in range(args.frames):
            frame = replace(view, log=(*view.log[1:], f"step {i}"))
            start = time.perf_counter()
            display.render(frame)
            times.append(time.perf_counter() - start)
        times.sort()
        p95 = times[int(len(times) * 0.95)]
        print(f"{size}: full redraw median {statistics.median(times) * 1000:.2f} ms, "
              f"p95 {p95 * 1000:.2f} ms, worst {times[-1] * 1000:.2f} ms, "
              f"first (cold caches) {cold * 1000:.1f} ms  [target 16 ms at 800x480]")
        if args.screenshots:
            args.screenshots.mkdir(parents=True, exist_ok=True)
            display.render(view)
            display.save_png(args.screenshots / f"screen-{size}.png")
        display.close()

    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", FIRST_SCREEN], capture_output=True, text=True,
                         check=True).stdout
    total = time.perf_counter() - start
    print(f"first screen: {float(out.strip()):.2f} s after imports began, {total:.2f} s "
          "including interpreter start  [target 3 s]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
