"""The screen of a coc fight: the fighters with their badges (AP, square, and what is on
them as :func:`~companion.app.coc_badges.badges` says it for `coc fight show` too:
conditions in the rounds they apply, grapples, stun, bleeding, lost parts, a drawn blade,
weapons), the last result with its rule IDs, the log, profile 003's board (CO-TURN-2), the
title and the closing line. While a roll the start of a round or turn makes is awaited (a
dying investigator's CON×5), the Result panel says that roll's reason, not "so far" of the
action whose end brought it.
"""

from __future__ import annotations

from dataclasses import replace

from companion.app.coc_badges import badges as coc_badges
from companion.app.modes.coc.core import _Core
from companion.app.modes.coc.words import (
    SIDES,
    describe,
    english,
    marks,
    steps,
    summary,
)
from companion.app.session.mode import ChoiceAsk
from companion.hw.display.view import (
    BoardView,
    DiceStep,
    FighterView,
    FightView,
    Name,
    Option,
    PieceView,
    View,
)
from companion.systems.coc import board
from companion.systems.coc.combat import BETWEEN_ACTIONS, Side
from companion.systems.coc.combat.fight import RULE_ID
from companion.systems.coc.rules import Profile


class _FightView(_Core):
    """Adds the screen: the fighters, the result, the log and 003's board."""

    def fight_view(self, faces: tuple[int, ...] = ()) -> FightView:
        state = self.fight.state
        current = state.current
        p003 = self.rules.profile is Profile.P003
        mark = marks(state)
        rows = []
        for c in state.combatants:
            acting = current is not None and c.name == current.name
            badges: list[str] = []
            if p003 and acting:
                badges.append(f"AP {c.ap}")
            badges += coc_badges(c, state.round, current.name if current else "")
            # Last: the board beside the rows draws it, and a row cut short (four fighters
            # at 800x480) lost what is on the fighter instead, Cult's "held by Ann" and
            # Ann's stun behind "e4 SW · 行動不能/no ac…" (r77coc RISK on b6b3c9b2)
            if c.square:
                badges.append(f"{c.square} {c.facing}")
            # One on the board has its mark before its name, to find its disc by.
            shown = f"{mark[c.name]} {c.name}" if c.square else c.name
            en = english(state, c)
            rows.append(FighterView(
                Name(shown, shown if en == c.name else en), SIDES[c.side], c.hp,
                c.sheet.max_hp, c.mp,
                c.sheet.stat("POW"), tuple(badges), acting=acting,
                ally=c.side is Side.INVESTIGATORS, down=c.out, san=c.san))
        journal = self.fight.journal
        last = journal[-1] if journal else None
        first = max(0, len(journal) - 8)  # each entry with the state it was played from
        profile = self.rules.profile
        log = tuple(self.with_english(f"{describe(e.action, state, self.fight.states[n], profile)}"
                                      f" ＞ {summary(e)}")
                    for n, e in enumerate(journal[first:], first))
        newest = last or self.fight.opening
        # The steps after the action's own (the engine's Entry.own: the turn handed over,
        # the round's end, the next one's start) are marked, for the Result cut short to
        # keep the action's own outcome (reviewcoc67 RISK 1).
        result = tuple(DiceStep(step.rule, self.with_english(step.text),
                                hand_over=newest.own is not None and n >= newest.own)
                       for n, step in enumerate(steps(newest.lines)))
        return FightView(
            title=self._title(), round=state.round,
            turn=self.with_english(current.name) if current else "",
            fighters=tuple(rows), result=result,
            result_title=self.describe(last.action) if last else "", log=log, faces=faces,
            source=self.source_name, outcome=self._outcome(), board=self._board(),
            result_is_newest=last is not None)

    def view(self, prompt: str, *, options: tuple[Option, ...] = (),
             highlight: int | None = None, status: str = "", prompt_tile: str | None = None,
             prompt_faces: tuple[int, ...] = ()) -> View:
        """As every fight's; but while a roll the start of a round or turn makes is awaited
        (CO-DEATH-1's CON×5, CO-STUN-1's, CO-BODY-6's bleeding, a DEX tie), the Result panel
        is titled by its reason and shows that roll with its rule ID, and the action whose
        end brought it as done, its throws no longer "so far": they read as part of the
        dying roll (table audit gc #6)."""
        shown = super().view(prompt, options=options, highlight=highlight,
                             status=status or self.resumed,
                             prompt_tile=prompt_tile, prompt_faces=prompt_faces)
        # An action with no throws of its own (ending a turn) may await one too.
        action = self._step(self.path) if self.path else None
        if action is None or isinstance(action, ChoiceAsk) or shown.fight is None:
            return shown
        need = self._walk(action)
        if need is None or not need.purpose.startswith(BETWEEN_ACTIONS):
            return shown
        reason, _, roll = need.purpose.partition(" — ")
        # A purpose with no " — " part (bleeding's 1D4) is all reason, the title already.
        roll = roll or f"{need.count}D{need.sides}"
        found = RULE_ID.search(reason)
        # What the engine said up to the awaited throw (the walk just made): the action's
        # checks with their verdicts, where its throws alone left the player to work out
        # whether the blow hit before throwing the next round's dice.
        lines = (DiceStep("", f"after 行動後: {self.describe(action)}"),
                 *steps(self.fight.said),
                 DiceStep(found.group(0) if found else "", f"{roll} ＞ …"))
        return replace(shown, fight=replace(
            shown.fight, result_title=self.with_english(reason), result_is_newest=False,
            result=tuple(replace(line, text=self.with_english(line.text)) for line in lines)))

    def _board(self) -> BoardView | None:
        """Profile 003's 8×8 board (CO-TURN-2) once somebody stands on it: each combatant
        placed, with its mark (:func:`marks`, shown before its name in the list too), facing
        its compass point; one down is grey, one dead also without a facing."""
        if not self.rules.on("CO-TURN-2"):
            return None
        state = self.fight.state
        placed = [c for c in state.combatants if c.square]
        if not placed:
            return None
        mark = marks(state)
        current = state.current
        pieces = []
        for c in placed:
            col, row = board.parse(c.square)
            pieces.append(PieceView(col, row, mark[c.name],
                                    (0, 0) if c.dead else board.FACINGS[c.facing],
                                    ally=c.side is Side.INVESTIGATORS,
                                    acting=current is not None and c.name == current.name,
                                    down=c.out))
        return BoardView(board.SIZE, board.SIZE, tuple(pieces), "Board 盤面 · N↑ 北")

    def _title(self) -> str:
        foes = ", ".join(s.name for s, side in self.fight.entrants if side is Side.FOES)
        return self.with_english(f"vs {foes} · profile {self.rules.profile.value}")

    def closing(self) -> str:
        return f"The fight is closed 戦闘終了: {self._outcome() or 'saved'}"
