"""One player's anticipation game, replayed on the player's own board (RULES.md §7, A 5.3, A 6).

Each round: the "Verificare" answer first, then the "Anulez turul X" of the slip, then its moves,
each judged by the duplicate judge's §3 logic (`decision.decide_move`: written position, inverted
signs, one wrong sign, joker search) on this player's board and group, with the anticipation
differences: inversion is always a penalty (A 6.3.a), no ≤5-points warning exemption (A 6.2),
one warning per slip over both moves and the round total, and the A 6.3 cap computed at the end
(`penalty.apply_penalty_caps`), once every later move and cancellation is known."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from corrector.board import Board
from corrector.judging.decision import _WARNING_ORDER, Decision, RoundContext, apply_warnings, decide_move, incorrect
from corrector.placement import Placement, apply_placement, place_move
from corrector.reasons import Reason, Violation
from corrector.rulepack import RulePack
from corrector.judging.rulings import WarningKind
from corrector.judging.sanctions import charge_warnings, disciplinary
from corrector.judging.slip import Slip, WrittenMove
from corrector.anticipation.cancellation import board_of, cancel_round
from corrector.anticipation.game import AnticipationGame, AnticipationSlip, Player, Variant
from corrector.anticipation.groups import GroupSet
from corrector.anticipation.outcome import MoveRuling, PlayerResult, RoundRuling, RoundStatus
from corrector.anticipation.penalty import apply_penalty_caps
from corrector.anticipation.variants import bingo_violation, is_pass, move_group, take_vowels, vowel_stock
from corrector.anticipation.verification import answer_verification

_GROUP_REASONS = (Reason.LETTERS_NOT_IN_GROUP, Reason.TOO_MANY_TILES)
_SLIP_LEVEL = (WarningKind.BACK_DETAILS, WarningKind.TABLE_OR_ROUND_MISSING)


def anticipation_pack(pack: RulePack) -> RulePack:
    """A 6.3.a: inverted signs are a technical penalty in every anticipation game."""
    return pack.with_policies(inverted_signs_senior="penalty")


@dataclass
class _PlayerState:
    """What the replay carries from round to round for one player."""

    game: AnticipationGame
    pack: RulePack
    groups: GroupSet
    moves: list[MoveRuling]
    stock: Counter[str]


def _plan(slip: Slip, numbers: tuple[int, ...]) -> list[tuple[WrittenMove, tuple[int, ...]]]:
    """Which group(s) each written move may come from (A 5.3): in round 1 two moves are the
    2-letter group then the 7-letter group; one move may be either (the 7-letter group is tried
    first). Later rounds: the announced group; a second move is refused."""
    moves = list(slip.moves)
    if len(numbers) == 2:
        if len(moves) >= 2:
            return [(moves[0], (1,)), (moves[1], (numbers[1],))]
        return [(moves[0], (numbers[1], 1))] if moves else []
    return [(m, numbers) for m in moves]


def _judge(wm: WrittenMove, candidates: tuple[int, ...], board: Board, slip: Slip,
           state: _PlayerState) -> tuple[Decision, int, RoundContext]:
    """The first legal reading among the candidate groups; if none is legal, the ruling whose
    reason is not about the group's letters (it names the real fault), else the first."""
    tried: list[tuple[Decision, int, RoundContext]] = []
    for number in candidates:
        group = move_group(state.game.variant, state.groups.group(number), number, state.stock, state.pack)
        ctx = RoundContext(state.pack, board, group, state.game.lexicon, youth=False, low_score_exemption=False)
        decision = decide_move(wm, ctx)
        if decision.legal:
            return apply_warnings(decision, slip, wm, ctx), number, ctx
        tried.append((decision, number, ctx))
    for entry in tried:
        if entry[0].violation is None or entry[0].violation.reason not in _GROUP_REASONS:
            return entry
    return tried[0]


