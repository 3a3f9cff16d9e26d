"""Check a duplicate game log on its own, without the game master: replay every round on a fresh
board and verify each clause the game master is meant to follow (RULES.md §5-6).

Used by the tests and by `benchmarks/simulate_games.py`; an arbiter can run it on any log."""
from __future__ import annotations

from collections import Counter
from typing import Any

from corrector.game.bag import Bag, Composition, stock_beside
from corrector.board import Board
from corrector.coords import parse_frs
from corrector.errors import NotationError
from corrector.game.gamemaster import END_NO_MOVE, END_STOCK, GameLog
from corrector.placement import Move, Placement, apply_placement, place_move
from corrector.rulepack import RulePack
from corrector.game.variants import DuplicateRules, RackUse, use_rack


def check_game_log(game: GameLog, pack: RulePack, lexicon: Any, rules: DuplicateRules,
                   finished: bool = True) -> list[str]:
    """Every problem found, one line each (an empty list: the game was run legally):
    each group keeps the last leave (D 5.3.1) unless given up (D 5.3.2) and passes D 5.3.1 for
    the stock of its round; each move is legal on the board, in the word list and with the
    group (D 8 for the variant), and scores as logged; totals add up; the game ends by D 5.3.8
    (or with no legal move); board + stock hold exactly the tile set."""
    problems: list[str] = []
    variant = rules.variant(game.variant)
    board = Board()
    full = Bag.full(pack.tiles).counts()
    total = 0
    leave: Counter[str] = Counter()
    for r in game.rounds:
        where = f"round {r.round}"
        stock = stock_beside(board, pack.tiles)
        group = [ch for ch in r.group if ch != "+"]
        offered = r.rejected[0].split(":")[0] if r.rejected else r.group
        offered_kept = offered.split("+")[0] if "+" in offered else ""
        if Counter(offered_kept) != leave:
            problems.append(f"{where}: kept {offered_kept or '-'} but the last leave was {''.join(leave.elements()) or '-'}")
        if r.rejected and "+" in r.group:
            problems.append(f"{where}: leftovers kept after a group was given up (D 5.3.2)")
        bag_after = stock - Counter(group)
        if Counter(group) - stock:
            problems.append(f"{where}: group {r.group} holds letters not in the stock")
            break
        size = max(variant.drawn, len(r.group.split("+")[0]) if "+" in r.group else 0)
        judge = variant.draw_rule_for(r.round, rules.draw).judge(pack.tiles, size)
        problem = judge(group, Bag(pack.tiles, bag_after))
        if problem is not None:
            problems.append(f"{where}: group {r.group} breaks {problem.article}: {problem.message()}")
        placed = _logged_move(where, r.position, r.word, r.score, board, pack, lexicon, problems)
        if placed is None:
            break
        use = use_rack(variant, group, bag_after, [t for _, _, t in placed.new_tiles])
        if not isinstance(use, RackUse):
            problems.append(f"{where}: {placed.move}: {use}")
            break
        apply_placement(board, placed)
        total += placed.score
        if total != r.cumulative:
            problems.append(f"{where}: cumulative {r.cumulative}, the moves add up to {total}")
        leave = Counter(use.leave)
    problems += _check_end(game, board, total, full, pack, rules, finished)
    return problems


def _logged_move(where: str, position: str, word: str, logged: int, board: Board, pack: RulePack, lexicon: Any,
                 problems: list[str]) -> Placement | None:
    """One move of the log placed on the board by the one scorer: a score or a word the log gets
    wrong is noted; None (noted too) when the move cannot be placed, so the log replays no further."""
    try:
        move = Move(parse_frs(position), pack.tiles.parse_word(word))
    except NotationError as exc:
        problems.append(f"{where}: {exc}")
        return None
    placed = place_move(board, move, pack)
    if not isinstance(placed, Placement):
        problems.append(f"{where}: {move}: {placed}")
        return None
    if placed.score != logged:
        problems.append(f"{where}: {move} scores {placed.score}, the log says {logged}")
    missing = [w.text for w in placed.words if w.text not in lexicon]
    if missing:
        problems.append(f"{where}: {move}: not in the word list: {', '.join(missing)}")
    return placed


