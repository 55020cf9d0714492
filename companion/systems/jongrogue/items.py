"""The engine's fourth layer, :class:`_Items`: gold and items. The gold won and lost, the
loot in a room and taking it, what each item tile gives, rings put on and taken off (and
the ring choices offered), a potion drunk, the bow or the shuriken readied, and what a
thief steals. A defeated monster's drop is the combat layer's (JR-DROP-1).

Rules: JR-STATE-2 (taking), JR-ITEM-1, JR-PC-4, JR-RANGED-2 (readying), JR-AB-STEALITEM.
"""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.systems.jongrogue.actions import Choice, ChoiceRequest, Verb
from companion.systems.jongrogue.drawing import Proc
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.profile import Gear, ItemKind, Loot, Ring, Role
from companion.systems.jongrogue.rooms import _Rooms
from companion.systems.jongrogue.state import MonsterOnMap, Position
from companion.systems.jongrogue.tiles import ALL_KINDS, Tile
from companion.systems.jongrogue.wall import Place

_KEEP = Choice.of(Verb.KEEP)
# use:<t>, equip:<t>, unequip:<t> by the tile's index
_USES, _EQUIPS, _UNEQUIPS = (
    tuple(Choice.of(verb, str(t)) for t in ALL_KINDS)
    for verb in (Verb.USE, Verb.EQUIP, Verb.UNEQUIP)
)
_READY_BOW, _READY_SHURIKEN = Choice.of(Verb.READY, "bow"), Choice.of(Verb.READY, "shuriken")
# ready:<t>: a kind of shuriken readied (revision 12), by the tile's index
_READY_KINDS = tuple(Choice.of(Verb.READY, str(t)) for t in ALL_KINDS)


def _kinds(tiles: list[Tile]) -> list[int]:
    """The tiles' kinds (indexes), each once, in the order first held."""
    out: list[int] = []
    for t in tiles:
        if t.index not in out:
            out.append(t.index)
    return out


def _first_of_each_rank(tiles: list[Tile]) -> list[Tile]:
    """The first tile held of each rank, in the order first held: one per item of the
    profile (JR-ITEM-1 gives items by rank, so a 1m and a 1p are the same potion)."""
    out: list[Tile] = []
    ranks: list[int] = []
    for t in tiles:
        if t.rank not in ranks:
            ranks.append(t.rank)
            out.append(t)
    return out


