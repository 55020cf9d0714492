"""An attack's circumstances (*More 状況*), each offered with only the values the engine
takes: a second way of attacking, the distance, point blank, from behind, the dark, a
surprise and how well hidden, the Keeper's penalty, a wound staunched at once, what a fumble
does, whom a fumbled throw flies at, who stands behind the target; and the distances that
matter to a ranged weapon. A grapple's or a tackle's: from behind, off 003's board.

Rules: CO-MA-1, CO-CALL-1, CO-RANGE-2, CO-RANGE-3, CO-FIRE-5, CO-FIRE-9, CO-DODGE-3,
CO-MELEE-2, CO-MELEE-4, CO-SURP-1/2/3, CO-DISARM-1, CO-BODY-3, CO-BODY-6, CO-THROW-2,
CO-TURN-2.
"""

from __future__ import annotations

from dataclasses import replace

from companion.app.modes.coc.defence_menus import _Defences
from companion.app.modes.coc.words import (
    DISARM_PENALTIES,
    GOUGE_PENALTIES,
    HIDDEN_PENALTIES,
    HOW,
    HOW_FIELDS,
    SUB_MENU_HOWS,
    SURPRISE,
)
from companion.app.modes.fight import option_value
from companion.app.session.controls import BACK
from companion.app.session.mode import ChoiceAsk
from companion.errors import IllegalAction
from companion.hw.display.view import Option
from companion.systems.coc.combat import Attack, Combatant, Grapple, Tackle
from companion.systems.coc.combat.disarm import disarm_skill
from companion.systems.coc.rules import WeaponInfo, WeaponKind


