"""The letters of an anticipation game in the store: the 15 groups (drawn from the game's seed
with A 5.2.d–e, or entered by the arbiter) and the round→group order (drawn by lot, A 5.3, or
entered). Both live on the game; each round of the order gets its `Round` row, whose `rack` is
the letters played that round, so slips, decisions and the sheet hang on ordinary rounds.

Nothing here decides a rule: drawing and checking are `corrector.anticipation.groups`'s. Once a
round holds a slip its group is fixed (changing it would change what the slip was judged
against); every change writes its audit entry."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrector.anticipation.groups import (GROUP_COUNT, DrawRules, GroupSet, avocalic_rules, check_round_order,
                                           classic_rules, draw_groups, draw_round_order, parse_groups)
from corrector.errors import AnticipationInputError
from corrector.rulepack import RulePack, load_pack

from ..errors import WorkflowError
from ..store.audit import Change, record
from ..store.games import lexicon_of, require_kind, rounds
from ..store.models import Game, Player, Round, Slip

ROUND_ONE_JOIN = "+"  # round 1 plays group 1 and a 7-letter group (A 5.3): "AS+ACEMRST"
BLIND = "blind"  # A 8.4: each player composes the groups; the store keeps them on the player


@dataclass(frozen=True)
class GroupsSet:
    """What `round groups` stored, with the draw log the arbiter reads out (A 5.2.e)."""

    groups: tuple[str, ...]
    source: str
    notes: tuple[str, ...] = ()


def draw_rules(game: Game, pack: RulePack) -> DrawRules:
    """The rules each group must meet; the same choice as `corrector.anticipation.judge.load_game`."""
    if game.variant == "avocalic":
        return avocalic_rules(pack)
    return classic_rules(pack, lexicon_of(game, pack))


def _rounds_with_slips(session: Session, game: Game) -> set[int]:
    return set(session.scalars(select(Round.number).join(Slip, Slip.round_id == Round.id)
                               .where(Round.game_id == game.id, Slip.state == "filed")))


def set_groups(session: Session, game: Game, actor: str, entered: Sequence[str] | None = None,
               reason: str | None = None) -> GroupsSet:
    """Draw the groups from the game's seed (`entered` None) or store the arbiter's 15 groups."""
    require_kind(game, "anticipation", "round groups")
    if game.variant == BLIND:
        raise WorkflowError(f"game {game.id} is blind (A 8.4): enter each player's groups with "
                            f"`round groups --table N --set G1,...,G15`")
    if _rounds_with_slips(session, game):
        raise WorkflowError(f"game {game.id}: slips are filed already; the groups can no longer change")
    pack = load_pack(game.rules)
    rules = draw_rules(game, pack)
    try:
        if entered is None:
            if game.draw_seed is None:
                raise WorkflowError(f"game {game.id} has no seed; enter the groups with --set")
            drawn = draw_groups(pack, rules, game.draw_seed)
        else:
            drawn = parse_groups(list(entered), pack, rules, "--set")
    except AnticipationInputError as exc:
        raise WorkflowError(str(exc)) from exc
    texts = tuple("".join(g) for g in drawn.groups)
    notes = tuple([f"group {r.group} {''.join(r.letters)} drawn again: {r.reason}" for r in drawn.redraws]
                  + [f"groups {', '.join(map(str, r.groups))} returned and drawn again (A 5.2.e)"
                     for r in drawn.repairs])
    before = {"groups": game.groups}
    game.groups = list(texts)
    record(session, actor, Change("game.groups", "game", game.id, before=before,
                                  after={"groups": list(texts), "source": drawn.source, "seed": drawn.seed,
                                         "draw_log": list(notes)},
                                  reason=reason or ("drawn from the game's seed" if entered is None else
                                                    "entered by the arbiter")), game.id)
    if game.group_order:  # rounds already laid out take their new letters
        _lay_out_rounds(session, game, list(game.group_order), actor, "groups changed")
    return GroupsSet(texts, drawn.source, notes)


def set_player_groups(session: Session, game: Game, table: int, entered: Sequence[str], actor: str,
                      reason: str | None = None) -> GroupsSet:
    """Blind variant (A 8.4): the 15 groups one player composed, checked as the arbiter's would be
    (every problem named at once) and kept on the player's seat; once entered, fixed when that player
    has a slip (a slip was judged against them)."""
    require_kind(game, "anticipation", "round groups --table")
    if game.variant != BLIND:
        raise WorkflowError(f"game {game.id} is not blind: its groups are the game's (`round groups --set`)")
    player = session.scalar(select(Player).where(Player.game_id == game.id, Player.table_no == table))
    if player is None:
        raise WorkflowError(f"table {table} is not seated in game {game.id}")
    if player.groups and session.scalar(select(Slip.id).where(Slip.game_id == game.id, Slip.table_no == table,
                                                              Slip.state == "filed")) is not None:
        raise WorkflowError(f"table {table} has slips filed already; its groups can no longer change")
    pack = load_pack(game.rules)
    try:
        groups = parse_groups(list(entered), pack, classic_rules(pack, lexicon_of(game, pack)), f"--table {table} --set")
    except AnticipationInputError as exc:
        raise WorkflowError(str(exc)) from exc
    texts = ["".join(g) for g in groups.groups]
    before = {"groups": player.groups}
    player.groups = texts
    _label_blind_groups(game)
    record(session, actor, Change("player.groups", "player", table, before=before, after={"groups": texts},
                                  reason=reason or "composed by the player (A 8.4)"), game.id)
    return GroupsSet(tuple(texts), "entered")


def _label_blind_groups(game: Game) -> None:
    """A blind game's own groups are its labels `G1`…`G15` (the sheet and the rounds name them);
    the letters are each player's."""
    if not game.groups:
        game.groups = [f"G{n}" for n in range(1, GROUP_COUNT + 1)]


