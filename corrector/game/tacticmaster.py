"""The tactic game master (RULES.md §6; D 8.6): two groups of 7 a round, each refilled from its own
leftovers in the order they were drawn, each with at least one vowel and one consonant (D 8.6, the
stock exception of D 5.3.1 at the end); two moves a round, one from each group in either order;
the top is the best pair (`corrector.game.tactic`). When only one group still holds letters the
round is a classic one; the game ends when bag + groups cannot give a vowel and a consonant
(D 8.6: both groups only consonants or only vowels) or no move is possible.

    gm = TacticGameMaster(pack, lexicon, seed=7)
    while (setup := gm.next_round()) is not None:
        tops = gm.tops()                      # every best pair, the continuation first
        gm.play_continuation("top")           # or "H4 MODEL; 8D CASA"
    game = gm.game_log()                      # the same GameLog as the other variants
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Any

from corrector.board import Board
from corrector.coords import parse_frs
from corrector.errors import GameError, NotationError
from corrector.game.announcement import draw_text
from corrector.game.bag import Draw, draw_group, group_label, sort_letters
from corrector.game.continuation import Candidate
from corrector.game.gamemaster import GameMaster, MasterState, MovePart, RoundLog
from corrector.game.tactic import TacticTop, find_tactic_tops, rank_tactic_tops
from corrector.game.variants import DuplicateRules, RackUse, Variant, load_duplicate_rules, use_rack
from corrector.placement import Move, Placement, apply_placement, place_move
from corrector.rulepack import RulePack
from corrector.tiles import JOKER

SOLUTION = "atenție la soluția reținută!"


@dataclass(frozen=True)
class TacticSetup:
    """A tactic round ready to play: both draws (the second may be empty at the end of the game),
    their labels and the arbiter's announcement."""

    round: int
    draws: tuple[Draw, ...]
    labels: tuple[str, ...]
    announcement: tuple[str, ...]

    @property
    def groups(self) -> tuple[tuple[str, ...], ...]:
        return tuple(d.group for d in self.draws)

    @property
    def label(self) -> str:
        return " / ".join(self.labels)


class TacticGameMaster(MasterState):
    """Runs one tactic game; the same seed gives the same game (draws use `rng` only)."""

    def __init__(self, pack: RulePack, lexicon: Any, rng: random.Random | None = None,
                 rules: DuplicateRules | None = None, seed: int | None = None, variant: str = "tactic") -> None:
        self._start(pack, lexicon, rules or load_duplicate_rules(pack), rng, seed)
        self.variant: Variant = self.rules.variant(variant)
        if self.variant.groups != 2:
            raise GameError(f"variant {self.variant.name}: one group a round; use GameMaster")
        self.kept: list[tuple[str, ...]] = [(), ()]
        self._setup: TacticSetup | None = None
        self._tops: list[TacticTop] | None = None

    def stock(self) -> Counter[str]:
        """Bag + both groups: every letter not on the board."""
        held = self._setup.groups if self._setup else self.kept
        return self.bag.counts() + Counter(letter for g in held for letter in g)

    def next_round(self) -> TacticSetup | None:
        """Refill both groups in the order they were drawn (D 8.6), or end the game."""
        if not self._can_go_on():
            return None
        rule = self.variant.draw_rule_for(self.round, self.rules.draw)
        draws = []
        for kept in self.kept:
            if not kept and not len(self.bag):
                continue  # D 8.6: only one group left, the game goes on as classic
            size = max(self.variant.drawn, len(kept))
            draws.append(draw_group(self.bag, kept, size, rule.judge(self.pack.tiles, size), self.rng,
                                    self.rules.draw.max_redraws))
        self.kept = [(), ()]
        labels = tuple(group_label(d.kept, d.drawn, self.pack.tiles) for d in draws)
        lines: list[str] = []
        for i, draw in enumerate(draws, start=1):
            lines += [f"grupa {i}: {line}" for line in draw_text(self.round, draw, self.pack.tiles, self.rules.letter_names)]
        self._setup = TacticSetup(self.round, tuple(draws), labels, tuple(lines))
        self._tops = None
        return self._setup

    def tops(self) -> list[TacticTop]:
        """Every best pair of the round (both orders), the D 5.3.7 continuation first."""
        setup = self._current()
        if self._tops is None:
            found = find_tactic_tops(self.board, setup.groups, self.variant, self.pack, self.lexicon)
            self._tops = rank_tactic_tops(found, self.stock(), self.pack, self.rules.continuation, self.rules.end)
        return self._tops

    def parse_continuation(self, text: str) -> TacticTop:
        """`H4 MODEL; 8D CASA`: see `parse_tactic_continuation`."""
        setup = self._current()
        return parse_tactic_continuation(text, self.board, setup.groups, self.variant, self.pack, self.lexicon)

    def play_continuation(self, move: TacticTop | str = "top") -> RoundLog:
        """Play the round: "top" (the D 5.3.7 choice among the best pairs), the arbiter's
        `H4 MODEL; 8D CASA`, or a TacticTop. It must be legal; it need not be a top."""
        setup = self._current()
        tops = self.tops()
        return self._apply(setup, tops, self._chosen(setup, tops, move))

    def _apply(self, setup: TacticSetup, tops: list[TacticTop], chosen: TacticTop) -> RoundLog:
        before = self.stock()
        order = [chosen.first_group, 1 - chosen.first_group][:len(chosen.moves)]
        kept = [tuple(g) for g in setup.groups] + [()] * (2 - len(setup.groups))
        parts = []
        for index, cand in zip(order, chosen.moves):
            apply_placement(self.board, cand.placement)
            kept[index] = cand.use.leave
            parts.append(MovePart(index, setup.labels[index], cand.move.position.frs(), cand.move.word, cand.score,
                                  "".join(sort_letters(cand.use.leave, self.pack.tiles)), cand.placement.bingo))
        self.kept = kept
        self._setup = None
        self.cumulative += chosen.score
        retained = any(t.key == chosen.key for t in tops)
        others = [t for t in tops if t.key != chosen.key]
        log = RoundLog(
            round=setup.round,
            group=setup.label,
            rejected=tuple(f"{group_label(r.kept, r.drawn, self.pack.tiles)}: {r.problem.message('ro')}"
                           for d in setup.draws for r in d.rejected),
            position=" ; ".join(p.position for p in parts),
            word=" ; ".join(p.word for p in parts),
            score=chosen.score,
            cumulative=self.cumulative,
            top_score=tops[0].score if tops else 0,
            is_top=retained,
            tops=len(tops),
            flags=(SOLUTION,) if retained and others else (),
            equal_tops=tuple(t.text() for t in others),
            from_stock="",
            given_up="",
            leave=" / ".join(p.leave for p in sorted(parts, key=lambda p: p.group_index)),
            bingo=any(p.bingo for p in parts),
            parts=tuple(parts),
        )
        played = Counter(JOKER if t.joker else t.letter for m in chosen.moves for t in m.played)
        if before - played != self.stock():
            raise GameError(f"round {setup.round}: the stock does not add up after {chosen.text()}")
        self.logs.append(log)
        return log

    def _keep_all(self) -> None:
        self.kept = [tuple(g) for g in self._current().groups] + [()] * (2 - len(self._current().groups))


