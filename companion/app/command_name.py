"""The ``companion`` command as the user can type it where they are, for the hints that
name it (play's last line and resume notes, history's notes, the tables' and the other
commands' next steps); apart from play's modules, which a listing need not load (0.2 s)."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path


def companion_command(where: Path | None = None) -> str:
    """The ``companion`` command as the user can type it here (install58 N1), or in the
    folder ``where`` when the hint goes there first (``cd … && …``): by its name when the
    one on the PATH is this venv's, or when install-pi.sh linked it as
    ~/.local/bin/companion, which the player's login shell has on its PATH though the boot
    service's has not (its table screen names the command typed over SSH: setup66 D1),
    else this venv's own script, which
    scripts/bootstrap.sh puts on no PATH: ``.venv/bin/companion`` from the checkout,
    ``./companion`` from .venv/bin (a bare name would be looked up on the PATH), its whole
    path from elsewhere, and from a working folder that was deleted: a hint never fails the
    command it ends (review58a N-4). Shell-quoted already: join further words to it with
    :func:`companion_line`, not ``shlex.join``, which would quote it twice."""
    script = Path(sys.executable).parent / "companion"
    if not script.is_file() or _same_script(shutil.which("companion"), script) \
            or _same_script(Path("~/.local/bin/companion"), script):
        return "companion"
    try:
        relative = script.relative_to(Path.cwd() if where is None else where)
    except (OSError, ValueError):
        return shlex.quote(str(script))
    return shlex.quote(str(relative) if relative.parent != Path() else f"./{relative}")


def _same_script(found: str | Path | None, script: Path) -> bool:
    """Whether ``found`` (the ``companion`` on the PATH, or install-pi.sh's link in
    ~/.local/bin) is this venv's ``script``: another checkout's would run another companion
    on this one's save (reviewsetup66 R3)."""
    if found is None:
        return False
    try:
        return Path(found).expanduser().resolve() == script.resolve()
    except (OSError, RuntimeError):  # no home folder, or a link loop
        return False


def companion_line(*words: str, where: Path | None = None) -> str:
    """``companion`` with ``words`` (each quoted for the shell as it needs) as one command
    line the user can type here, or in ``where`` (:func:`companion_command`): every hint
    that names a command to run is built by it or names :func:`companion_command` (setup66
    D1: `companion play --resume …` said "command not found" after scripts/bootstrap.sh)."""
    return " ".join([companion_command(where), *([shlex.join(words)] if words else [])])


def as_typed_here(text: str) -> str:
    """``text`` with each command in backticks that starts `companion ` named as the user
    can type it here (:func:`companion_command`): for the errors of the adapters and the
    rules, which name a command to run yet never import the app (setup66 D1)."""
    command = companion_command()
    return text if command == "companion" else text.replace("`companion ", f"`{command} ")


def file_option(path: Path, default: Path) -> str:
    """`` --file PATH`` for a command a hint names on the fight file at ``path``; nothing
    for the system's ``default`` file, so the command acts on that fight, not the default
    one (genso's fight commands; coc's, r76coc D1: `coc fight undo` after the end of a
    ``--file`` fight undid the default fight's last action)."""
    if path.resolve() == default.resolve():
        return ""
    return f" --file {shlex.quote(str(path))}"
