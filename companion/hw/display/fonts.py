"""Find a font that has Japanese glyphs, through fontconfig; none found is not an error.

On Debian and Raspberry Pi OS, ``apt-get install fonts-noto-cjk`` provides
Noto Sans CJK JP (``scripts/install-pi.sh`` installs it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

PREFERRED = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic")

# Hiragana, katakana, CJK ideographs and punctuation, full-width forms.
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+")


@dataclass(frozen=True, slots=True)
class FontFile:
    path: Path
    index: int = 0  # the face inside a .ttc collection


def find_cjk_font(configured: str = "") -> FontFile | None:
    """The configured font file, else the first preferred family fontconfig has with ``ja``."""
    if configured:
        path = Path(configured).expanduser()
        return FontFile(path) if path.is_file() else None
    if shutil.which("fc-match") is None:
        return None
    for family in PREFERRED:
        found = _fc_match(f"{family}:lang=ja")
        if found is not None:
            return found
    return None


def _fc_match(pattern: str) -> FontFile | None:
    try:
        out = subprocess.run(
            ["fc-match", "-f", "%{file}\\n%{index}\\n%{lang}", pattern],
            capture_output=True, text=True, timeout=5, check=False,
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = out.split("\n")
    # fc-match always answers with *some* font; only accept one that covers Japanese.
    if len(parts) != 3 or "ja" not in parts[2].split("|"):
        return None
    path = Path(parts[0])
    return FontFile(path, int(parts[1] or 0)) if path.is_file() else None


def without_cjk(text: str) -> str:
    """``text`` with Japanese removed, for a screen that has no font to draw it.

    >>> without_cjk("大蛇 snake (眠 asleep)")
    'snake (asleep)'
    """
    stripped = _CJK.sub("", text)
    stripped = re.sub(r"\(\s*\)", "", stripped)
    stripped = re.sub(r"\(\s+", "(", stripped)
    return re.sub(r"\s{2,}", " ", stripped).strip()
