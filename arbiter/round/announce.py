"""What the arbiter reads out when a round closes (D 5.3.7): first the tables whose move of the
round last corrected scored 0 — table numbers only, never the reason — then the top in the
standard form, with the game master's position / joker / chosen-solution flags."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrector.game.announcement import letter_name

from corrector.placement import Placement
from corrector.rulepack import load_pack
from corrector.game.variants import load_duplicate_rules

from ..store.games import board_before, continuation_moves
from ..store.models import Decision, Game, ReviewItem, Round, Slip

@dataclass(frozen=True)
class Announcement:
    round: int
    zero_round: int | None
    zero_tables: tuple[int, ...]
    lines: tuple[str, ...] = field(default=())
    withheld: tuple[int, ...] = ()  # zero, but the slip is still in the review queue: not announced


def points_ro(n: int) -> str:
    """Romanian number agreement: '12 puncte', '26 de puncte' (from 20, and 0 → '0 puncte')."""
    return f"{n} de puncte" if n % 100 >= 20 or (n >= 100 and n % 100 == 0) else f"{n} puncte"


def top_lines(rnd: Round, placement: Placement, names: Mapping[str, str]) -> list[str]:
    """The standard form (D 5.3.7), then the game master's flags stored with the round."""
    move = placement.move
    line = f"Depunerea top în turul {rnd.number} este {move.position.frs()} {move.word.upper()}, {points_ro(placement.score)}"
    adjacent = [w.text for w in placement.words[1:]]
    if adjacent:
        line += ", adiacente: " + ", ".join(adjacent)
    new_squares = {(r, c) for r, c, _t in placement.new_tiles}
    for i, tile in enumerate(move.tiles):
        if tile.joker and move.position.square(i) in new_squares:
            line += f"; jokerul înlocuiește litera {letter_name(tile.letter, names)}"
    return [line + "."] + [str(n)[:1].upper() + str(n)[1:] for n in rnd.notices or []]


def announce(session: Session, game: Game, rnd: Round) -> Announcement:
    """Zero moves of the newest corrected round up to this one, then this round's top. A zero
    whose slip still waits in the review queue is withheld: only a checked zero is announced."""
    pack = load_pack(game.rules)
    zero_round, zeros, withheld = None, (), ()
    corrected = session.scalars(select(Round).join(Decision, Decision.round_id == Round.id)
                                .where(Round.game_id == game.id, Round.number <= rnd.number)
                                .order_by(Round.number.desc()).limit(1)).first()
    if corrected is not None:
        zero_round = corrected.number
        all_zeros = session.scalars(select(Decision.table_no).where(Decision.round_id == corrected.id,
                                                                    Decision.credited == 0).order_by(Decision.table_no))
        waiting = set(session.scalars(select(ReviewItem.table_no).where(ReviewItem.round_id == corrected.id,
                                                                        ReviewItem.state == "open")))
        waiting |= {held_table for held_table in session.scalars(
            select(Slip.table_no).join(ReviewItem, ReviewItem.slip_id == Slip.id)
            .where(ReviewItem.round_id == corrected.id, ReviewItem.state == "open"))}
        zeros_list = list(all_zeros)
        zeros = tuple(t for t in zeros_list if t not in waiting)
        withheld = tuple(t for t in zeros_list if t in waiting)
    lines: list[str] = []
    if zero_round is not None:
        lines.append(f"Depuneri 0 în turul {zero_round}: " + (", ".join(f"masa {t}" for t in zeros) or "niciuna") + ".")
    if rnd.continuation:  # a tactic round has two moves (D 8.6): one line each, the notices once
        moves = continuation_moves(board_before(session, game, rnd.number, pack), rnd.continuation, pack, rnd.number)
        for i, placed in enumerate(moves):
            shown = top_lines(rnd, placed, load_duplicate_rules(pack).letter_names)
            lines += shown if i == len(moves) - 1 else shown[:1]
    return Announcement(rnd.number, zero_round, zeros, tuple(lines), withheld)