def blind_groups(session: Session, game: Game) -> dict[int, list[str]]:
    """Each seated player's own groups in a blind game; every player must have handed them in."""
    seats = session.scalars(select(Player).where(Player.game_id == game.id).order_by(Player.table_no))
    out = {p.table_no: list(p.groups or []) for p in seats}
    missing = [t for t, g in out.items() if not g]
    if missing:
        raise WorkflowError(f"blind game {game.id}: no groups yet for tables {', '.join(map(str, missing))} "
                            f"(`round groups --table N --set ...`, A 8.4)")
    return out


def stored_groups(game: Game) -> GroupSet:
    if not game.groups:
        raise WorkflowError(f"game {game.id}: no groups yet (`fluturas round groups --draw` or --set)")
    return GroupSet(tuple(tuple(g) for g in game.groups), "stored")


def round_letters(game: Game, number: int) -> str:
    """The letters played in round `number` (A 5.3: round 1 also plays group 1)."""
    groups, order = stored_groups(game).groups, game.group_order or []
    seven = "".join(groups[order[number - 1] - 1])
    return "".join(groups[0]) + ROUND_ONE_JOIN + seven if number == 1 else seven


def set_order(session: Session, game: Game, actor: str, entered: Sequence[int] | None = None,
              through: int | None = None, reason: str | None = None) -> list[int]:
    """The round→group order: drawn by lot from the game's seed (each round among the groups
    left, A 5.3; `through` reveals only the first rounds, the same ones the full draw gives),
    or entered by the arbiter as the lots come out (a prefix may be entered and extended)."""
    require_kind(game, "anticipation", "round order")
    if game.variant == BLIND:
        _label_blind_groups(game)
    groups = stored_groups(game)
    if entered is None:
        if game.draw_seed is None:
            raise WorkflowError(f"game {game.id} has no seed; enter the order with --set")
        order = list(draw_round_order(game.draw_seed, tuple(range(2, len(groups.groups) + 1))))
        order = order[:through] if through is not None else order
    else:
        order = list(entered)
    try:
        check_round_order(order, groups)
    except AnticipationInputError as exc:
        raise WorkflowError(str(exc)) from exc
    old = list(game.group_order or [])
    fixed = _rounds_with_slips(session, game)
    for number in sorted(fixed):
        if number > len(order) or (number <= len(old) and old[number - 1] != order[number - 1]):
            raise WorkflowError(f"round {number} holds slips: its group ({old[number - 1]}) cannot change")
    existing = max((r.number for r in rounds(session, game)), default=0)
    if existing > len(order):
        raise WorkflowError(f"rounds 1–{existing} exist; the order must name at least {existing} rounds")
    game.group_order = order
    record(session, actor, Change("game.group_order", "game", game.id, before={"group_order": old or None},
                                  after={"group_order": order, "source": "drawn" if entered is None else "entered",
                                         "seed": game.draw_seed if entered is None else None},
                                  reason=reason or ("drawn by lot from the game's seed" if entered is None
                                                    else "entered by the arbiter")), game.id)
    _lay_out_rounds(session, game, order, actor, reason)
    return order


def _lay_out_rounds(session: Session, game: Game, order: list[int], actor: str, reason: str | None) -> None:
    """One `Round` per entry of the order, its rack the letters of that round."""
    by_number = {r.number: r for r in rounds(session, game)}
    for number in range(1, len(order) + 1):
        letters = round_letters(game, number)
        rnd = by_number.get(number)
        if rnd is None:
            session.add(Round(game_id=game.id, number=number, rack=letters, rack_source="order",
                              equal_tops=[], notices=[]))
            record(session, actor, Change("round.rack", "round", number,
                                          after={"rack": letters, "group": order[number - 1]}, reason=reason), game.id)
        elif rnd.rack != letters:
            record(session, actor, Change("round.rack", "round", number, before={"rack": rnd.rack},
                                          after={"rack": letters, "group": order[number - 1]}, reason=reason), game.id)
            rnd.rack = letters
    session.flush()
