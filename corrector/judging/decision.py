"""One decision per slip (RULES.md §3, D 6.1–6.3): the written position, then the inverted signs,
then exactly one wrong sign, else incorrect with the precise reason; then at most one technical
warning, none when the move scores 5 or less, and the technical penalty (−20, never below 0)."""
from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field, replace

from corrector.judging.attempt import Attempt, choose_by_score, try_reading
from corrector.board import Board
from corrector.coords import Position, Signs, SignsMissing, read_signs
from corrector.errors import NotationError
from corrector.judging.group import Group
from corrector.placement import Move
from corrector.reasons import Reason, Violation
from corrector.rulepack import SIZE, RulePack
from corrector.judging.rulings import Flag, PenaltyKind, Status, WarningKind
from corrector.judging.sanctions import penalised
from corrector.judging.slip import Slip, WrittenMove
from corrector.tiles import Tile

# Rulebook article of each reason a move is incorrect (D 6.1 a–d).
_D_ARTICLE = {
    Reason.WORD_NOT_IN_LIST: "D 6.1.a",
    Reason.UNKNOWN_LETTER: "D 6.1.a",
    Reason.BOTH_SIGNS_WRONG: "D 6.1.c",
    Reason.MOVE_FITS_ELSEWHERE: "D 6.1.c",
    Reason.MALFORMED_POSITION: "D 6.1.c",
    Reason.SIGN_MISSING: "D 6.1.d",
    Reason.WORD_MISSING: "D 6.1",
}
# D 6.2 lists the warnings a–e; when a slip earns several, the first in this order is given.
_WARNING_ORDER = (WarningKind.BACK_DETAILS, WarningKind.TABLE_OR_ROUND_MISSING, WarningKind.JOKER_NOT_MARKED,
                  WarningKind.JOKER_MARKED_WITHOUT_JOKER, WarningKind.SCORE_WRONG, WarningKind.INVERTED_SIGNS)


def rulebook_article(reason: Reason) -> str:
    """Any other reason breaks the principles of the game (D 6.1.b)."""
    return _D_ARTICLE.get(reason, "D 6.1.b")


@dataclass(frozen=True)
class RoundContext:
    """What the arbiter knows when correcting a round: board, group, word list, category."""

    pack: RulePack
    board: Board
    group: Group
    lexicon: Container[str]
    youth: bool = False
    low_score_exemption: bool = True  # D 6.2; anticipation has none (A 6.2)


@dataclass(frozen=True)
class Decision:
    """The ruling on one move of a slip. `score` is the move's value, `credited` what the
    player gets for it after a technical penalty (warning costs are counted over the game)."""

    status: Status
    score: int = 0
    credited: int = 0
    move: Move | None = None
    written: str = ""
    warning: WarningKind | None = None
    penalty: PenaltyKind | None = None
    violation: Violation | None = None
    flags: tuple[Flag, ...] = ()
    waived: tuple[WarningKind, ...] = ()
    geometric_score: int | None = None
    notes: tuple[str, ...] = field(default=())
    more_warnings: tuple[WarningKind, ...] = ()   # tactic slips when the one-per-slip cap is off
    parts: tuple["Decision", ...] = ()            # tactic: the two moves of the slip

    @property
    def legal(self) -> bool:
        return self.status in (Status.VALID, Status.PENALISED)

    def all_warnings(self) -> tuple[WarningKind, ...]:
        return ((self.warning,) if self.warning else ()) + self.more_warnings

    def all_penalties(self) -> tuple[PenaltyKind, ...]:
        if self.parts:
            return tuple(p.penalty for p in self.parts if p.penalty)
        return (self.penalty,) if self.penalty else ()

    def articles(self) -> list[str]:
        out = [self.status.cite()]
        for part in self.parts:
            out += [a for a in part.articles() if a not in out]
        if self.violation:
            out.append(f"RULES.md {self.violation.article} / {rulebook_article(self.violation.reason)}")
        out += [kind.cite() for kind in (self.penalty, *self.all_warnings()) if kind]
        return out

    def explain(self, language: str = "en") -> str:
        ro = language == "ro"
        parts: list[str] = [f"{i}) {p.explain(language)}" for i, p in enumerate(self.parts, start=1)]
        if self.parts:
            parts.append(("total " if ro else "total ") + str(self.score))
        elif self.violation:
            parts.append(f"{self.status.message(language)}: {self.violation.message(language)}")
        elif self.move is not None:
            parts.append(f"{self.move} = {self.score} " + ("puncte" if ro else "points"))
            if self.written and self.written != self.move.position.frs():
                parts.append(("scris " if ro else "written ") + self.written)
        else:
            parts.append(self.status.message(language))
        if self.penalty:
            parts.append(f"{self.penalty.message(language)} ({self.penalty.rulebook}): {self.score} − {self.score - self.credited} = {self.credited}")
        for warning in self.all_warnings():
            parts.append(("avertisment" if ro else "warning") + f" {warning.rulebook}: {warning.message(language)}")
        if self.waived:
            names = ", ".join(w.rulebook for w in self.waived)
            parts.append(("avertisment neacordat" if ro else "warning not given") + f" ({names})")
        parts.extend(self.notes)
        return "; ".join(parts)


