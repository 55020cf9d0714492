"""Find a font that has Japanese glyphs, through fontconfig, else where Debian's packages
put one; none found is not an error, but said.

On Debian and Raspberry Pi OS, ``apt-get install fonts-noto-cjk`` provides
Noto Sans CJK JP (``scripts/install-pi.sh`` installs it).
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from companion.errors import DataError

PREFERRED = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic")

# Hiragana, katakana, CJK ideographs and punctuation, full-width forms.
_CJK_CHARS = r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+"
# Japanese, with the digits it holds (オーク1, 第2ラウンド, 1階): left alone, they mean
# nothing. Digits run into from a word (the 6 of 1D6を) are that word's, and stay.
_CJK = re.compile(f"(?:(?<![0-9A-Za-z])[0-9]+)?{_CJK_CHARS}(?:[0-9]+{_CJK_CHARS})*[0-9]*")
# A Japanese name with its English in brackets, 大蛇 (snake): the English alone, unbracketed.
# Capitals alone in brackets are a term, not a name (Sleep 睡眠 (MP)): they stay bracketed.
_CJK_THEN_ENGLISH = re.compile(
    rf"{_CJK.pattern}\s*\((?=[^)]*[a-z])([A-Za-z][A-Za-z0-9 '\-]*)\)")
# A slash joined to Japanese, before or after it (体力/Body, Body / 体力), with its spaces.
_CJK_SLASH = re.compile(rf"(?:{_CJK.pattern})\s*/\s*|\s*/\s*(?={_CJK.pattern})")
_PLAIN_SIGNS = {"▶": ">", "→": "->", "＞": ">", "−": "-",
                "↑": "^", "▲": "^", "▼": "v"}


class FontError(DataError):
    """A font file the screen cannot load."""


@dataclass(frozen=True, slots=True)
class FontFile:
    path: Path
    index: int = 0  # the face inside a .ttc collection


#: Where Debian's and Raspberry Pi OS's packages put a Japanese font, in PREFERRED's order,
#: for a system without fontconfig's fc-match: fonts-noto-cjk does not depend on fontconfig,
#: which came only through Recommends, and a Pi set to install none had the font on disk
#: and no Japanese on the screen (env58 R3). Noto's collection has its JP face first.
KNOWN_FILES = (
    FontFile(Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")),  # fonts-noto-cjk
    FontFile(Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")),
    FontFile(Path("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf")),
    FontFile(Path("/usr/share/fonts/truetype/takao-gothic/TakaoGothic.ttf")),
)

#: Said on stderr (the boot service's journal) when no Japanese font is found.
NO_FONT_NOTE = ("companion: note: no Japanese font found: the screen shows the English "
                "halves of its words only; sudo apt install fonts-noto-cjk fontconfig, "
                "or set display.font to a font file with Japanese")


#: A character a font must draw for the screen to draw its Japanese: a font that has this
#: kanji has the kana and the rest the screen shows.
JAPANESE_PROBE = "牌"


def no_japanese_note(path: Path) -> str:
    """What is said of a ``display.font`` that draws no Japanese (a78screen RISK 3: the
    screen dropped every Japanese half, saying nothing): the file, what it costs, the cure."""
    return (f"display.font {path} has no Japanese glyphs: the screen shows no Japanese, the "
            "English halves of its words only; set display.font to a font file with "
            f"Japanese ({KNOWN_FILES[0].path} from sudo apt install fonts-noto-cjk), or "
            "leave it unset for the screen to find one")


@functools.cache
def say_no_japanese(path: Path) -> None:
    """:func:`no_japanese_note` on stderr, once a run for each file, as :func:`say_no_font`:
    the screen is opened again by each mode switched to."""
    print(f"companion: note: {no_japanese_note(path)}", file=sys.stderr)


def find_cjk_font(configured: str = "") -> FontFile | None:
    """The configured font file, else the first preferred family fontconfig has with ``ja``,
    else the first of :data:`KNOWN_FILES` on disk; none is said on stderr, in one line, the
    first time.
    (A configured file is not known to have Japanese: the screen asks the font itself, and
    says one that has none, :func:`say_no_japanese`.)"""
    if configured:
        path = Path(configured).expanduser()
        return FontFile(path) if path.is_file() else None
    if shutil.which("fc-match") is not None:
        for family in PREFERRED:
            found = _fc_match(f"{family}:lang=ja")
            if found is not None:
                return found
    found = next((font for font in KNOWN_FILES if font.path.is_file()), None)
    if found is None:
        say_no_font()
    return found


@functools.cache
def say_no_font() -> None:
    """:data:`NO_FONT_NOTE`, once a run (review58a N-8): the screen is opened again by each
    mode switched to, and after the boot service's wait, and the journal had the note
    each time."""
    print(NO_FONT_NOTE, file=sys.stderr)


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


def holds_japanese(text: str) -> bool:
    """Whether ``text`` has a Japanese character in it (``大蛇と戦う``, ``オーク1``).

    >>> holds_japanese("部屋1へ"), holds_japanese("Room 1"), holds_japanese("▶")
    (True, False, False)
    """
    return re.search(_CJK_CHARS, text) is not None


@functools.lru_cache(maxsize=4096)
def without_cjk(text: str) -> str:
    """``text`` with Japanese removed, for a screen that has no font to draw it. Kept for
    the texts last asked (a bounded cache): a screen without a Japanese font asks it of
    every text it measures or draws, a wrap of every prefix, some 10 regular expressions
    each, 8 of 13 s over 400 screens (step62).

    >>> without_cjk("大蛇 snake (眠 asleep)")
    'snake (asleep)'
    >>> without_cjk("Round 2 第2ラウンド · turn 手番: オーク1 Orc 1, 1D6を振って")
    'Round 2 · turn: Orc 1, 1D6'
    >>> without_cjk("▶ 体力/Body 6 → (2D6) ＞ 7")
    '> Body 6 -> (2D6) > 7'
    >>> without_cjk("Board 盤面 · N↑ 北")
    'Board · N^'
    >>> without_cjk("Floor 1 1階 · Room 9 部屋9")
    'Floor 1 · Room 9'
    >>> without_cjk("大うずら (emu) #2 defeated; vs 大蛇 (1d9 >= 4)")
    'emu #2 defeated; vs (1d9 >= 4)'
    >>> without_cjk("Sleep 睡眠 (MP)")
    'Sleep (MP)'
    >>> without_cjk("tap / hold I 3 s: System 設定")
    'tap / hold I 3 s: System'
    >>> without_cjk("Rules ルール: plus (all six options 全オプション)")
    'Rules: plus (all six options)'
    >>> without_cjk("now the bottom-left room slot 模擬山から部屋の4枚を置きます: 次は部屋の左下")
    'now the bottom-left room slot'
    >>> without_cjk("Result:"), without_cjk("deeply asleep 熟睡, invisible 透明")
    ('Result:', 'deeply asleep, invisible')
    """
    for sign, plain in _PLAIN_SIGNS.items():  # signs a plain font lacks, as it can draw them
        text = text.replace(sign, plain)
    stripped = _CJK_THEN_ENGLISH.sub(r"\1", text)
    # 体力/Body: the English half alone. Only a slash joined to the Japanese goes: the one
    # between English words stays ("tap / hold I 3 s" read "tap hold I 3 s": screen70 NIT 5).
    stripped = _CJK_SLASH.sub("", stripped)
    stripped = _CJK.sub("", stripped)
    stripped = re.sub(r"\(\s*\)", "", stripped)
    stripped = re.sub(r"\(\s+", "(", stripped)
    stripped = re.sub(r"\s+\)", ")", stripped)  # (all six options 全オプション)
    stripped = re.sub(r"\s+([:;,])", r"\1", stripped)
    stripped = re.sub(r"\s{2,}", " ", stripped).strip()
    # A colon or comma that led to Japanese leads to nothing now ("room slot 模擬山…: 次は…"
    # read "room slot:", a78screen NIT 7); one the text ends on itself stays.
    return stripped if text.rstrip().endswith((":", ";", ",")) else stripped.rstrip(" :;,")
