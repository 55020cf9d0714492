"""The party's HP and MP as ``companion events`` keeps them between tables (cli59 F4).

The party file (``--party``, ``events_party.toml``) is the player's and never written. What
the tables do to a member's HP and MP (trap damage and a pit, EV-TRAP-2/7; a poison's
ticks, EV-POI-8; a recovery spot, EV-REC-1) is kept in ``events/party_hp.toml`` in the
data folder, beside the tracked poisons, and read before the file's values: a recovery
right after damage caps from the HP left, and two recoveries in a row from the first's.

With each member's current HP and MP the list keeps the party file's ``hp``/``mp`` they
started from. The GM edits the file when they heal or hurt someone by hand: a file whose
value is not the one kept wins, and is said once (the list then keeps it as the new
start). A value the file already says (a full heal when the file says full HP) is set by
forgetting what is kept (``events party --reset [NAME]``, review59b F2). A pool the file
leaves out is not kept, nor changed (review59b F4). As with the
poisons, each change holds the list (:func:`~companion.file_locks.changing`), reads it,
and writes it whole; a file that cannot be read as one is kept aside (never deleted), with
a notice, and the party's HP is then the file's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import tomlkit

from companion.app.overrides import read_text
from companion.app.paths import config_dir, data_dir
from companion.errors import DataError
from companion.file_locks import changing
from companion.files import file_there, load_toml_kept
from companion.systems.events.poisoned import TimePassed
from companion.systems.events.sword_world import Member, folded_name, load_party
from companion.toml_writing import table, write_toml

PARTY_HP_NAME = "party_hp.toml"
#: The player's party for every sw-mode run and the dice tray's poison ticks, in the config
#: folder; ``--party`` wins.
PARTY_NAME = "events_party.toml"
#: Far larger than a party's HP could ever be written.
_LIMIT = 256 * 1024
_COMMENTS = ("The party's HP and MP as `companion events` keeps them: hp and mp now,",
             "from_hp and from_mp the party file's they started from. To change one, edit",
             "the party file: its new value wins. To go back to the party file's values",
             "(one it already says), run `companion events party --reset [NAME]`.")
#: Who holds the list while changing it, as its lock file says (:func:`changing`).
CHANGER = "companion, changing the party's HP and MP"
POOLS = ("hp", "mp")


def party_hp_path() -> Path:
    return data_dir() / "events" / PARTY_HP_NAME


def user_party(given: str | None) -> tuple[Member, ...]:
    """The party whose HP is kept: the file ``--party`` gives, else ``events_party.toml``
    in the config folder when there is one (none: an empty party; sw mode asks for one,
    the dice tray's ticks keep the HP of no one not kept yet); a DataError names the file
    and what is wrong in it."""
    path = given_or_saved(given, PARTY_NAME)
    return () if path is None else load_party(read_text(path, "party file"), str(path))


def given_or_saved(given: str | None, saved: str) -> Path | None:
    """The file an option gives, else the one saved as ``saved`` in the config folder, else
    None; a saved one that is a link to a file gone is a DataError naming it."""
    if given is not None:
        return Path(given)
    path = config_dir() / saved
    return path if file_there(path) else None


@dataclass(frozen=True)
class Kept:
    """One pool of one member: its value now, and the party file's it was kept from."""

    now: int
    start: int


def _kept(raw: dict[str, object]) -> dict[str, dict[str, Kept]]:
    """The list as the file holds it: ``[name]`` tables of ``hp``/``from_hp``,
    ``mp``/``from_mp``; DataError names what is not."""
    kept: dict[str, dict[str, Kept]] = {}
    for name, fields in raw.items():
        if not isinstance(fields, dict):
            raise DataError(f"{name!r} must be a [table] of hp and mp, found {fields!r}")
        pools = {}
        for pool in POOLS:
            now, start = fields.get(pool), fields.get(f"from_{pool}")
            if now is None and start is None:
                continue
            if not (isinstance(now, int) and isinstance(start, int)) \
                    or isinstance(now, bool) or isinstance(start, bool):
                raise DataError(f"{name}: {pool} and from_{pool} must be whole numbers, found "
                                f"{now!r} and {start!r}")
            pools[pool] = Kept(now, start)
        kept[name] = pools
    return kept


class ByFoldedName(Mapping[str, int]):
    """HP by character, found whatever the width and case a name is written in (``aki``,
    ``ＡＫＩ`` find Aki's), as ``--who`` and the poison list find a member; listed in the
    spelling given."""

    def __init__(self, values: Mapping[str, int]) -> None:
        self._names = dict(values)
        self._folded = {folded_name(name): value for name, value in values.items()}

    def __getitem__(self, name: str) -> int:
        return self._folded[folded_name(name)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


class PartyHP:
    """The kept HP and MP by member, in ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: why the file was kept aside when it was, for the player to read
        self.notices: list[str] = []
        self.kept = self._load()

    def _load(self) -> dict[str, dict[str, Kept]]:
        return load_toml_kept(self.path, _LIMIT, "list of the party's HP and MP", _kept, {},
                              "the party file's HP and MP are used", self.notices)

    def current(self, party: Sequence[Member]) -> tuple[tuple[Member, ...], list[str]]:
        """``party`` with each member's kept HP and MP in place of the file's, and what
        to say of a file whose value is not the one kept from (the file's is taken)."""
        members, told = [], []
        for member in party:
            values = {}
            for pool in POOLS:
                given = getattr(member, pool)
                kept = self.kept.get(member.name, {}).get(pool)
                if given is None or kept is None:
                    continue
                if kept.start == given:
                    values[pool] = kept.now
                elif kept.now != given:
                    told.append(f"{member.name}: the party file's {pool} is {given}, not the "
                                f"{kept.start} the kept {pool.upper()} {kept.now} came from: "
                                f"the file's {given} is taken")
            members.append(replace(member, hp=values.get("hp", member.hp),
                                   mp=values.get("mp", member.mp)))
        return tuple(members), told

    def hp_now(self, now: Sequence[Member]) -> ByFoldedName:
        """Each character's HP now, as a poison's tick says it beside what it takes: the
        party's (``now``, kept values in), and the HP kept for one not in it (a rest with no
        party); a member whose party file leaves out hp has none (review59b F4). Found by
        the folded name, as the poison list finds a member: a poison tracked for ``aki``
        in generic mode ticks Aki's HP (a77events DEFECT 2)."""
        given = {folded_name(m.name): m.hp for m in now}
        kept = {name: pools["hp"].now for name, pools in self.kept.items()
                if "hp" in pools and folded_name(name) not in given}
        return ByFoldedName({**kept, **{m.name: m.hp for m in now if m.hp is not None}})

    def keep(self, party: Sequence[Member],
             changes: Mapping[str, Mapping[str, int]] | None = None,
             cap: bool = False) -> None:
        """Apply ``changes`` (by member, ``{"hp": -4}``) to the pools as the file holds them
        now, a pool whose party file value the GM changed starting afresh from it, and
        write the list when that changes it. A name ``changes`` gives who is not in
        ``party`` (``events rest`` with no party) changes the pool kept for it; one with no
        pool kept or given, nothing; a member of ``party`` whose file leaves the pool out,
        nothing. ``cap`` (EV-REC-1's cap_at_maximum): a gain stops at the member's maximum
        as the pool is now, for another command's recovery kept meanwhile was not in the
        walk's (review59b F6). Nothing to change (most rolls): no lock file, nor its
        folder, is made. Another program holding the list past the wait:
        :class:`~companion.file_locks.StillChanging`, and nothing is changed."""
        if not self._changed(self.kept, party, changes or {}, cap):
            return
        with changing(self.path, CHANGER):
            before = self._load()
            kept = self._changed(before, party, changes or {}, cap)
            if kept:
                self._save(kept)
                self.kept = kept

    def forget(self, names: Sequence[str] | None = None) -> list[str]:
        """Forget the HP and MP kept for ``names`` (None: everyone), so the party file's
        values are taken again (review59b F2: the GM's heal to the value the file already
        says); the names forgotten, in the list's order. A name is found whatever its width
        and case (``aki``, ``ＡＫＩ`` forget Aki's), as ``--who`` finds a member (events70
        DEFECT 3). Nothing to forget: nothing written."""
        wanted = None if names is None else {folded_name(name) for name in names}

        def chosen(kept: Mapping[str, object]) -> list[str]:
            return [name for name in kept if wanted is None or folded_name(name) in wanted]

        if not chosen(self.kept):
            return []
        with changing(self.path, CHANGER):
            before = self._load()
            forgotten = chosen(before)
            left = {name: pools for name, pools in before.items() if name not in forgotten}
            if forgotten:
                self._save(left)
        self.kept = left
        return forgotten

    @staticmethod
    def _changed(kept: Mapping[str, Mapping[str, Kept]], party: Sequence[Member],
                 changes: Mapping[str, Mapping[str, int]],
                 cap: bool = False) -> dict[str, dict[str, Kept]] | None:
        """The list after ``changes`` to ``kept``, None when they change nothing."""
        after = {name: dict(pools) for name, pools in kept.items()}
        given = {m.name: m for m in party}
        # a change named ``aki`` (a generic-mode poison's tick) is Aki's: the party
        # file's spelling, else the one kept (a77events DEFECT 2)
        spelt = {folded_name(name): name for name in (*after, *given)}
        for name, member in given.items():
            for pool in POOLS:
                value, old = getattr(member, pool), after.get(name, {}).get(pool)
                if value is not None and old is not None and old.start != value:
                    after[name][pool] = Kept(value, value)  # the GM's edit wins
        for named, pools in changes.items():
            name = spelt.get(folded_name(named), named)
            whose = given.get(name)
            for pool, change in pools.items():
                value = None if whose is None else getattr(whose, pool)
                if whose is not None and value is None:
                    continue  # the file leaves it out: none is kept (F4)
                old = after.get(name, {}).get(pool)
                if old is None and value is not None:
                    old = Kept(value, value)
                if old is None:
                    continue
                now = old.now + change
                most = 0 if whose is None else getattr(whose, f"max_{pool}")
                if cap and change > 0 and most:
                    now = min(now, max(most, old.now))  # never lowered by the cap
                after.setdefault(name, {})[pool] = Kept(now, old.start)
        return None if after == kept else after

    def _save(self, kept: Mapping[str, Mapping[str, Kept]]) -> None:
        document = tomlkit.document()
        for comment in _COMMENTS:
            document.add(tomlkit.comment(comment))
        for name, pools in kept.items():
            values: dict[str, object] = {}
            for pool, value in pools.items():
                values[pool] = value.now
                values[f"from_{pool}"] = value.start
            document.add(name, table(values))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_toml(self.path, document)


def poison_hp_lost(passed: TimePassed) -> dict[str, dict[str, int]]:
    """The HP each poison's tick took (EV-POI-8), as changes to keep: ``events end-block``
    and ``rest``, and the dice tray's *Poisons*, keep them alike (review59b F3)."""
    return {step.member: {"hp": -step.data["hp_lost"]} for step in passed.steps
            if step.member is not None and step.data.get("hp_lost")}


def say_unkept(passed: TimePassed, hp: Mapping[str, int], party: Sequence[Member],
               no_party: str) -> TimePassed:
    """``passed`` with each tick that takes HP from one whose HP is not kept (not in ``hp``,
    :meth:`PartyHP.hp_now`) saying so on its line, and why: no party file read
    (``no_party``, how to give one), a name not in the party, or a party file that leaves
    out hp. :meth:`PartyHP.keep` takes nothing from them, and the tick is spent all the
    same: the line said "1 HP lost" and the HP was lost to the books unsaid (events74
    DEFECT 1). The step's data says ``hp_kept`` false, for ``--json``. Names are compared
    folded (``aki`` is the party's Aki), as ``hp`` finds them."""
    members = {folded_name(m.name) for m in party}
    steps = []
    for step in passed.steps:
        name = step.member
        if name is None or not step.data.get("hp_lost") or name in hp:
            steps.append(step)
            continue
        why = (no_party if not party else "not in the party file"
               if folded_name(name) not in members
               else "the party file gives no hp")
        steps.append(replace(step, text=f"{step.text}; {name}'s HP not kept ({why}): "
                                        "take it off by hand",
                             data={**step.data, "hp_kept": False}))
    return replace(passed, steps=tuple(steps))


def pools_text(members: Iterable[Member]) -> list[str]:
    """Each member's HP and MP now, for ``events party``: "Aki: HP 16/25, MP 10/12"; a
    pool the party file leaves out is said not kept."""
    lines = []
    for member in members:
        said = []
        for pool in POOLS:
            value, most = getattr(member, pool), getattr(member, f"max_{pool}")
            said.append(f"{pool.upper()} " + ("not given" if value is None
                                              else f"{value}/{most}" if most else str(value)))
        lines.append(f"{member.name}: {', '.join(said)}")
    return lines
