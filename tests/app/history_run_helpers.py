"""A history's run made by hand, and a page of its table damaged, for the history tests."""

from __future__ import annotations

from pathlib import Path

from companion.app.history import Run

TABLE_LEAF = 0x0D  # the first byte of a page holding a table's rows (SQLite's file format)


def make_run(game_id: str, won: bool, floor: int, cause: str | None) -> Run:
    return Run(
        game_id=game_id, finished_at=f"2026-11-29T17:0{len(game_id)}:00Z", seed=7,
        preset="plus", won=won, floor=floor, level=3, gold=120, cause=cause, events=88,
        input_kind="sim",
    )


def _damage_a_table_page(path: Path, which: int) -> None:
    """Write over the header of the history's ``which``-th page of rows (from 0), as a bad
    block of an SD card would: the first page, the schema, stays whole."""
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    leaves = [n for n in range(1, len(data) // size) if data[n * size] == TABLE_LEAF]
    data[leaves[which] * size:leaves[which] * size + 12] = b"\xff" * 12
    path.write_bytes(data)
