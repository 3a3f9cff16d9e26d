"""What the variants of A 8 change (RULES.md §7): the letters a move may use (avocalic: the
announced consonants completed with vowels from the player's own stock, A 8.1), the bingo every
round (A 8.2, A 8.3, "PAS"), and the ranking (A 8.2: reverse drop-out order with sanctions in
ranking points; the others: total descending, A 6.6)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from corrector.judging.group import Group
from corrector.placement import Placement
from corrector.judging.ranking import rank_totals, shared_places
from corrector.reasons import Reason, Violation
from corrector.rulepack import RulePack
from corrector.judging.sanctions import top_deduction
from corrector.tiles import JOKER
from corrector.game.variants import Variant as RackRule, load_duplicate_rules
from corrector.anticipation.game import Variant
from corrector.anticipation.groups import FIRST_SIZE, GROUP_SIZE, GroupSet
from corrector.anticipation.outcome import PlayerResult

PASS_WORD = "PAS"  # A 8.3: written in DEPUNERE when the player does not bingo


def vowel_stock(groups: GroupSet, pack: RulePack) -> Counter[str]:
    """A 8.1: every vowel drawn (the arbiter announces only consonants); each player takes
    from an own copy, and vowels used are gone even if the move is later cancelled."""
    return Counter(x for g in groups.groups for x in g if x != JOKER and pack.tiles.is_vowel(x))


def move_group(variant: Variant, letters: Sequence[str], number: int, stock: Counter[str], pack: RulePack) -> Group:
    """The judge's `Group` for one move: the group's letters, or in avocalic its consonants
    (and jokers) plus up to the group's size in vowels chosen from the player's stock."""
    size = FIRST_SIZE if number == 1 else GROUP_SIZE
    if variant is not Variant.AVOCALIC:
        return Group(_rack_rule(variant, pack, len(letters), 0, size), tuple(letters))
    announced = tuple(x for x in letters if x == JOKER or not pack.tiles.is_vowel(x))
    stock_items = tuple(sorted((k, v) for k, v in stock.items() if v > 0))
    return Group(_rack_rule(variant, pack, len(announced), size - len(announced), size), announced, stock_items)


def _rack_rule(variant: Variant, pack: RulePack, drawn: int, chosen: int, size: int) -> RackRule:
    """The judge's rack rule (`variants.use_rack`) for one anticipation move: the pack's classic
    duplicate rule (letters from the group only, no swaps) with `chosen` letters from the stock
    and at most the group's `size` tiles placed."""
    classic = load_duplicate_rules(pack).variant("classic")
    return replace(classic, name=variant.key, article=variant.article, drawn=drawn, chosen=chosen,
                   use_max=size, swaps=0)


def take_vowels(group: Group, placement: Placement, stock: Counter[str]) -> None:
    """Remove from the player's stock the vowels a legal avocalic move took (A 8.1)."""
    used = Counter(JOKER if t.joker else t.letter for _, _, t in placement.new_tiles)
    stock.subtract(used - Counter(group.drawn))


def is_pass(word: str | None, variant: Variant) -> bool:
    return variant is Variant.SCRABBLE_TOTAL and (word or "").strip().upper() == PASS_WORD


def bingo_violation(variant: Variant, number: int, placement: Placement) -> Violation | None:
    """A 8.2, A 8.3: every move from a 7-letter group places all 7 letters."""
    if variant.bingo_only and number != 1 and not placement.bingo:
        return Violation(Reason.NOT_A_BINGO, f"{len(placement.new_tiles)}/{GROUP_SIZE}")
    return None


def rank_players(variant: Variant, players: Sequence[PlayerResult], rounds: int) -> None:
    """Set `rank` (and, in endurance, `ranking_points`); eliminated players are not ranked (A 6.4)."""
    ranked = [p for p in players if not p.eliminated]
    if variant is Variant.SCRABBLE_ENDURANCE:
        points = {p.table: endurance_points(p, rounds) for p in ranked}
        for p in ranked:
            p.ranking_points = points[p.table]
        places = shared_places(points, lambda table: (-points[table],))
    else:
        places = rank_totals({p.table: p.total for p in ranked})
    for p in players:
        p.rank = places.get(p.table)


def endurance_points(player: PlayerResult, rounds: int) -> int:
    """A 8.2: ranking by reverse drop-out order: the rounds survived, less the sanctions counted
    in ranking points as in the top ranking of RULES.md §6 (4 warnings = −1, 7 = −2, …; −1 per
    technical penalty; −1 for a disciplinary warning). **Decision**, documented in docs/anticipation.md."""
    survived = rounds if player.dropped_out_in is None else player.dropped_out_in - 1
    penalties = sum(1 for m in player.moves if m.decision.penalty is not None)
    disciplinary = len(player.disciplinary.rounds) if player.disciplinary else 0
    return survived - top_deduction(len(player.warning_charges), penalties, disciplinary)