def _check_end(game: GameLog, board: Board, total: int, full: Counter[str], pack: RulePack, rules: DuplicateRules,
               finished: bool) -> list[str]:
    """Totals, the tile set and the D 5.3.8 end, for every variant."""
    problems: list[str] = []
    if total != game.total:
        problems.append(f"total {game.total}, the moves add up to {total}")
    if board.tile_counts() + Counter(game.stock_left) != full:
        problems.append("board + stock left do not hold exactly the tile set")
    if not game.tiles_conserved:
        problems.append("the game master reports tiles not conserved")
    if finished:
        end = rules.end
        if game.end_reason == END_STOCK:
            if Composition.of(game.stock_left, pack.tiles).shortfall(end.min_vowels, end.min_consonants) == 0:
                problems.append(f"ended by D 5.3.8 while the stock {game.stock_left} can still give a group")
        elif game.end_reason != END_NO_MOVE:
            problems.append(f"the game did not end (end reason {game.end_reason})")
    return problems


def check_tactic_log(game: GameLog, pack: RulePack, lexicon: Any, rules: DuplicateRules,
                     finished: bool = True) -> list[str]:
    """`check_game_log` for a tactic game (D 8.6): each round's two groups keep their own last
    leave (unless given up) and hold a vowel and a consonant when the stock allows it; each move is
    legal on the board the one before it leaves, uses only its own group and scores as logged; the
    round scores the sum; totals, end and tile set as for the other variants."""
    problems: list[str] = []
    variant = rules.variant(game.variant)
    board = Board()
    full = Bag.full(pack.tiles).counts()
    total = 0
    leaves: Counter[str] = Counter()
    for r in game.rounds:
        where = f"round {r.round}"
        stock = stock_beside(board, pack.tiles)
        labels = r.group.split(" / ")
        groups = [[ch for ch in label if ch != "+"] for label in labels]
        kept = Counter(ch for label in labels if "+" in label for ch in label.split("+")[0])
        if not r.rejected and kept != leaves:
            problems.append(f"{where}: kept {''.join(kept.elements()) or '-'} but the last leaves were "
                            f"{''.join(leaves.elements()) or '-'}")
        in_groups = Counter(ch for g in groups for ch in g)
        if in_groups - stock:
            problems.append(f"{where}: groups {r.group} hold letters not in the stock")
            break
        bag = stock - in_groups
        for label, group in zip(labels, groups):
            judge = variant.draw_rule_for(r.round, rules.draw).judge(pack.tiles, max(variant.drawn, len(group)))
            problem = judge(group, Bag(pack.tiles, bag))
            if problem is not None:
                problems.append(f"{where}: group {label} breaks {problem.article}: {problem.message()}")
        if not r.parts or len({p.group_index for p in r.parts}) != len(r.parts):
            problems.append(f"{where}: a tactic round plays one move per group")
            break
        round_score = 0
        leaves = Counter(in_groups)
        for part in r.parts:
            placed = _logged_move(where, part.position, part.word, part.score, board, pack, lexicon, problems)
            if placed is None:
                return problems
            use = use_rack(variant, groups[part.group_index], {}, [t for _, _, t in placed.new_tiles])
            if not isinstance(use, RackUse):
                problems.append(f"{where}: {placed.move}: {use} (group {labels[part.group_index]})")
                return problems
            apply_placement(board, placed)
            round_score += placed.score
            leaves -= Counter(use.from_group)
        if round_score != r.score:
            problems.append(f"{where}: the round scores {r.score}, its moves add up to {round_score}")
        total += round_score
        if total != r.cumulative:
            problems.append(f"{where}: cumulative {r.cumulative}, the moves add up to {total}")
    problems += _check_end(game, board, total, full, pack, rules, finished)
    return problems


def check_any_game_log(game: GameLog, pack: RulePack, lexicon: Any, rules: DuplicateRules,
                       finished: bool = True) -> list[str]:
    """The check that fits the game's variant (tactic or one group a round)."""
    check = check_tactic_log if rules.variant(game.variant).groups == 2 else check_game_log
    return check(game, pack, lexicon, rules, finished)