def incorrect(violation: Violation, written: str = "", geometric_score: int | None = None) -> Decision:
    return Decision(Status.INCORRECT, written=written, violation=violation, geometric_score=geometric_score)


def _read_signs(text: str | None) -> Signs | Violation:
    """The written signs, or the violation when there are none to read: a sign missing (D 6.1.d),
    or no sign on the board at all (D 6.1.c)."""
    signs = read_signs(text or "")
    if signs is SignsMissing.MALFORMED:
        return Violation(Reason.MALFORMED_POSITION, text or "")
    if isinstance(signs, SignsMissing):
        return Violation(Reason.SIGN_MISSING, (text or "").strip() or "—")
    if signs.row is None and signs.col is None:
        return Violation(Reason.MALFORMED_POSITION, text or "")
    return signs


def _one_sign_changed(signs: Signs) -> list[Position]:
    """Keep the direction and one sign, vary the other (RULES.md §3 step 3), in board order."""
    out = set()
    for r in range(SIZE):
        for c in range(SIZE):
            if (r == signs.row) != (c == signs.col):
                out.add(Position(r, c, signs.horizontal))
    return sorted(out)


def _anywhere(board: Board, tiles: tuple[Tile, ...], ctx: RoundContext) -> Position | None:
    """A legal position with both signs different, to name D 6.1.c precisely."""
    for horizontal in (True, False):
        for r in range(SIZE):
            for c in range(SIZE):
                position = Position(r, c, horizontal)
                if try_reading(board, position, tiles, None, ctx.group, ctx.lexicon, ctx.pack).legal:
                    return position
    return None


@dataclass(frozen=True)
class _Found:
    """The reading that gave a legal move, and what it costs (RULES.md §3 steps 1–3)."""

    attempt: Attempt
    penalty: PenaltyKind | None = None
    inverted: bool = False
    flags: tuple[Flag, ...] = ()


def _find_move(wm: WrittenMove, tiles: tuple[Tile, ...], ctx: RoundContext) -> _Found | Decision:
    """Steps 1–4 of RULES.md §3: a legal reading, or the incorrect decision with its reason."""
    written = wm.position or ""
    signs = _read_signs(wm.position)
    if isinstance(signs, Violation):  # a sign missing (D 6.1.d) or no sign readable (D 6.1.c)
        return incorrect(signs, written)

    def attempt(position: Position) -> Attempt:
        return try_reading(ctx.board, position, tiles, wm.score, ctx.group, ctx.lexicon, ctx.pack)

    first: Attempt | None = None
    if signs.row is not None and signs.col is not None:
        position = Position(signs.row, signs.col, signs.horizontal)
        first = attempt(position)
        if first.legal:
            return _Found(first)
        inverted = attempt(position.inverted())
        if inverted.legal:
            return _Found(inverted, PenaltyKind.INVERTED_SIGNS, inverted=True)
    legal = [a for a in map(attempt, _one_sign_changed(signs)) if a.legal]
    if len(legal) == 1:
        return _Found(legal[0], PenaltyKind.ONE_SIGN_WRONG)
    if legal:  # RULES.md §3 step 3 Decision: declared score, else lowest; flag either way
        chosen, how = choose_by_score([(a.score, a) for a in legal], wm.score, ctx.pack.policies.one_wrong_sign_choice)
        assert isinstance(chosen, Attempt)
        return _Found(chosen, PenaltyKind.ONE_SIGN_WRONG, flags=(Flag.SIGN_AMBIGUOUS, how))
    geometric = first.geometric_score if first else None
    if first and first.violation and first.violation.reason is Reason.WORD_NOT_IN_LIST:
        return incorrect(first.violation, written, geometric)
    elsewhere = _anywhere(ctx.board, tiles, ctx)
    if elsewhere is not None:
        return incorrect(Violation(Reason.MOVE_FITS_ELSEWHERE, str(elsewhere)), written, geometric)
    if first and first.violation:
        return incorrect(first.violation, written, geometric)
    return incorrect(Violation(Reason.MALFORMED_POSITION, written), written)


