"""A round's tops for the store: the game master's search (move generator + D 5.3.7 preference
order) on the board the stored continuations build, and the announcement flags that go with the
retained move. Nothing is decided here: `corrector.game.continuation` and `corrector.game.announcement` do."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sqlalchemy.orm import Session

from corrector.game.announcement import top_flags
from corrector.game.bag import stock_beside
from corrector.game.continuation import Candidate, find_tops, rank_tops
from corrector.game.tactic import TacticTop, find_tactic_tops, rank_tactic_tops
from corrector.game.tacticmaster import SOLUTION, parse_tactic_continuation
from corrector.words.movegen import top_moves
from corrector.rulepack import load_pack
from corrector.game.variants import load_duplicate_rules
from corrector.judging.rack import take_from_rack
from corrector.reasons import Violation

from exitcodes import FluturasError

from ..errors import WorkflowError
from ..store.audit import Change, record
from ..store.games import board_before, lexicon_of, place_continuation
from ..store.models import Game, Round
from ..store.validation import require_not_final


@dataclass(frozen=True)
class RoundTops:
    """Every top (the continuation the D 5.3.7 order prefers first), with the retained move's
    flags and the other tops as `POS WORD`."""

    tops: tuple[Candidate | TacticTop, ...]
    retained: Candidate | TacticTop | None
    flags: tuple[str, ...]
    equal_tops: tuple[str, ...]


def _text(top: Candidate | TacticTop) -> str:
    """`H4 MODEL` (a tactic pair: `H4 MODEL; 8D CASA`), as the store writes a continuation."""
    return top.text() if isinstance(top, TacticTop) else f"{top.move.position.frs()} {top.move.word}"


def tactic_round_tops(session: Session, game: Game, rnd: Round, chosen: str | None = None) -> RoundTops:
    """D 8.6: every best pair of the round's two groups (`corrector.game.tactic`), the D 5.3.7
    choice first; `chosen` ('H4 MODEL; 8D CASA') is the arbiter's. Announced: the other tops,
    and "atenție la soluția reținută!" when there are several."""
    pack = load_pack(game.rules)
    rules = load_duplicate_rules(pack)
    board = board_before(session, game, rnd.number, pack)
    groups = [pack.tiles.parse_rack(g) for g in rnd.rack.split("/")]
    found = find_tactic_tops(board, groups, rules.variant(game.variant), pack, lexicon_of(game, pack))
    tops = rank_tactic_tops(found, stock_beside(board, pack.tiles), pack, rules.continuation, rules.end)
    retained = tops[0] if tops else None
    if chosen is not None:
        retained = next((t for t in tops if _text(t) == chosen.strip()), None)
    others = tuple(_text(t) for t in tops if t is not retained)
    flags = (SOLUTION,) if retained is not None and others else ()
    return RoundTops(tuple(tops), retained, flags, others)


def tactic_continuation(session: Session, game: Game, rnd: Round, text: str) -> TacticTop:
    """The arbiter's two moves of a tactic round, checked (D 8.6): legal, in the list, one per group."""
    pack = load_pack(game.rules)
    groups = [pack.tiles.parse_rack(g) for g in rnd.rack.split("/")]
    board = board_before(session, game, rnd.number, pack)
    variant = load_duplicate_rules(pack).variant(game.variant)
    try:
        return parse_tactic_continuation(text, board, groups, variant, pack, lexicon_of(game, pack))
    except FluturasError as exc:
        raise WorkflowError(f"round {rnd.number}: {exc}") from exc


def round_tops(session: Session, game: Game, rnd: Round, chosen: str | None = None) -> RoundTops:
    """The tops of `rnd`; `chosen` ('H4 MODEL') is the arbiter's retained move, else the first."""
    if game.variant == "tactic":
        return tactic_round_tops(session, game, rnd, chosen)
    pack = load_pack(game.rules)
    rules = load_duplicate_rules(pack)
    variant = rules.variant(game.variant)
    board = board_before(session, game, rnd.number, pack)
    group = pack.tiles.parse_rack(rnd.rack)
    stock = stock_beside(board, pack.tiles)
    bag = stock - Counter(group)
    found = find_tops(board, group, dict(bag), variant, pack, lexicon_of(game, pack), top_moves)
    tops = rank_tops(found, stock, pack, rules.continuation, rules.end)
    retained = tops[0] if tops else None
    if chosen is not None:
        retained = next((c for c in tops if _text(c) == chosen.strip()), None)
    flags = tuple(a.text for a in top_flags(retained, tops, rules.letter_names)) if retained else ()
    others = tuple(_text(c) for c in tops if c is not retained)
    return RoundTops(tuple(tops), retained, flags, others)


def set_continuation(session: Session, game: Game, rnd: Round, text: str, actor: str,
                     equal_tops: list[str] | None = None, notices: list[str] | None = None) -> int:
    """Record the continuation move (D 5.3.7), scored by the one scorer on the round's board
    and checked against the group; a tactic round's two moves (D 8.6) by `tactic_continuation`.
    Returns its score."""
    require_not_final(game, "changing the continuation")
    pack = load_pack(game.rules)
    if game.variant == "tactic":
        score = tactic_continuation(session, game, rnd, text).score
    else:
        placed = place_continuation(board_before(session, game, rnd.number, pack), text, pack, rnd.number)
        leave = take_from_rack(pack.tiles.parse_rack(rnd.rack), [t for _r, _c, t in placed.new_tiles])
        if isinstance(leave, Violation):
            raise WorkflowError(f"round {rnd.number}: continuation {text!r}: {leave.message()}")
        lexicon = lexicon_of(game, pack)
        unknown = [w.text for w in placed.words if list(w.tiles) not in lexicon]
        if unknown:  # D 5.3.7: the continuation is a valid move, every word it forms in the list
            raise WorkflowError(f"round {rnd.number}: continuation {text!r}: {', '.join(unknown)} not in the "
                                f"word list {game.wordlist_label}")
        score = placed.score
    before = {"continuation": rnd.continuation, "top_score": rnd.top_score}
    rnd.continuation, rnd.top_score = text, score
    rnd.equal_tops = list(equal_tops or [])
    rnd.notices = list(notices or [])
    record(session, actor, Change("round.continuation", "round", rnd.number, before=before,
                                  after={"continuation": text, "top_score": score,
                                         "equal_tops": rnd.equal_tops}), game.id)
    return score


def retain_continuation(session: Session, game: Game, rnd: Round, move: str, actor: str) -> tuple[int, RoundTops]:
    """Record the continuation: "top" takes the game master's choice, a written move ('H4 MODEL')
    the arbiter's (D 5.3.7: "alegerea ... este la aprecierea arbitrului"). The round's top score,
    the other tops and the flags to announce are stored with it. Returns the move's score."""
    found = round_tops(session, game, rnd, None if move.strip().lower() == "top" else move)
    if move.strip().lower() == "top":
        if found.retained is None:
            raise WorkflowError(f"round {rnd.number}: no legal move with the group {rnd.rack}")
        move = _text(found.retained)
    notices = list(found.flags)
    if found.tops and found.retained is None:
        notices.append(f"mutarea reținută nu este un top (top: {found.tops[0].score})")
    score = set_continuation(session, game, rnd, move, actor, list(found.equal_tops), notices)
    if found.tops:
        rnd.top_score = found.tops[0].score
    return score, found