class _Items(_Rooms):
    """Adds gold and items: loot, rings, potions, readying and theft."""

    def _gold(self, amount: int, why: str) -> None:
        before = self.pc.gold
        # Never below the profile's gold_min [DEFAULT] (0): the seed takes 10, 100 or
        # floor × 10 gold and does not say what a PC with less loses.
        self.pc.gold = max(self.profile.gold_min, before + amount)
        if self.record:
            lost = self.pc.gold - before
            if lost == amount or self.revision < 13:
                self._emit(Kind.ITEM, action="gold", amount=lost, gold=self.pc.gold, why=why)
            else:  # the loss the rule asked for, which the log says beside (a76jrcore NIT 2);
                # from revision 13 only, so a log of 12 or before replays as it was written
                # (r76jr DEFECT 1: its clamped loss had no ``asked``)
                self._emit(Kind.ITEM, action="gold", amount=lost, gold=self.pc.gold, why=why,
                           asked=amount)

    def _has_loot(self) -> bool:
        """Is there an item or gold in the room (what :meth:`_room_loot` lists)?"""
        room = self.room
        if room.drops:
            return True
        tiles, roles = room.tiles, room.roles
        if Role.ITEM not in roles and Role.GOLD not in roles:
            return False
        for spot, role in enumerate(roles):
            if (role is Role.ITEM or role is Role.GOLD) and tiles[spot] is not None:
                return True
        return False

    def _gold_apart(self) -> bool:
        """JR-STATE-2 [DEFAULT ``map.gold_needs_clear_room``]: is gold taken apart from the
        items, while monsters live (from revision 5, unless the profile says no)? The seed
        keeps gold out of its items (「金塊はこのアイテムには含めません」; a drawn gold tile is
        「アイテム以外」 in the drop check), and its gold-lover's 「PCが金塊を拾う事も出来ません」
        would say nothing if gold waited for every monster to fall."""
        return self.revision >= 5 and not self.profile.gold_needs_clear_room

    def _free_gold(self) -> list[int]:
        """The spots of the room's gold piles that no gold-lover sits on (JR-AB-GOLDLOVER)."""
        room = self.room
        sat = [m.on_gold for m in room.monsters if m.on_gold is not None]
        return [
            s for s, r in enumerate(room.roles)
            if r is Role.GOLD and room.tiles[s] is not None and s not in sat
        ]

    def _room_loot(self) -> list[int]:
        """Spots holding an item or gold; -1 stands for the pile of dropped items."""
        room = self.room
        return [
            s for s, r in enumerate(room.roles)
            if r in (Role.ITEM, Role.GOLD) and room.tiles[s] is not None
        ] + ([-1] if room.drops else [])

    def _take(self) -> Proc:
        """JR-STATE-2: with every monster defeated, pick up the room's items and gold; with
        monsters alive (:meth:`_gold_apart`), the gold no gold-lover sits on, unless stepping
        in from the door woke a monster that attacks (JR-STATE-1): then the fight begins."""
        if self.position is Position.DOOR:
            self._enter()
        room = self.room
        if room.monsters:
            if self.attackers():
                return
            spots = self._free_gold()
        else:
            spots = self._room_loot()
        for spot in spots:
            if spot < 0:
                while room.drops:
                    yield from self._pick_item(room.drops.pop(0))
                continue
            tile = room.tiles[spot]
            assert tile is not None
            room.tiles[spot] = None
            if room.roles[spot] is Role.GOLD:
                self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
                why = f"gold pile {tile}" if self.record else ""
                self._gold(self.profile.gold_per_rank * tile.rank, why)
            else:
                yield from self._pick_item(tile)
            room.roles[spot] = Role.EMPTY

    def _pick_item(self, tile: Tile) -> Proc:
        """JR-ITEM-1: what each item tile gives. A ring is put on while a hand is free if the
        profile's ``wear_found_rings`` [DEFAULT] says so (JR-PC-4)."""
        spec = self.profile.items[tile.rank]
        pc = self.pc
        if self.record:
            self._emit(Kind.ITEM, action="found", tile=str(tile), name_ja=spec.name_ja,
                       name_en=spec.name_en)
        kind = spec.kind
        if kind is ItemKind.POTION:
            self.ledger.move(tile, Place.TABLE, Place.PC)
            pc.potions.append(tile)
        elif kind in (ItemKind.SHURIKEN, ItemKind.ARROWS):
            self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
            if kind is ItemKind.SHURIKEN:
                pc.shuriken += spec.amount
                if self.revision >= 12:
                    self._add_shuriken(tile, spec.amount)
                else:  # revision 11 and before: one pool, thrown at the last kind's attack
                    pc.shuriken_attack = spec.attack
            else:
                pc.arrows += spec.amount
        elif kind is ItemKind.RING:
            self.ledger.move(tile, Place.TABLE, Place.PC)
            pc.spare_rings.append(tile)
            if self.profile.wear_found_rings and len(pc.rings) < self.profile.ring_slots:
                self._wear_ring(tile)
        else:
            power = spec.power(self.floor)
            current = pc.weapon if kind is ItemKind.WEAPON else pc.armour
            prompt = (
                f"Found {spec.name_ja} {spec.name_en} ({power}): equip it instead of "
                f"{current.name_ja} {current.name_en} ({current.value})? 装備を替える？"
            ) if self.record else ""
            request = ChoiceRequest(prompt, (_EQUIPS[tile.index], _KEEP))
            choice = (yield request) if self._answer_now is None else self._ask(request)
            assert isinstance(choice, Choice)
            if choice.verb is Verb.KEEP:
                self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
                return
            self.ledger.move(tile, Place.TABLE, Place.PC)
            gear = Gear(spec.name_ja, spec.name_en, power)
            if kind is ItemKind.WEAPON:
                old, pc.weapon, pc.weapon_tile = pc.weapon_tile, gear, tile
            else:
                old, pc.armour, pc.armour_tile = pc.armour_tile, gear, tile
            if old is not None:
                self.ledger.move(old, Place.PC, Place.DISCARDS)
            self._emit(Kind.ITEM, action="equipped", tile=str(tile), value=power)

    def _wear_ring(self, tile: Tile) -> None:
        """JR-PC-4: up to the profile's ``ring_slots`` [DEFAULT] (2) rings at once."""
        pc = self.pc
        if tile not in pc.spare_rings or len(pc.rings) >= self.profile.ring_slots:
            raise IllegalAction(f"cannot put on {tile}")
        pc.spare_rings.remove(tile)
        pc.rings.append(tile)
        ring = self.profile.items[tile.rank].ring
        assert ring is not None
        pc.ring_kinds.append(ring)
        self._emit(Kind.ITEM, action="ring on", tile=str(tile), ring=ring.value)

    def _remove_ring(self, tile: Tile) -> None:
        pc = self.pc
        i = pc.rings.index(tile)
        pc.rings.pop(i)
        ring = pc.ring_kinds.pop(i)
        pc.spare_rings.append(tile)
        self._emit(Kind.ITEM, action="ring off", tile=str(tile), ring=ring.value)

    def _ring_options(self) -> list[Choice]:
        """Rings to put on (JR-PC-4: while a hand is free) or take off, each kind once.
        Kept while the rings held stay the same (the caller must not change the list)."""
        pc = self.pc
        held = self._rings_held
        if pc.spare_rings == held[0] and pc.rings == held[1]:  # C compares: same tiles
            return self._ring_choices
        self._rings_held = (list(pc.spare_rings), list(pc.rings))
        options: list[Choice] = []
        if pc.spare_rings and len(pc.rings) < self.profile.ring_slots:
            options += [_EQUIPS[i] for i in _kinds(pc.spare_rings)]
        if pc.rings:
            options += [_UNEQUIPS[i] for i in _kinds(pc.rings)]
        self._ring_choices = options
        return options

    def _add_shuriken(self, tile: Tile, amount: int) -> None:
        """JR-ITEM-1 (revision 12): shuriken are kept by kind (the item of the tile's rank),
        each kind its own count and attack; the first kind found is the one readied."""
        pc = self.pc
        for i, held in enumerate(pc.shuriken_tiles):
            if held.rank == tile.rank:
                pc.shuriken_counts[i] += amount
                break
        else:
            pc.shuriken_tiles.append(tile)
            pc.shuriken_counts.append(amount)
        self._aim_shuriken()

    def _aim_shuriken(self) -> None:
        """The kind thrown next: the one readied while any are left, else the first kind
        held (revision 12); ``shuriken_attack`` is its attack."""
        pc = self.pc
        tiles, counts = pc.shuriken_tiles, pc.shuriken_counts
        ready = [i for i, t in enumerate(tiles) if t.rank == pc.shuriken_rank and counts[i]]
        held = ready or [i for i, n in enumerate(counts) if n]
        if held:
            tile = tiles[held[0]]
            pc.shuriken_rank = tile.rank
            pc.shuriken_attack = self.profile.items[tile.rank].attack

    def _throw_shuriken(self) -> int:
        """One shuriken thrown; its attack (revision 12: of the kind readied)."""
        pc = self.pc
        pc.shuriken -= 1
        if self.revision < 12:
            return pc.shuriken_attack
        attack = pc.shuriken_attack
        self._take_shuriken(1)
        return attack

    def _take_shuriken(self, count: int) -> list[tuple[Tile, int]]:
        """``count`` shuriken gone from the pools (revision 12), the kind thrown next first
        (``pc.shuriken`` is lowered by the caller); each kind's tile and how many went."""
        pc = self.pc
        order = sorted(range(len(pc.shuriken_tiles)),
                       key=lambda i: pc.shuriken_tiles[i].rank != pc.shuriken_rank)
        taken: list[tuple[Tile, int]] = []
        for i in order:
            gone = min(count, pc.shuriken_counts[i])
            pc.shuriken_counts[i] -= gone
            count -= gone
            if gone:
                taken.append((pc.shuriken_tiles[i], gone))
        for i in reversed(range(len(pc.shuriken_tiles))):
            if not pc.shuriken_counts[i]:
                del pc.shuriken_tiles[i], pc.shuriken_counts[i]
        self._aim_shuriken()
        return taken

    def _ready_option(self) -> list[Choice]:
        """JR-RANGED-2 (装備する: 弓や手裏剣): holding shuriken and arrows, the player readies
        the other of the two; the shuriken are thrown first until the bow is readied. From
        revision 12, holding shuriken of two kinds (JR-ITEM-1: items by rank), each kind not
        readied is offered too (``ready:<tile>``), as each ring kind is."""
        pc = self.pc
        options: list[Choice] = []
        if pc.shuriken > 0 and pc.arrows > 0:
            options.append(_READY_SHURIKEN if pc.bow_ready else _READY_BOW)
        if len(pc.shuriken_tiles) > 1:
            options += [
                _READY_KINDS[t.index] for t in pc.shuriken_tiles
                if pc.bow_ready or t.rank != pc.shuriken_rank
            ]
            if pc.bow_ready and _READY_SHURIKEN in options:
                options.remove(_READY_SHURIKEN)  # each kind is offered by name instead
        return options

    def _ready(self, choice: Choice) -> None:
        pc = self.pc
        pc.bow_ready = choice is _READY_BOW
        if choice.arg not in ("bow", "shuriken"):
            pc.shuriken_rank = Tile.from_notation(choice.arg).rank
            self._aim_shuriken()
        if self.record:
            self._emit(Kind.ITEM, action="ready", what=choice.arg)

    def _potion_options(self) -> list[Choice]:
        """JR-ITEM-1: a potion to drink, while HP is below max: from revision 12 one
        ``use:<tile>`` for each potion kind held (the item of the tile's rank), in the order
        first held; revision 11 and before offered the first potion held alone."""
        pc = self.pc
        if not pc.potions or pc.hp >= pc.max_hp:
            return []
        if self.revision < 12:
            return [_USES[pc.potions[0].index]]
        return [_USES[t.index] for t in _first_of_each_rank(pc.potions)]

    def _drink(self, choice: Choice) -> None:
        """JR-ITEM-1: a healing potion gives HP +10 (the profile's heal of its item) up to
        max HP. From revision 12 the potion drunk is the one chosen; revision 11 and before
        drank the last one held, whatever was chosen (rules72 DEFECT 1)."""
        pc = self.pc
        if self.revision < 12:
            tile = pc.potions.pop()
        else:
            tile = Tile.from_notation(choice.arg)
            pc.potions.remove(tile)
        self.ledger.move(tile, Place.PC, Place.DISCARDS)
        healed = min(self.profile.items[tile.rank].amount, pc.max_hp - pc.hp)
        pc.hp += healed
        if self.record:
            self._emit(Kind.HEAL, amount=healed, hp=pc.hp, why="potion")

    def _steal_item(self, m: MonsterOnMap) -> None:
        """JR-AB-STEALITEM: one of what the PC holds most of (一番個数の多い物; gold is no
        item); an uncursed ring of adornment worn goes first. What a thief may take, and
        which goes first in a tie, is the profile's ``steal_item`` [DEFAULT], and how many
        arrows or shuriken one theft takes its ``steal_ammo`` [DEFAULT]. Rings count by kind,
        worn or not, and a tie among kinds goes to the kind met first in the spare rings
        (in the order they went into the pack), then the worn ones (in the order put on);
        of that kind, a spare one goes before a worn one."""
        pc = self.pc
        adornment = [t for t, k in zip(pc.rings, pc.ring_kinds, strict=True)
                     if k is Ring.ADORNMENT]
        if adornment:
            self._remove_ring(adornment[0])
            self._lose_ring_tile(adornment[0])
            return
        held: dict[str, int] = {}
        for loot in self.profile.steal_item:
            if loot is Loot.ARROWS:
                held["arrows"] = pc.arrows
            elif loot is Loot.SHURIKEN:
                held["shuriken"] = pc.shuriken
            elif loot is Loot.POTIONS:
                held["potions"] = len(pc.potions)
            else:
                for tile in [*pc.spare_rings, *pc.rings]:
                    ring = self.profile.items[tile.rank].ring
                    assert ring is not None
                    held[ring.value] = held.get(ring.value, 0) + 1
        what, count = max(held.items(), key=lambda kv: kv[1], default=("", 0))
        if count == 0:
            self._emit(Kind.ITEM, action="nothing to steal")
            return
        if what == "arrows":
            pc.arrows -= min(self.profile.steal_ammo, pc.arrows)
        elif what == "shuriken":
            taken = min(self.profile.steal_ammo, pc.shuriken)
            pc.shuriken -= taken
            if self.revision >= 12:
                # each kind taken by its tile, as a ring is (reviewr72 DEFECT 2: "shuriken"
                # named no kind, and the readied heavy ones went first)
                kinds = self._take_shuriken(taken)
                for tile, count in kinds:
                    self._emit(Kind.ITEM, action="stolen", what=str(tile), count=count)
                if kinds:
                    return
        elif what == "potions":
            potion = pc.potions.pop()  # the last one held (JR-AB-STEALITEM (kinds))
            self.ledger.move(potion, Place.PC, Place.DISCARDS)
            if self.revision >= 12:  # by its tile: the kind taken (reviewr72 DEFECT 2)
                what = str(potion)
        else:
            spare = [t for t in pc.spare_rings if self.profile.items[t.rank].ring is Ring(what)]
            tile = spare[0] if spare else next(
                t for t, k in zip(pc.rings, pc.ring_kinds, strict=True) if k is Ring(what)
            )
            if not spare:
                self._remove_ring(tile)
            self._lose_ring_tile(tile)
            return
        self._emit(Kind.ITEM, action="stolen", what=what)

    def _lose_ring_tile(self, tile: Tile) -> None:
        self.pc.spare_rings.remove(tile)
        self.ledger.move(tile, Place.PC, Place.DISCARDS)
        # The tile alone, as logs have always had it (a key more and older logs no longer
        # replayed, reviewj68 DEFECT 1): the narration names the ring from the profile's
        # item of the tile's rank (jr68 NIT 1).
        self._emit(Kind.ITEM, action="stolen", what=str(tile))