def _check(board: Board, move: Move, group: Sequence[str], variant: Variant, pack: RulePack,
           lexicon: Any) -> Candidate | str:
    placed = place_move(board, move, pack)
    if not isinstance(placed, Placement):
        return f"{move}: {placed}"
    for word in placed.words:
        if word.text not in lexicon:
            return f"{move}: the word {word.text} is not in the word list"
    use = use_rack(variant, group, {}, (t for _, _, t in placed.new_tiles))
    if not isinstance(use, RackUse):
        return f"{move}: {use}"
    return Candidate(placed, use)


def parse_tactic_continuation(text: str, board: Board, groups: Sequence[Sequence[str]], variant: Variant,
                              pack: RulePack, lexicon: Any) -> TacticTop:
    """The arbiter's continuation of a tactic round, `H4 MODEL; 8D CASA` (the moves in the order
    played; one move when only one is played, D 8.6): each move must be legal on the board the
    move before it leaves, in the word list, with a group of its own (either order is tried)."""
    moves = [part.split() for part in text.split(";") if part.strip()]
    if not 1 <= len(moves) <= len(groups) or any(len(m) != 2 for m in moves):
        raise NotationError(f"continuation {text!r}: expected 'H4 MODEL; 8D CASA' (one move per group)")
    parsed = [Move(parse_frs(pos), pack.tiles.parse_word(word)) for pos, word in moves]
    orders = [(0, 1), (1, 0)] if len(groups) == 2 else [(0,)]
    problems: list[tuple[int, str]] = []  # (moves placed before it, the problem): the order that got furthest
    for order in orders:
        work = board.copy()
        placed: list[Candidate] = []
        for move, index in zip(parsed, order):
            cand = _check(work, move, groups[index], variant, pack, lexicon)
            if isinstance(cand, str):
                problems.append((len(placed), cand))
                break
            apply_placement(work, cand.placement)
            placed.append(cand)
        else:
            return TacticTop(placed[0], placed[1] if len(placed) > 1 else None, order[0])
    raise GameError(f"continuation {text!r}: {max(problems, key=lambda p: p[0])[1]}")


def master_for(pack: RulePack, lexicon: Any, variant: str, rng: random.Random | None = None,
               seed: int | None = None) -> GameMaster | TacticGameMaster:
    """The game master a variant needs: tactic's for two groups a round, else the one-group one."""
    rules = load_duplicate_rules(pack)
    if rules.variant(variant).groups == 2:
        return TacticGameMaster(pack, lexicon, rng, rules, seed, variant)
    return GameMaster(pack, lexicon, variant, rng, rules=rules, seed=seed)
