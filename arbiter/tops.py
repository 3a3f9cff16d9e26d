"""A round's tops for the store: the game master's search (move generator + D 5.3.7 preference
order) on the board the stored continuations build, and the announcement flags that go with the
retained move. Nothing is decided here: `corrector.game.continuation` and `corrector.game.announcement` do."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sqlalchemy.orm import Session

from corrector.game.announcement import top_flags
from corrector.game.bag import Bag
from corrector.game.continuation import Candidate, find_tops, rank_tops
from corrector.words.lexicon import Lexicon, load_lexicon
from corrector.words.movegen import top_moves
from corrector.rulepack import RulePack, load_pack
from corrector.tiles import JOKER
from corrector.game.variants import load_duplicate_rules

from .errors import WorkflowError
from .games import board_before, verify_wordlist
from .models import Game, Round


@dataclass(frozen=True)
class RoundTops:
    """Every top (the continuation the D 5.3.7 order prefers first), with the retained move's
    flags and the other tops as `POS WORD`."""

    tops: tuple[Candidate, ...]
    retained: Candidate | None
    flags: tuple[str, ...]
    equal_tops: tuple[str, ...]


def lexicon_of(game: Game, pack: RulePack) -> Lexicon:
    if not game.wordlist_path:
        raise WorkflowError(f"game {game.id} has no word list: give one with `game new --words FILE`")
    return load_lexicon(verify_wordlist(game), pack, label=game.wordlist_label)


def round_tops(session: Session, game: Game, rnd: Round, chosen: str | None = None) -> RoundTops:
    """The tops of `rnd`; `chosen` ('H4 MODEL') is the arbiter's retained move, else the first."""
    pack = load_pack(game.rules)
    rules = load_duplicate_rules(pack)
    variant = rules.variant(game.variant)
    board = board_before(session, game, rnd.number, pack)
    group = pack.tiles.parse_rack(rnd.rack)
    on_board = Counter(JOKER if t.joker else t.letter for _, _, t in board.tiles())
    stock = Bag.full(pack.tiles).counts() - on_board  # bag + group: every letter not on the board
    bag = stock - Counter(group)
    found = find_tops(board, group, dict(bag), variant, pack, lexicon_of(game, pack), top_moves)
    tops = rank_tops(found, stock, pack, rules.continuation, rules.end)
    retained = tops[0] if tops else None
    if chosen is not None:
        retained = next((c for c in tops if f"{c.move.position.frs()} {c.move.word}" == chosen.strip()), None)
    flags = tuple(a.text for a in top_flags(retained, tops, rules.letter_names)) if retained else ()
    others = tuple(f"{c.move.position.frs()} {c.move.word}" for c in tops if c is not retained)
    return RoundTops(tuple(tops), retained, flags, others)


def retain_continuation(session: Session, game: Game, rnd: Round, move: str, actor: str) -> tuple[int, RoundTops]:
    """Record the continuation: "top" takes the game master's choice, a written move ('H4 MODEL')
    the arbiter's (D 5.3.7: "alegerea ... este la aprecierea arbitrului"). The round's top score,
    the other tops and the flags to announce are stored with it. Returns the move's score."""
    from .games import set_continuation

    found = round_tops(session, game, rnd, None if move.strip().lower() == "top" else move)
    if move.strip().lower() == "top":
        if found.retained is None:
            raise WorkflowError(f"round {rnd.number}: no legal move with the group {rnd.rack}")
        move = f"{found.retained.move.position.frs()} {found.retained.move.word}"
    notices = list(found.flags)
    if found.tops and found.retained is None:
        notices.append(f"mutarea reținută nu este un top (top: {found.tops[0].score})")
    placed = set_continuation(session, game, rnd, move, actor, list(found.equal_tops), notices)
    if found.tops:
        rnd.top_score = found.tops[0].score
    return placed.score, found
