"""The ``--log`` file: edges no other test pinned (mutation round 3)."""

from __future__ import annotations

from pathlib import Path

from companion.app.session.log import GameLog

EARLIER = b'{"log": "jongrogue-companion", "game_id": "a"}\n{"e": 1}\n'


def test_a_log_cut_shorter_than_where_the_game_began_gets_the_game_at_its_end(
        tmp_path: Path) -> None:
    """The file was cut by hand below the save's log_start: the game's lines go at its end
    (and the start moves there), not past a gap of NUL bytes."""
    path = tmp_path / "games.jsonl"
    path.write_bytes(EARLIER)
    log = GameLog(path, len(EARLIER) + 500)
    log.rewrite(['{"log": "jongrogue-companion", "game_id": "b"}', '{"e": 2}'])
    assert path.read_bytes() == EARLIER + b'{"log": "jongrogue-companion", "game_id": "b"}\n' \
        b'{"e": 2}\n'
    assert log.start == len(EARLIER)


def test_a_resumed_game_moved_after_a_later_game_cut_mid_line_starts_on_its_own_line(
        tmp_path: Path) -> None:
    """A game logged after this one stopped, its last line cut off by a power cut: this
    game's lines, moved after it on the resume, begin on a line of their own (glued to the
    cut line, its header was no line `replay` could read)."""
    ours = ['{"log": "jongrogue-companion", "game_id": "a"}', '{"e": 1}']
    later = b'{"log": "jongrogue-companion", "game_id": "b"}\n{"e": 5}\n{"e": 6, "cu'
    path = tmp_path / "games.jsonl"
    path.write_bytes("".join(line + "\n" for line in ours).encode() + later)
    log = GameLog(path, 0)
    log.rewrite([*ours, '{"e": 2}'])
    assert path.read_bytes().split(b"\n") == [
        *later.split(b"\n"), *(line.encode() for line in ours), b'{"e": 2}', b""]
    assert log.start == len(later) + 1


def test_a_first_line_cut_short_at_the_games_start_is_ours_and_rewritten(
        tmp_path: Path) -> None:
    """A power cut in this game's first write left half its header where the game begins:
    that is this game's, written whole by the resume, not another game's line kept."""
    ours = ['{"log": "jongrogue-companion", "game_id": "b"}', '{"e": 2}']
    path = tmp_path / "games.jsonl"
    path.write_bytes(EARLIER + ours[0].encode()[:20])
    log = GameLog(path, len(EARLIER))
    log.rewrite(ours)
    assert path.read_bytes() == EARLIER + "".join(line + "\n" for line in ours).encode()
    assert log.start == len(EARLIER)