class _Circumstances(_Defences):
    """Adds an attack's circumstances and a ranged weapon's distances."""

    def _circumstances(self, actor: Combatant, target: str, index: int,
                       info: WeaponInfo | None, fields: dict[str, object]
                       ) -> list[tuple[str, str, list[tuple[str, str, dict[str, object]]]]]:
        """What else an attack may say, each offered only with the values the engine takes
        (tried up to its first die): (key, label, [(value, label, the Attack's fields)]).

        Once a way of attacking is chosen, another the engine takes with it (an MA roll
        with a called shot, CO-MA-1 and CO-CALL-1, say); the distance (CO-RANGE-2's bands,
        a shotgun's printed ones CO-FIRE-9); off 003's board point blank (CO-FIRE-5 /
        CO-RANGE-3), from behind (CO-DODGE-3) and who stands behind the target (CO-MELEE-2);
        the dark (CO-SURP-3); a surprise after Hide, Conceal or Sneak (CO-SURP-1/2) and how
        well hidden (CO-SURP-3); the Keeper's disarm or gouging penalty (CO-DISARM-1,
        CO-BODY-3); a wound staunched at once (CO-BODY-6); what a fumble does (CO-MELEE-4)
        and whom a fumbled throw flies at (CO-THROW-2)."""
        name = actor.name
        state = self.fight.state

        def ok(**more: object) -> bool:
            return self.legal(Attack(name, target, index, **{**fields, **more}))  # type: ignore[arg-type]

        def offer(key: str, label: str, values: list[tuple[str, str, dict[str, object]]]
                  ) -> None:
            values = [v for v in values if ok(**v[2])]
            if values:
                out.append((key, label, values))

        out: list[tuple[str, str, list[tuple[str, str, dict[str, object]]]]] = []
        kind = info.kind if info is not None else WeaponKind.UNARMED
        melee = kind in (WeaponKind.MELEE, WeaponKind.UNARMED)
        board_on = self._on_board(actor, target)
        others = [c.name for c in state.combatants
                  if c.name not in (name, target) and not c.dead]
        if fields.keys() & HOW_FIELDS:  # a second way of attacking, where the engine takes both
            for key, label, how in HOW:
                if how and key not in SUB_MENU_HOWS and not how.keys() & fields.keys():
                    offer(f"with_{key}", f"With 併用: {label}", [("on", label, how)])
        if info is not None and not melee:
            offer("dist", "Distance 距離", [(str(m), text, {"distance_m": m})
                                            for m, text in self._distances(info)])
        if not board_on:
            if kind is WeaponKind.FIREARM:
                touch = ("Touch タッチ ×3 (CO-RANGE-3)" if self.rules.on("CO-RANGE-3")
                         else "Point blank 至近距離 +15% (CO-FIRE-5)")
                offer("touch", touch, [("on", touch, {"adjacent": True})])
            offer("behind", "From behind 背後から", [("on", "From behind 背後から",
                                                      {"from_behind": True})])
        offer("dark", "In the dark 暗闇 (½)", [("on", "In the dark 暗闇", {"dark": True})])
        offer("surprise", "Surprise 奇襲", [(k, f"{label} then attack", {"surprise": k})
                                            for k, label in SURPRISE.items()])
        if fields.get("surprise") and self.rules.on("CO-SURP-3"):
            offer("hidden", "How well hidden 隠れ具合 (Keeper)",
                  [(str(-n), f"{n}%", {"hidden": n}) for n in HIDDEN_PENALTIES])
        # CO-DISARM-1: no Keeper's penalty for one who has Budo (standing), MA or Grapple,
        # asked as the engine asks it
        trained = disarm_skill(self.rules, actor.sheet, self.fight.engine)
        penalties = (DISARM_PENALTIES if fields.get("disarm") and not trained  # CO-DISARM-1
                     else GOUGE_PENALTIES if fields.get("body") == "gouge" else ())
        if penalties:
            offer("penalty", "Keeper's penalty 補正 (Keeper)",
                  [(str(-n), f"{n}%", {"penalty": n}) for n in penalties])
        if fields.get("body") and self.rules.on("CO-BODY-6"):
            offer("staunch", "Staunched at once 即止血",
                  [("on", "Staunched at once 即止血", {"staunched": True})])
        if melee and self.rules.on("CO-MELEE-4"):
            ways: list[tuple[str, str, dict[str, object]]] = [
                ("fall", "falls 転倒", {"fumble": "fall"})]
            if kind is WeaponKind.MELEE:
                ways.append(("break", "the weapon breaks 武器破損", {"fumble": "break"}))
            offer("fumble", "If it fumbles ファンブル時", ways)
        if kind is WeaponKind.THROWN and self.rules.on("CO-THROW-2") and others:
            offer("stray", "A fumble flies at 逸れた先",
                  [(o, o, {"stray": o}) for o in others])
        if melee and not board_on and self.rules.on("CO-MELEE-2") and others:
            offer("knock", "Behind the target 背後に立つ者",
                  [(o, o, {"behind": o}) for o in others])
        return out

    def _on_board(self, actor: Combatant, target: str) -> bool:
        """Both stand on 003's board (CO-TURN-2): the board says point blank and from behind."""
        return self.rules.on("CO-TURN-2") and bool(
            actor.square and self.fight.state.get(target).square)

    def _from_behind(self, actor: Combatant, action: Grapple | Tackle, rest: list[str]
                     ) -> tuple[ChoiceAsk | bool, list[str]]:
        """A grapple's or a tackle's *More 状況*, opened from its defence menu (``m:more``,
        then ``m:behind``): off 003's board, from behind (CO-DODGE-3 003 l.99
        「回避集中を宣言していない場合、後ろからの攻撃は回避行動を行う事が出来ない。」, and for a
        tackle CO-GRAP-4 l.36 「但し後ろからの攻撃の場合はその限りではない」), as an attack's
        (:meth:`_circumstances`); on the board the board says (CO-TURN-2). Offered only when
        the engine takes ``action`` so. The menu to show, or whether it was picked, with the
        rest of the path."""
        if not (rest and rest[0] == "m:more"):
            return False, rest
        if not self._behind_open(actor, action):
            raise IllegalAction(f"there is no choice {rest[0]!r} now")
        if len(rest) < 2:
            return ChoiceAsk("What else? 状況は？", (
                Option("m:behind", "From behind 背後から"), BACK)), rest
        if option_value(rest[1], "m") != "behind":
            raise IllegalAction(f"there is no choice {rest[1]!r} now")
        return True, rest[2:]

    def _behind_open(self, actor: Combatant, action: Grapple | Tackle) -> bool:
        """May the grapple or tackle ``action`` (not yet from behind) be said to come from
        behind: off 003's board, and the engine takes it so (CO-DODGE-3, CO-TURN-2)."""
        return not action.from_behind and not self._on_board(actor, action.target) \
            and self.legal(replace(action, from_behind=True))

    def _distances(self, info: WeaponInfo) -> list[tuple[int, str]]:
        """The distances that matter to a ranged weapon: the end of each printed band
        (CO-FIRE-9) or each multiple of its base range (CO-RANGE-2)."""
        bands, _ = self.rules.bands(info)
        if bands and self.rules.on("CO-FIRE-9"):
            return [(b.up_to_m, f"up to {b.up_to_m} m: {b.damage}") for b in bands]
        if info.range_m and self.rules.on("CO-RANGE-2"):
            last = int(self.rules.num("CO-RANGE-2", "last_band"))
            if self.rules.default("CO-RANGE-2", "beyond_last_band"):
                last += 2
            return [(k * info.range_m, f"{k * info.range_m} m" + (f" (×1/{k})" if k > 1 else ""))
                    for k in range(1, last + 1)]
        return []
