"""A whole duplicate game from a judge input: every slip of every round decided against the board
of that round, the continuation move played, appeals applied, then totals and ranking
(RULES.md §3, §4, §6). Pure: the same Case gives the same GameResult."""
from __future__ import annotations

from collections import Counter

from corrector.judging.appeals import apply_appeals
from corrector.judging.attempt import try_reading
from corrector.board import Board
from corrector.judging.case import Case, RoundInput
from corrector.judging.decision import Decision, RoundContext, decide_slip
from corrector.errors import CaseError, NotationError
from corrector.judging.group import build_group
from corrector.placement import Move, Placement, apply_placement
from corrector.judging.rulings import Status
from corrector.judging.sanctions import disciplinary
from corrector.judging.standings import standings
from corrector.judging.result import GameResult, RoundResult
from corrector.judging.tactic import decide_tactic
from corrector.judging.topfinder import tactic_top, top_move
from corrector.game.variants import load_duplicate_rules


def _continuation(text: str, ctx: RoundContext, where: str) -> Placement:
    """The arbiter's continuation move, `H4 MODEL` with jokers lowercase: it must be legal."""
    try:
        move = Move.parse(text, ctx.pack)
    except NotationError as exc:
        raise CaseError(f"{where}: key 'continuation': {exc} (or 'top')") from exc
    attempt = try_reading(ctx.board, move.position, move.tiles, None, ctx.group, ctx.lexicon, ctx.pack)
    if not attempt.legal or attempt.joker_warning:
        why = attempt.violation or "the jokers are not marked as the group needs"
        raise CaseError(f"{where}: key 'continuation': {text} is not a legal move: {why}")
    assert attempt.placement is not None
    return attempt.placement


def _tactic_continuation(case: Case, rnd: RoundInput, board: Board, contexts: list[RoundContext]) -> tuple[Placement, Placement]:
    """D 8.6: the two continuation moves in the order played, one from each group in either order."""
    assert rnd.continuation is not None
    error: CaseError | None = None
    for a, b in ((0, 1), (1, 0)):
        try:
            first = _continuation(rnd.continuation[0], contexts[a], rnd.where)
            after = board.copy()
            apply_placement(after, first)
            ctx = RoundContext(case.pack, after, contexts[b].group, case.words, case.youth)
            return first, _continuation(rnd.continuation[1], ctx, rnd.where)
        except CaseError as exc:
            error = error or exc
    assert error is not None
    raise error


def _contexts(case: Case, rnd: RoundInput, board: Board) -> list[RoundContext]:
    spec = load_duplicate_rules(case.pack).variant(case.variant)
    contexts = []
    for i, rack in enumerate(rnd.racks):
        key = "rack" if len(rnd.racks) == 1 else f"rack[{i}]"
        try:
            drawn = case.pack.tiles.parse_rack(rack)
            stock = None
            if rnd.stock is not None:
                stock = tuple(sorted(Counter(case.pack.tiles.parse_rack(rnd.stock)).items()))
            group = build_group(case.variant, case.pack, board, drawn, stock)
        except (NotationError, ValueError) as exc:
            raise CaseError(f"{rnd.where}: key {key!r}: {exc}") from exc
        if len(drawn) > spec.drawn:
            raise CaseError(f"{rnd.where}: key {key!r}: {len(drawn)} letters, a {case.variant} group has at most {spec.drawn}")
        contexts.append(RoundContext(case.pack, board.copy(), group, case.words, case.youth))
    return contexts


def _play_round(case: Case, rnd: RoundInput, board: Board, stopped: dict[int, int]) -> RoundResult:
    contexts = _contexts(case, rnd, board)
    ctx = contexts[0]
    if case.variant == "tactic" and rnd.continuation is None:
        played = list(tactic_top(contexts[0], contexts[1], rnd.where))  # D 8.6: the best pair
        top = sum(p.score for p in played)
    elif case.variant == "tactic":
        if len(rnd.continuation) != 2:
            raise CaseError(f"{rnd.where}: key 'continuation': a tactic round needs its two moves, in order, or 'top'")
        first, second = _tactic_continuation(case, rnd, board, contexts)
        played, top = [first, second], first.score + second.score
    elif rnd.continuation is None:
        found = top_move(ctx, rnd.where)
        played, top = [found], found.score
    else:
        if len(rnd.continuation) != 1:
            raise CaseError(f"{rnd.where}: key 'continuation': one move expected")
        found = _continuation(rnd.continuation[0], ctx, rnd.where)
        played, top = [found], found.score
    decisions: dict[int, Decision] = {}
    for table in sorted(case.players):
        if table in stopped and rnd.number > stopped[table]:
            decisions[table] = Decision(Status.NOT_CORRECTED)
        elif table not in rnd.slips:
            decisions[table] = Decision(Status.MISSING)  # RULES.md §4: a missing slip scores 0
        elif case.variant == "tactic":
            decisions[table] = decide_tactic(rnd.slips[table], contexts[0], contexts[1])
        else:
            decisions[table] = decide_slip(rnd.slips[table], ctx)
    for placement in played:
        apply_placement(board, placement)
    shown = tuple(str(p.move) for p in played)
    return RoundResult(rnd.number, rnd.racks, top, shown, decisions, tuple(contexts))


def judge_case(case: Case) -> GameResult:
    """Decide every slip, apply the appeals, then count the game (RULES.md §4)."""
    stopped = {}
    for table in sorted(set(case.disciplinary) | set(case.cheating)):
        outcome = disciplinary(case.disciplinary.get(table, ()), case.pack.sanctions, case.cheating.get(table))
        if outcome.eliminated_in is not None:
            stopped[table] = outcome.eliminated_in
    board = Board()
    rounds = [_play_round(case, rnd, board, stopped) for rnd in case.rounds]
    apply_appeals(case, rounds, stopped)
    return GameResult(case, tuple(rounds), standings(case, rounds))