def _parse_tiles(wm: WrittenMove, pack: RulePack) -> tuple[Tile, ...] | Violation:
    if not (wm.word or "").strip():
        return Violation(Reason.WORD_MISSING)
    try:
        return pack.tiles.parse_word(wm.word or "", tuple(wm.jokers))
    except NotationError:
        return Violation(Reason.UNKNOWN_LETTER, (wm.word or "").strip())


def decide_move(wm: WrittenMove, ctx: RoundContext) -> Decision:
    """The move of a slip and its penalty (no slip-level warnings yet): §3 steps 1–4."""
    tiles = _parse_tiles(wm, ctx.pack)
    if isinstance(tiles, Violation):
        return incorrect(tiles, wm.position or "")
    # The main word alone is enough to rule D 6.1.a, whatever the position says.
    main = "".join(t.letter for t in tiles)
    if main not in ctx.lexicon:
        probe = try_reading(ctx.board, _position_or_h8(wm, ctx), tiles, None, ctx.group, _AnyWord(), ctx.pack)
        return incorrect(Violation(Reason.WORD_NOT_IN_LIST, main), wm.position or "", probe.geometric_score)
    found = _find_move(wm, tiles, ctx)
    if isinstance(found, Decision):
        return found
    attempt, penalty, inverted, flags = found.attempt, found.penalty, found.inverted, found.flags
    assert attempt.placement is not None
    score = attempt.placement.score
    if inverted:
        policy = ctx.pack.policies.inverted_signs_youth if ctx.youth else ctx.pack.policies.inverted_signs_senior
        if policy == "warning":  # D 6.2.e: in youth games the inversion is a warning only
            penalty = None
    credited = penalised(score, ctx.pack.sanctions) if penalty else score
    status = Status.PENALISED if penalty else Status.VALID
    warnings = tuple(w for w in (attempt.joker_warning,) if w)
    if inverted and penalty is None:
        warnings += (WarningKind.INVERTED_SIGNS,)
    return Decision(status, score, credited, attempt.placement.move, wm.position or "", warnings[0] if warnings else None,
                    penalty, None, flags + attempt.flags, warnings[1:], attempt.geometric_score)


class _AnyWord:
    """A word list that holds every word: to score an incorrect move as if it were legal (D 5.3.7)."""

    def __contains__(self, word: object) -> bool:
        return True


def _position_or_h8(wm: WrittenMove, ctx: RoundContext) -> Position:
    signs = _read_signs(wm.position)
    if isinstance(signs, Signs) and signs.row is not None and signs.col is not None:
        return Position(signs.row, signs.col, signs.horizontal)
    return Position(*ctx.pack.board.start, True)


def apply_warnings(decision: Decision, slip: Slip, wm: WrittenMove, ctx: RoundContext, declared_checked: bool = True) -> Decision:
    """At most one technical warning per slip, none when the move scores 5 or less (D 6.2);
    a penalised slip can carry one too (D 6.3, last sentence)."""
    if decision.status not in (Status.VALID, Status.PENALISED):
        return decision
    found = set(decision.waived) | ({decision.warning} if decision.warning else set())
    if slip.round == 1 and not slip.back_ok:
        found.add(WarningKind.BACK_DETAILS)
    if not (slip.table_written and slip.round_written):
        found.add(WarningKind.TABLE_OR_ROUND_MISSING)
    if declared_checked and wm.score != decision.score:
        found.add(WarningKind.SCORE_WRONG)
    ordered = [w for w in _WARNING_ORDER if w in found]
    if not ordered:
        return decision
    if ctx.low_score_exemption and decision.score <= ctx.pack.sanctions.warning_exempt_max_score:
        return replace(decision, warning=None, waived=tuple(ordered))
    return replace(decision, warning=ordered[0], waived=tuple(ordered[1:]))


def decide_slip(slip: Slip, ctx: RoundContext) -> Decision:
    """The ruling on a one-move slip (classic and the variants of RULES.md §6 but tactic)."""
    wm = slip.move
    return apply_warnings(decide_move(wm, ctx), slip, wm, ctx)
