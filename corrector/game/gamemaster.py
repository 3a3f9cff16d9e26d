"""The duplicate game master: draws each round's group, finds the tops, plays the continuation,
and keeps the game log (RULES.md §5–6; D 5.3.1, 5.3.2, 5.3.7, 5.3.8, D 8).

Use, round by round (the duplicate correction drives it this way)::

    gm = GameMaster(pack, lexicon, "classic", random.Random(seed))
    while (setup := gm.next_round()) is not None:   # D 5.3.1-5.3.2; None once D 5.3.8 ends it
        tops = gm.tops()                              # every top, the continuation first
        log = gm.play_continuation("top")             # or the arbiter's "H4 MODEL"
    game = gm.game_log()

or `GameMaster(...).run()` for a whole game by tops. The same generator seed gives the same game.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

from corrector.game.announcement import draw_text, top_flags
from corrector.game.bag import Bag, Draw, draw_group, group_label, sort_letters, stock_can_continue
from corrector.board import Board
from corrector.game.continuation import Candidate, TopFunction, find_tops, rank_tops
from corrector.errors import GameError
from corrector.placement import Move, Placement, apply_placement, place_move
from corrector.rulepack import RulePack
from corrector.tiles import JOKER
from corrector.game.variants import DuplicateRules, RackUse, Variant, load_duplicate_rules, use_rack


@dataclass(frozen=True)
class RoundSetup:
    """A round ready to play: its number, the draw (kept + new letters, groups given up) and the
    stock a player may choose from (completiv, super joker, metagramă)."""

    round: int
    draw: Draw
    label: str
    stock: dict[str, int]
    announcement: tuple[str, ...]

    @property
    def group(self) -> tuple[str, ...]:
        return self.draw.group


@dataclass(frozen=True)
class RoundLog:
    """One line of the game log (JSON keys are these field names)."""

    round: int
    group: str                      # `AEI+RSTU`: kept letters + drawn letters (D 5.3.2)
    rejected: tuple[str, ...]       # groups given up, `label: reason` (D 5.3.2)
    position: str                   # FRS, `H4` across / `8D` down
    word: str                       # whole main word, jokers lowercase
    score: int
    cumulative: int
    top_score: int
    is_top: bool
    tops: int                       # deposits reaching the top score
    flags: tuple[str, ...]          # D 5.3.7 announcements
    equal_tops: tuple[str, ...]     # the other tops, `POS WORD` (announced at the end, D 5.3.8)
    from_stock: str                 # letters chosen from the stock (completiv, super joker, metagramă)
    given_up: str                   # letters swapped back into the stock (metagramă)
    leave: str                      # letters kept for the next round
    bingo: bool
    parts: tuple["MovePart", ...] = ()  # tactic (D 8.6): the two moves, in the order played

    def to_json(self) -> dict[str, Any]:
        out = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}
        if not self.parts:
            del out["parts"]
        return out


@dataclass(frozen=True)
class MovePart:
    """One move of a tactic round (D 8.6): which group (0 = the first drawn), its label, the move,
    its score and the letters that group keeps."""

    group_index: int
    group: str
    position: str
    word: str
    score: int
    leave: str
    bingo: bool


@dataclass(frozen=True)
class GameLog:
    """A whole game: the rounds, the total of the tops, why it ended, and the tile check."""

    variant: str
    rules: str
    lexicon: str
    rounds: tuple[RoundLog, ...]
    total: int
    end_reason: str
    stock_left: str
    tiles_conserved: bool
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if k != "rounds"}
        out["rounds"] = [r.to_json() for r in self.rounds]
        return out


END_STOCK = "stock"            # D 5.3.8: bag + group lack a vowel or a consonant
END_NO_MOVE = "no_move"        # no legal move with the group: nothing can continue the game


def default_top_function() -> TopFunction:
    """`corrector.words.movegen.top_moves`, imported when first needed."""
    from corrector.words.movegen import top_moves

    return top_moves


class MasterState:
    """What every game master shares: the board, the bag, the round counter, the log, how the
    game ends (D 5.3.8) and the tile check. Subclasses say what `stock()` holds."""

    def _start(self, pack: RulePack, lexicon: Any, rules: DuplicateRules, rng: random.Random | None,
               seed: int | None) -> None:
        self.pack = pack
        self.lexicon = lexicon
        self.rules = rules
        self.seed = seed
        self.rng = rng if rng is not None else random.Random(seed)
        self.board = Board()
        self.bag = Bag.full(pack.tiles)
        self.round = 0
        self.cumulative = 0
        self.logs: list[RoundLog] = []
        self.end_reason: str | None = None

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    def stock(self) -> Counter[str]:
        raise NotImplementedError

    def tiles_conserved(self) -> bool:
        """Board + bag + group(s) hold exactly the tile set (100 tiles for Romanian)."""
        return self.board.tile_counts() + self.stock() == Bag.full(self.pack.tiles).counts()

    def _can_go_on(self) -> bool:
        """D 5.3.8 before a draw: False (and the game ended) when the stock cannot give a group."""
        if self._setup is not None:
            raise GameError(f"round {self.round} has no continuation yet")
        if self.over:
            return False
        end = self.rules.end
        if not stock_can_continue(self.stock().elements(), self.pack.tiles, end.min_vowels, end.min_consonants):
            self.end_reason = END_STOCK
            return False
        self.round += 1
        return True

    def _chosen(self, setup, tops: list, move):
        """The continuation asked for: "top" is the D 5.3.7 choice (the first top), a text is the
        arbiter's move in the variant's own notation, anything else is taken as it is."""
        if isinstance(move, str) and move.strip().lower() == "top":
            if not tops:
                raise GameError(f"round {setup.round}: no legal move with {setup.label}")
            return tops[0]
        return self.parse_continuation(move) if isinstance(move, str) else move

    def _current(self):
        if self._setup is None:
            raise GameError("no round in progress: call next_round() first")
        return self._setup

    def play_round(self) -> RoundLog | None:
        """Draw, then play the top; None when the game is over (D 5.3.8, or no legal move)."""
        if self.next_round() is None:
            return None
        if not self.tops():
            self.end_reason = END_NO_MOVE
            self._keep_all()  # the letters stay in the stock
            self._setup = None
            return None
        return self.play_continuation("top")

    def run(self) -> GameLog:
        """Play the whole game by tops."""
        while self.play_round() is not None:
            pass
        return self.game_log()

    def game_log(self) -> GameLog:
        stock = sort_letters(self.stock().elements(), self.pack.tiles)
        info = getattr(self.lexicon, "info", None)
        return GameLog(
            variant=self.variant.name,
            rules=self.pack.name,
            lexicon=getattr(info, "label", type(self.lexicon).__name__),
            rounds=tuple(self.logs),
            total=self.cumulative,
            end_reason=self.end_reason or "in_progress",
            stock_left="".join(stock),
            tiles_conserved=self.tiles_conserved(),
            seed=self.seed,
        )


class GameMaster(MasterState):
    """Runs one duplicate game. `rng` makes the draws (never the global generator; built from
    `seed` when not given; `seed` is also recorded in the log); `top_fn` is
    `corrector.words.movegen.top_moves` unless another is given."""

    def __init__(self, pack: RulePack, lexicon: Any, variant: str | Variant = "classic",
                 rng: random.Random | None = None, top_fn: TopFunction | None = None,
                 rules: DuplicateRules | None = None, seed: int | None = None) -> None:
        self._start(pack, lexicon, rules or load_duplicate_rules(pack), rng, seed)
        self.variant = variant if isinstance(variant, Variant) else self.rules.variant(variant)
        if self.variant.groups != 1:
            raise GameError(f"variant {self.variant.name} ({self.variant.article}): two groups a round; "
                            "use corrector.game.tacticmaster.TacticGameMaster (or master_for)")
        self.top_fn = top_fn or default_top_function()
        self.kept: tuple[str, ...] = ()
        self._setup: RoundSetup | None = None
        self._tops: list[Candidate] | None = None

    # --- state ------------------------------------------------------------------------------

    def stock(self) -> Counter[str]:
        """Every letter not on the board: bag + group (or the kept letters between rounds)."""
        held = self._setup.group if self._setup else self.kept
        return self.bag.counts() + Counter(held)

    # --- a round ----------------------------------------------------------------------------

    def next_round(self) -> RoundSetup | None:
        """Draw the next group (D 5.3.1-5.3.2), or end the game and return None (D 5.3.8)."""
        if not self._can_go_on():
            return None
        size = max(self.variant.drawn, len(self.kept))
        judge = self.variant.draw_rule_for(self.round, self.rules.draw).judge(self.pack.tiles, size)
        draw = draw_group(self.bag, self.kept, size, judge, self.rng, self.rules.draw.max_redraws)
        self.kept = ()
        self._setup = RoundSetup(
            round=self.round,
            draw=draw,
            label=group_label(draw.kept, draw.drawn, self.pack.tiles),
            stock=dict(self.bag.counts()),
            announcement=tuple(draw_text(self.round, draw, self.pack.tiles, self.rules.letter_names)),
        )
        self._tops = None
        return self._setup

    def tops(self) -> list[Candidate]:
        """Every top of the current round (one per deposit), the continuation first (D 5.3.7)."""
        setup = self._current()
        if self._tops is None:
            found = find_tops(self.board, setup.group, setup.stock, self.variant, self.pack, self.lexicon, self.top_fn)
            self._tops = rank_tops(found, self.stock(), self.pack, self.rules.continuation, self.rules.end)
        return self._tops

    def parse_continuation(self, text: str) -> Move:
        """`H4 MODEL` (FRS position, whole main word, lowercase = joker) into a Move."""
        return Move.parse(text, self.pack)

    def play_continuation(self, move: Move | Candidate | str = "top") -> RoundLog:
        """Play the continuation: "top" (the D 5.3.7 choice), the arbiter's `H4 MODEL`, a Move or
        a Candidate. It must be legal (board, word list, group); it need not be a top."""
        setup = self._current()
        tops = self.tops()
        move = self._chosen(setup, tops, move)
        if isinstance(move, Candidate):
            placement, use = move.placement, move.use
        else:
            placement, use = self._check(move)
        return self._apply(setup, tops, placement, use)

    def _check(self, move: Move) -> tuple[Placement, RackUse]:
        placed = place_move(self.board, move, self.pack)
        if not isinstance(placed, Placement):
            raise GameError(f"continuation {move}: {placed}")
        for word in placed.words:
            if word.text not in self.lexicon:
                raise GameError(f"continuation {move}: the word {word.text} is not in the word list")
        use = use_rack(self.variant, self._current().group, self._current().stock, (t for _, _, t in placed.new_tiles))
        if not isinstance(use, RackUse):
            raise GameError(f"continuation {move}: {use}")
        return placed, use

    def _apply(self, setup: RoundSetup, tops: list[Candidate], placement: Placement, use: RackUse) -> RoundLog:
        stock_before = self.stock()
        apply_placement(self.board, placement)
        self.bag.take(use.from_stock)
        self.bag.put_back(use.given_up)
        self.kept = use.leave
        self._setup = None
        self.cumulative += placement.score
        top_score = tops[0].score if tops else 0
        retained = next((c for c in tops if c.deposit == frozenset(placement.new_tiles)), None)
        flags = top_flags(retained, tops, self.rules.letter_names) if retained else []
        others = [c for c in tops if retained is None or c.deposit != retained.deposit]
        log = RoundLog(
            round=setup.round,
            group=setup.label,
            rejected=tuple(f"{group_label(r.kept, r.drawn, self.pack.tiles)}: {r.problem.message('ro')}"
                           for r in setup.draw.rejected),
            position=placement.move.position.frs(),
            word=placement.move.word,
            score=placement.score,
            cumulative=self.cumulative,
            top_score=top_score,
            is_top=retained is not None,
            tops=len(tops),
            flags=tuple(a.text for a in flags),
            equal_tops=tuple(f"{c.move.position.frs()} {c.move.word}" for c in others),
            from_stock="".join(sort_letters(use.from_stock, self.pack.tiles)),
            given_up="".join(sort_letters(use.given_up, self.pack.tiles)),
            leave="".join(sort_letters(use.leave, self.pack.tiles)),
            bingo=placement.bingo,
        )
        if stock_before - Counter(placement_keys(placement)) != self.stock():
            raise GameError(f"round {setup.round}: the stock does not add up after {placement.move}")
        self.logs.append(log)
        return log

    def _keep_all(self) -> None:
        self.kept = self._current().group


def placement_keys(placement: Placement) -> list[str]:
    """The group letters a placement consumes ('?' for a joker)."""
    return [JOKER if t.joker else t.letter for _, _, t in placement.new_tiles]
