"""A simulated anticipation game (RULES.md §7): 20 players, groups drawn by seed, each player
playing a random sensible move from the move generator on an own board every round (round 1
sometimes with two moves), some declared scores wrong and some slips missing. The correction's
totals and boards must equal an independent replay kept by this test from the generator's own
scores (warnings: 1–3 free, then 5 each, one per slip)."""
from __future__ import annotations

import gzip
import random

import pytest

from corrector.anticipation import AnticipationGame, Player, Variant, correct_anticipation_game
from corrector.anticipation.cancellation import board_of
from corrector.anticipation.groups import classic_rules, draw_groups, draw_round_order
from corrector.board import Board
from corrector.words.lexicon import Lexicon
from corrector.words.movegen import Play, generate_moves

from .helpers import move, slip

from samples import DEMO_WORDS as DEMO  # noqa: E402  (the bundled demo list, not LOC)
PLAYERS, ROUNDS, SEED = 20, 14, 2026


@pytest.fixture(scope="module")
def demo_words(ro) -> Lexicon:
    """Every 2–3 letter word of the demo list and a seeded sample of longer ones (speed)."""
    with gzip.open(DEMO, "rt", encoding="utf-8") as handle:
        words = [w.strip() for w in handle if w.strip()]
    short = [w for w in words if 2 <= len(w) <= 3]
    longer = random.Random(SEED).sample([w for w in words if 4 <= len(w) <= 8], 6000)
    return Lexicon.from_words(short + longer, ro, label="simulation sample")


def _pick(plays: list[Play], rng: random.Random) -> Play | None:
    return rng.choice(plays[:6]) if plays else None


def _lay(board: Board, play: Play) -> None:
    """The test's own board update: put the move's letters on the empty squares it covers."""
    for i, tile in enumerate(play.move.tiles):
        square = play.move.position.square(i)
        if board[square] is None:
            board[square] = tile


def test_section_7_simulated_20_player_game_equals_an_independent_replay(ro, demo_words):
    groups = draw_groups(ro, classic_rules(ro, demo_words), SEED)
    order = draw_round_order(SEED)[:ROUNDS]
    rng = random.Random(SEED)
    slips, expected, boards = [], {}, {}
    for table in range(1, PLAYERS + 1):
        board, total, warnings = Board(), 0, 0
        for rnd in range(1, ROUNDS + 1):
            if rng.random() < 0.05:
                continue  # missing slip: 0 points
            sources = [groups.group(1), groups.group(order[0])] if rnd == 1 and rng.random() < 0.5 else \
                [groups.group(order[rnd - 1])]
            plays = []
            for letters in sources:
                play = _pick(generate_moves(board, list(letters), ro, demo_words), rng)
                if play is not None:
                    _lay(board, play)
                    plays.append(play)
            if not plays:
                continue
            wrong = rng.random() < 0.2
            declared = [p.score + (1 if wrong and i == 0 else 0) for i, p in enumerate(plays)]
            written = [move(p.position.frs(), p.word, d) for p, d in zip(plays, declared)]
            slips.append(slip(table, rnd, *written, total=sum(declared)))
            total += sum(p.score for p in plays)
            warnings += wrong
        expected[table] = total - 5 * max(0, warnings - 3)
        boards[table] = board.to_text()
    game = AnticipationGame(ro, demo_words, Variant.CLASSIC, groups, order,
                            tuple(Player(t, f"P{t}") for t in range(1, PLAYERS + 1)), tuple(slips))
    result = correct_anticipation_game(game)
    assert {p.table: p.total for p in result.players} == expected
    assert {p.table: board_of(p.moves).to_text() for p in result.players} == boards
    assert all(m.decision.penalty is None for p in result.players for m in p.moves)
    ranks = sorted((p.rank, -p.total) for p in result.players)
    assert [r for r, _ in ranks][0] == 1 and [t for _, t in ranks] == sorted(t for _, t in ranks)