def _play_slip(aslip: AnticipationSlip, rnd: int, numbers: tuple[int, ...], state: _PlayerState) -> list[MoveRuling]:
    board = board_of(state.moves)
    out: list[MoveRuling] = []
    for slot, (wm, candidates) in enumerate(_plan(aslip.slip, numbers), start=1):
        if is_pass(wm.word, state.game.variant):
            continue
        if slot > len(numbers):
            decision = incorrect(Violation(Reason.EXTRA_MOVE, f"{slot}"), wm.position or "")
            out.append(MoveRuling(rnd, slot, numbers[-1], decision, None))
            continue
        decision, number, ctx = _judge(wm, candidates, board, aslip.slip, state)
        placement: Placement | None = None
        if decision.legal and decision.move is not None:
            placed = place_move(board, decision.move, state.pack)  # the one scorer, same reading
            assert isinstance(placed, Placement)
            problem = bingo_violation(state.game.variant, number, placed)
            if problem is not None:
                decision = incorrect(problem, decision.written)
            else:
                placement = placed
                apply_placement(board, placed)
                if state.game.variant is Variant.AVOCALIC:
                    take_vowels(ctx.group, placed, state.stock)
        out.append(MoveRuling(rnd, slot, number, decision, placement))
    return out


def _expected_total(moves: Sequence[MoveRuling], aslip: AnticipationSlip) -> int:
    """The round total a player who added up right writes (A 5.3, A 6.2.d: "greșeala de calcul"
    of the total): each legal move's true score, and an incorrect move's score as the slip declares
    it. **Decision:** an incorrect move has no score to miscalculate (A 6.1: it scores 0, and its
    declared score earns no warning, as in duplicate and for a single move); the total is checked
    for the player's own addition only, so it is not warned for the incorrect move a second time."""
    written = aslip.slip.moves
    return sum(m.decision.score if m.decision.legal else (written[m.slot - 1].score or 0)
               if m.slot <= len(written) else 0 for m in moves)


def _slip_warnings(moves: Sequence[MoveRuling], aslip: AnticipationSlip, rnd: int,
                   pack: RulePack) -> tuple[tuple[WarningKind, ...], tuple[WarningKind, ...]]:
    """(counted, waived). A 6.2: one warning per slip — over both moves of round 1 and the round
    total (A 5.3: a wrong or missing total is warning d) — unless the pack's
    `one_warning_per_slip_multi_move` policy is off, when each move and the total count. The
    slip's own warnings (A 6.2.a back of the round-1 slip, A 6.2.b table or round missing) and
    the total (A 6.2.d, A 5.3) are judged on the slip itself, whatever the rulings of its moves:
    a slip whose every move is incorrect still earns them (no ≤5-points exemption, A 6.2)."""
    legal = [m for m in moves if m.decision.legal]
    per_move = [tuple(w for w in (m.decision.warning, *m.decision.waived) if w) for m in legal]
    own = _own_warnings(aslip.slip, rnd)
    total_wrong = bool(moves) and rnd == 1 and aslip.slip.total != _expected_total(moves, aslip)
    found = {w for ws in per_move for w in ws} | set(own) | ({WarningKind.SCORE_WRONG} if total_wrong else set())
    ordered = tuple(w for w in _WARNING_ORDER if w in found)
    if pack.policies.one_warning_per_slip_multi_move:
        return ordered[:1], ordered[1:]
    counted: list[WarningKind] = []
    for m in legal:
        if m.decision.warning and (m.decision.warning not in _SLIP_LEVEL or m.decision.warning not in counted):
            counted.append(m.decision.warning)
    counted += [w for w in own if w not in counted]
    if total_wrong:
        counted.append(WarningKind.SCORE_WRONG)
    return tuple(counted), tuple(w for w in ordered if w not in counted)


def _own_warnings(slip: Slip, rnd: int) -> tuple[WarningKind, ...]:
    """A 6.2.a (name and table on the back of the round-1 slip) and A 6.2.b (table or round
    number missing): faults of the paper, not of a move."""
    own: list[WarningKind] = []
    if rnd == 1 and not slip.back_ok:
        own.append(WarningKind.BACK_DETAILS)
    if not (slip.table_written and slip.round_written):
        own.append(WarningKind.TABLE_OR_ROUND_MISSING)
    return tuple(own)


