"""System `events`: roll one of seed 001's 1D6 dungeon event tables and walk it (spec §1).

:func:`run_event` rolls one table with an injected DiceSource and walks its
follow-ups, returning an :class:`~companion.systems.events.report.EventReport` of
structured steps (for a screen) that also prints as text. In ``generic`` mode it rolls
the tables and states the target and countermeasure, leaving checks to the GM; in ``sw``
mode it also rolls the Sword World checks for the party (EV-CORE-2). The mode and the DM
level default to the rules data's Defaults (§1, EV-CORE-1); a trap named with ``trap``
fires without a roll of its type (EV-DOOR-3). A walk stopped short by its source (out of
the dice thrown so far, in the dice tray) hands ``so_far`` the steps it had walked before
the error goes on: the walk stays pure, the same dice giving the same steps.

The tables, checks and Defaults it walks are the rules data of
:mod:`companion.systems.events.rules`; the walk itself is the layers ending in
:class:`~companion.systems.events.doors._Run`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from companion.dice.sources import DiceSource
from companion.errors import DataError
from companion.systems.defaults import RuleRefused
from companion.systems.events.doors import _Run
from companion.systems.events.lists import UserLists
from companion.systems.events.poisoned import Poison, tracked_name
from companion.systems.events.report import EventReport
from companion.systems.events.rules import (
    EVENT_TABLES,
    EventRules,
    Mode,
    load_rules,
    refused_reach,
)
from companion.systems.events.sword_world import Member, RatingTable, folded_name
from companion.systems.events.traps import trap_row


def run_event(
    table: str,
    source: DiceSource,
    *,
    rules: EventRules | None = None,
    mode: Mode | str | None = None,
    dm_level: int | None = None,
    party: Sequence[Member] = (),
    rating_table: RatingTable | None = None,
    trap: str | None = None,
    found: bool = False,
    victim: str | None = None,
    disarmer: str | None = None,
    lists: UserLists | None = None,
    poisoned: Mapping[str, Poison] | None = None,
    room: str | None = None,
    used_rooms: Collection[str] = (),
    so_far: Callable[[EventReport], None] | None = None,
) -> EventReport:
    """Roll one event table (a key of EVENT_TABLES) and walk its follow-ups.

    ``mode`` and ``dm_level`` default to the rules data's Defaults (§1, EV-CORE-1).
    ``trap`` names the trap kind for the ``trap`` table instead of rolling it: the trap a
    door or chest rolled before its disarm (EV-DOOR-3), which fires without a second roll.
    ``found``, with the ``explore`` table in generic mode: the GM's appraisal of the bonus
    room (its 6, rolled before) succeeded, and only its reward is rolled, the count and the
    kind (EV-EXP-4: on success; the table's walk stops at the appraisal).
    ``victim`` names who the ``poison`` table poisons: a party member in sw mode (the first
    in marching order when None), anyone in generic mode. ``disarmer`` names, in sw mode, the
    member whose disarm set the ``trap`` table's trap off, whom an individual trap hits
    (EV-TRAP-2; a random member when None). ``lists``, the player's own
    monsters and small recovery items, names the species (EV-MON-1) and the kind (EV-EXP-4).
    ``poisoned``: the poisons the members carry already (by name), for EV-POI-5's −1.
    ``room`` names the recovery table's room, and ``used_rooms`` are those whose recovery
    spot was used before: coming back to one gives nothing (EV-REC-1).
    ``so_far``: when the walk stops short on an error (its source has no die left, as the
    dice tray's has while a follow-up throw is awaited), it is handed the report walked so
    far, ``finished`` False: the steps before the error, the first of the whole walk's, and
    the row it stopped in (EV-MON-1's, awaiting how many); the error then goes on.
    """
    if table not in EVENT_TABLES:
        raise DataError(f"no event table {table!r}; choose from {', '.join(EVENT_TABLES)}")
    rules = rules or load_rules()
    refuse_reach(rules, table)
    if trap is not None:
        if table != "trap":
            raise DataError(f"a trap kind ({trap!r}) goes with the trap table, not {table!r}")
        trap_row(rules, trap)
    chosen = Mode(mode or rules.settings["§1", "mode"])
    if found and (table != "explore" or chosen is not Mode.GENERIC):
        raise DataError(f"a reward found goes with the explore table in generic mode, not "
                        f"{table!r} in {chosen.value} mode (sw mode rolls the appraisals and "
                        "their reward itself, EV-EXP-4)")
    if dm_level is not None:
        _check_dm_level(rules, dm_level)
    run = _Run(rules, source, chosen, dm_level, party, rating_table, lists, poisoned)
    if room is not None and table != "recovery":
        raise DataError(f"a room ({room!r}) goes with the recovery table, not {table!r}")
    if victim is not None and table != "poison":
        raise DataError(f"a victim ({victim!r}) goes with the poison table, not {table!r}")
    if disarmer is not None and (table != "trap" or chosen is not Mode.SW):
        raise DataError(f"a disarmer ({disarmer!r}) goes with the trap table in sw mode, "
                        "where the party is known")
    # generic mode: the character the GM names, so the report says whose poison it is
    target = (_victim(party, victim) if chosen is Mode.SW
              else Member(victim) if victim is not None else None)
    try:
        match table:
            case "door" | "chest":
                run.door(chest=table == "chest")
            case "trap":
                by = _victim(party, disarmer) if disarmer else None
                if by is not None:
                    run.named_disarmer(by)
                run.trap(named=trap, disarmer=by)
            case "monster":
                run.monster()
            case "explore" if found:
                run.found()
            case "explore":
                run.explore()
            case "recovery":
                run.recovery(room, room in used_rooms)
            case "poison":
                run.need_party()
                run.poison(target, defaulted=victim is None and chosen is Mode.SW)
    except Exception:
        if so_far is not None:
            # Told, not returned: the error (the caller's own, from its source) goes on as
            # it always did, and the engine knows nothing of why the dice ran out.
            so_far(EventReport(rules.title, table, chosen, run.dm, tuple(run.steps),
                               finished=False, under_way=run.under_way))
        raise
    return EventReport(rules.title, table, chosen, run.dm, tuple(run.steps))


def run_active_action(
    who: str,
    poisoned: Mapping[str, Poison],
    source: DiceSource,
    *,
    rules: EventRules | None = None,
    mode: Mode | str | None = None,
    party: Sequence[Member] = (),
) -> EventReport:
    """EV-POI-5: the vitality check ``who`` makes against their 判定－１ poison's toxicity
    before an active action (rolled for the --party member in sw mode, put to the GM in
    generic mode). ``poisoned``: the tracked poisons by name; DataError when ``who`` has
    none, or one of another kind, which bars no action."""
    rules = rules or load_rules()
    refuse_reach(rules, "act")
    who = tracked_name(poisoned, who)  # aki for Aki: the name the poison is tracked under
    poison = poisoned[who]
    if poison.rule != "EV-POI-5":
        row = rules.tables["poison"].row_for(poison.face)
        raise DataError(f"{who}'s {row['ja']}/{row['en']} ({poison.rule}) bars no action: "
                        "only 判定－１/Check −1 (EV-POI-5) needs a check before an active "
                        "action")
    chosen = Mode(mode or rules.settings["§1", "mode"])
    run = _Run(rules, source, chosen, None, party, None, None, poisoned)
    run.need_party()
    member = _victim(party, who) if chosen is Mode.SW else Member(who)
    run.active_action(member or Member(who), poison)
    return EventReport(rules.title, "act", chosen, run.dm, tuple(run.steps))


def refuse_reach(rules: EventRules, table: str) -> None:
    """:class:`RuleRefused` before ``table``'s first die when a rule it can come to
    (:data:`~companion.systems.events.rules.REACHES`) was set wrong in the player's file:
    the file, key and value named, and why this table waits. Refused at the first read of
    the rule, a door stopped after its throws were taken, the last one shown nowhere, and
    run again after the file was mended it threw them anew (reviewe74 DEFECT 2).

    >>> rules = load_rules().with_refused({"EV-TRAP-2": "x"})
    >>> refuse_reach(rules, "monster")
    >>> refuse_reach(rules, "door")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    companion.systems.defaults.RuleRefused: x: the door table can come to EV-TRAP-2, ...
    """
    found = refused_reach(rules.settings, table)
    if found is not None:
        rule, why = found
        what, stop = _REFUSED_WHAT.get(table, (f"the {table} table", _NOT_ROLLED))
        whole = set(rules.settings.refused) >= set(rules.settings.values)
        raise RuleRefused(f"{why}: {what} {'' if whole else f'can come to {rule}, so it '}"
                          f"{stop}")


#: How a refused table ends (:func:`refuse_reach`): nothing was thrown. The dice tray
#: swaps it for :data:`THROWS_KEPT` at a table it holds with throws already taken.
NO_DIE_THROWN = " (no die thrown)"
THROWS_KEPT = " (no further die thrown; the throws taken are kept)"
_NOT_ROLLED = f"is not rolled until that is mended{NO_DIE_THROWN}"
#: The actions :data:`REACHES` holds beside the tables: what each is, and how it stops.
_REFUSED_WHAT = {
    "act": ("the act check (EV-POI-5)", _NOT_ROLLED),
    "tick": ("the poisons' tick (EV-POI-2: end-block, rest, the dice tray's Tick)",
             "does not run until that is mended (no time passed, nothing written)"),
    "cure": ("the cure (EV-POI-1)",
             "is not kept until that is mended (the poison stays tracked)"),
}


def _check_dm_level(rules: EventRules, dm_level: int) -> None:
    """EV-CORE-1: a DM level given for one run (``--level``) inside the range the data's
    ``[limits]`` gives the Default ``dm_level`` (1 to 100 as packaged), where an override
    of the Default is held to it too. Past the top, a sw check's ``2D6+bonus>=target``
    failed in the dice notation, on an expression the user never typed (events70 NIT 10).

    >>> _check_dm_level(load_rules(), 101)
    Traceback (most recent call last):
    companion.errors.DataError: DM level must be from 1 to 100 (EV-CORE-1.dm_level), found 101
    """
    settings = rules.settings
    tried = {**settings.values, "EV-CORE-1": {**settings.values["EV-CORE-1"],
                                              "dm_level": dm_level}}
    if not settings.limits.holds(tried, "EV-CORE-1", "dm_level"):
        raise DataError(f"DM level must be {settings.limits.span(tried, 'EV-CORE-1', 'dm_level')}"
                        f" (EV-CORE-1.dm_level), found {dm_level}")


def _victim(party: Sequence[Member], name: str | None) -> Member | None:
    """The member named ``name`` (the first when None), whatever its case and width as the
    party file and the tracked poisons fold it (aki, ＡＫＩ for Aki; events62 N2: the party
    file's names are unique so); DataError for a name not in it."""
    if name is None or not party:  # no party: sw mode's need for one is the error to give
        return party[0] if party else None
    for member in party:
        if folded_name(member.name) == folded_name(name):
            return member
    names = ", ".join(m.name for m in party) or "nobody"
    raise DataError(f"no {name!r} in the party (it has {names})")
