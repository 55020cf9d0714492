"""Shared by the coc rules-data tests: the packaged rules files, and one with a value edited."""

from __future__ import annotations

from importlib.resources import files


def packaged(name: str = "rules.toml") -> str:
    return files("companion.systems.coc").joinpath("data", name).read_text(encoding="utf-8")


def edited(header: str, key: str, value: str | None, name: str = "rules.toml") -> str:
    """The packaged file with ``key`` under ``[header]`` set to ``value`` (None: removed)."""
    lines = packaged(name).splitlines()
    start = lines.index(f"[{header}]")
    for n in range(start + 1, len(lines)):
        if lines[n].startswith("["):
            break
        if lines[n].split("=")[0].strip() == key:
            if value is None:
                del lines[n]
            else:
                lines[n] = f"{key} = {value}"
            return "\n".join(lines) + "\n"
    raise AssertionError(f"no {key} under [{header}]")