def replay_player(game: AnticipationGame, player: Player) -> PlayerResult:
    """Correct one player's whole game; totals and rank are read from the result."""
    pack = anticipation_pack(game.pack)
    groups = game.groups_of(player.table)
    slips = game.slips_of(player.table)
    stock = vowel_stock(groups, pack) if game.variant is Variant.AVOCALIC else Counter()
    state = _PlayerState(game, pack, groups, [], stock)
    disc = disciplinary([rnd for table, rnd in game.disciplinary if table == player.table], pack.sanctions,
                        game.cheating.get(player.table))  # D 7.1.3: eliminated at once
    result = PlayerResult(player.table, player.name, [], disciplinary=disc)
    for rnd in range(1, game.rounds + 1):
        numbers = game.round_groups(rnd)
        stopped = result.dropped_out_in is not None or (disc.eliminated_in is not None and rnd > disc.eliminated_in)
        aslip = slips.get(rnd)
        if stopped:
            result.rounds.append(RoundRuling(rnd, numbers, RoundStatus.NOT_CORRECTED))
            continue
        if aslip is None:
            ruling = RoundRuling(rnd, numbers, RoundStatus.MISSING)
        else:
            ruling = _play_round(aslip, rnd, numbers, state)
        if game.variant is Variant.SCRABBLE_ENDURANCE and not any(
                m.placement is not None and m.group != 1 for m in ruling.moves):
            ruling.status = RoundStatus.DROPPED_OUT  # A 8.2: no bingo this round
            result.dropped_out_in = rnd
        result.rounds.append(ruling)
    _apply_appeals(result, game)
    apply_penalty_caps(state.moves, pack.sanctions)
    if game.variant is Variant.AVOCALIC:
        result.vowel_stock_left = {k: v for k, v in sorted(stock.items()) if v > 0}
    result.warning_charges = charge_warnings(
        [(r.round, w) for r in result.rounds for w in r.warnings], pack.sanctions)
    return result


def _apply_appeals(result: PlayerResult, game: AnticipationGame) -> None:
    """A 6.5: contestations upheld on a round's technical warning or technical penalty. The
    warning is no longer counted (it stays listed as waived); the penalty is lifted from the
    round's moves (the A 6.3 cap is computed after). Recorded on the round as `appeals`."""
    for table, rnd, action in game.appeals:
        if table != result.table or not 1 <= rnd <= len(result.rounds):
            continue
        ruling = result.rounds[rnd - 1]
        if action == "cancel_warning":
            ruling.waived, ruling.warnings = ruling.warnings + ruling.waived, ()
        else:
            for m in ruling.moves:
                if m.decision.penalty is not None:
                    m.decision = replace(m.decision, penalty=None, credited=m.decision.score)
        ruling.appeals += (action,)


def _play_round(aslip: AnticipationSlip, rnd: int, numbers: tuple[int, ...], state: _PlayerState) -> RoundRuling:
    game = state.game
    verification = None
    if aslip.verify or aslip.verify_words:  # answered before anything else (A 5.5.h)
        verification = answer_verification(aslip.slip, aslip.verify_words, state.pack, game.lexicon)
    cancellation = None
    if aslip.cancel_round is not None:
        cancellation = cancel_round(state.moves, aslip.cancel_round, rnd, state.pack, game.lexicon)
    moves = _play_slip(aslip, rnd, numbers, state)
    state.moves.extend(moves)
    counted, waived = _slip_warnings(moves, aslip, rnd, state.pack)
    passed = bool(aslip.slip.moves) and all(is_pass(m.word, game.variant) for m in aslip.slip.moves)
    status = RoundStatus.PASSED if passed else RoundStatus.PLAYED
    return RoundRuling(rnd, numbers, status, moves, counted, waived, aslip.slip.total, cancellation, verification)
