"""What the arbiter reads out when a round closes (D 5.3.7): first the tables whose move of the
round last corrected scored 0 — table numbers only, never the reason — then the top in the
standard form, with the position / joker / chosen-solution warnings."""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrector.coords import parse_frs

from corrector.placement import Move, Placement, place_move
from corrector.rulepack import load_pack

from .games import board_before
from .models import Decision, Game, Round

# Annex 2 of the duplicate rules: how letters are named aloud.
LETTER_NAMES_RO = {
    "A": "ANA", "B": "BARBU", "C": "CONSTANTIN", "D": "DUMITRU", "E": "ELENA", "F": "FLOREA", "G": "GHEORGHE",
    "H": "HARALAMBIE", "I": "ION", "J": "JIANU", "L": "LUCA", "M": "MARIN", "N": "NICOLAE", "O": "OPREA",
    "P": "PETRE", "R": "RADU", "S": "SANDU", "T": "TUDOR", "U": "UDREA", "V": "VASILE", "X": "XENIA",
    "Z": "ZAMFIR", "?": "JOKER",
}
ORDINALS_RO = ("prima", "a doua", "a treia", "a patra", "a cincea", "a șasea", "a șaptea", "a opta",
               "a noua", "a zecea", "a unsprezecea", "a douăsprezecea", "a treisprezecea",
               "a paisprezecea", "a cincisprezecea")


@dataclass(frozen=True)
class Announcement:
    round: int
    zero_round: int | None
    zero_tables: tuple[int, ...]
    lines: tuple[str, ...] = field(default=())


def points_ro(n: int) -> str:
    """Romanian number agreement: '12 puncte', '26 de puncte' (from 20, and 0 → '0 puncte')."""
    return f"{n} de puncte" if n % 100 >= 20 or (n >= 100 and n % 100 == 0) else f"{n} puncte"


def top_lines(rnd: Round, placement: Placement) -> list[str]:
    move = placement.move
    line = f"Depunerea top în turul {rnd.number} este {move.position.frs()} {move.word.upper()}, {points_ro(placement.score)}"
    adjacent = [w.text for w in placement.words[1:]]
    if adjacent:
        line += ", adiacente: " + ", ".join(adjacent)
    new_squares = {(r, c) for r, c, _t in placement.new_tiles}
    for i, tile in enumerate(move.tiles):
        if tile.joker and move.position.square(i) in new_squares:
            line += f"; jokerul înlocuiește litera {tile.letter} ({LETTER_NAMES_RO.get(tile.letter, tile.letter)})"
    lines = [line + "."]
    lines += [str(n) for n in rnd.notices or []]  # position / joker warnings from the game master
    if rnd.equal_tops:
        lines.append("Atenție la soluția reținută!")
    return lines


def joker_notice(placement: Placement) -> str | None:
    """'atenție la poziția jokerului ...' when the word repeats the joker's letter elsewhere
    among the new tiles, so the joker could stand at several places (D 5.3.7)."""
    move = placement.move
    new_squares = {(r, c) for r, c, _t in placement.new_tiles}
    new = [(i, t) for i, t in enumerate(move.tiles) if move.position.square(i) in new_squares]
    for i, tile in new:
        if tile.joker and sum(t.letter == tile.letter for _j, t in new) > 1:
            ordinal = ORDINALS_RO[i] if i < len(ORDINALS_RO) else f"a {i + 1}-a"
            return (f"Atenție la poziția jokerului, jokerul este {ordinal} literă "
                    f"({LETTER_NAMES_RO.get(tile.letter, tile.letter)}) în cadrul depunerii!")
    return None


def announce(session: Session, game: Game, rnd: Round) -> Announcement:
    """Zero moves of the newest corrected round up to this one, then this round's top."""
    pack = load_pack(game.rules)
    zero_round, zeros = None, ()
    corrected = session.scalars(select(Round).join(Decision, Decision.round_id == Round.id)
                                .where(Round.game_id == game.id, Round.number <= rnd.number)
                                .order_by(Round.number.desc()).limit(1)).first()
    if corrected is not None:
        zero_round = corrected.number
        zeros = tuple(session.scalars(select(Decision.table_no).where(Decision.round_id == corrected.id,
                                                                      Decision.credited == 0)
                                      .order_by(Decision.table_no)))
    lines: list[str] = []
    if zero_round is not None:
        lines.append(f"Depuneri 0 în turul {zero_round}: " + (", ".join(f"masa {t}" for t in zeros) or "niciuna") + ".")
    if rnd.continuation:
        position, word = rnd.continuation.split(maxsplit=1)
        placed = place_move(board_before(session, game, rnd.number, pack),
                            Move(parse_frs(position), pack.tiles.parse_word(word)), pack)
        if isinstance(placed, Placement):
            lines += top_lines(rnd, placed)
            notice = joker_notice(placed)
            if notice and notice not in lines:
                lines.append(notice)
    return Announcement(rnd.number, zero_round, zeros, tuple(lines))
