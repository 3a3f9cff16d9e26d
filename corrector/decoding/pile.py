"""A round's pile decoded at once (RULES.md §2: one slip per table and round): each slip against
the round (`SlipDecoder.decode`), then its table weighed against every other slip's
(`seating.seat_pile`), then the slips the seating cannot vouch for held for review."""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from .decoder import Outcome, Reading, SlipDecoder, Verdict
from .seating import seat_pile


def claimed_tables(verdicts: list[Verdict], own: list[dict[int | None, float]] | None = None) -> Counter:
    """How many slips of a pile most likely name each table. A claim counts whether or not its slip
    is decided: a slip in review most likely at table t will be filed there by the arbiter, so a
    slip decided for t alone would be silently doubled. A slip the seating left without a table
    (`own`: each slip's own table posterior) still claims the table its own ink names most, where
    that ink allows few tables (`unseated_claim`): the arbiter files it there."""
    count = Counter(v.best.reading.table for v in verdicts if v.best.reading.table is not None)
    for i, v in enumerate(verdicts):
        if v.best.reading.table is None and own is not None and (t := unseated_claim(own[i])) is not None:
            count[t] += 1
    return count


def unseated_claim(own: Mapping[int | None, float]) -> int | None:
    """The table a slip's own ink names most, when it allows at most FEW_TABLES tables (at least
    CONTESTED each): a slip left without a table by the seating names it all the same. Seen on
    held-out seed 3542 (40 seats): table 22's slip, its second 2 read 9 at 0.98, was seated at 29;
    table 29's own slip, read 29 at 0.77, was left without a table, and table 22's slip was decided
    for table 29, which the arbiter would then file twice."""
    allowed = {t: p for t, p in own.items() if t is not None and p >= CONTESTED}
    if not allowed or len(allowed) > FEW_TABLES:
        return None
    return max(allowed, key=lambda t: allowed[t])


def decode_round(decoder: SlipDecoder, records: list[Mapping[str, Any]],
                 taken: set[int] | None = None) -> list[Verdict]:
    """Every slip of a round pile, then one slip a table (RULES.md §2: one slip per table and
    round). Each slip's table posterior becomes its share of every assignment of the pile's slips
    to tables, no two at one table and none at a table already filed (`taken`), each weighed by
    the inks (`seating.seat_pile`): a table another slip's ink names for sure is not this slip's,
    and of two slips read 74, the one whose ink allows a 14 no other slip can be at is at 14
    (exactly where the pile can be enumerated; by `seating.propagated` elsewhere). A
    slip may also be a second slip for the table its ink names most (`priors.json`
    `table.second`): two slips sure of one table both keep it, and go to review. A slip whose ink
    names mostly a table filed already is never moved off it (the same paper scanned again).
    Last, a slip goes to review when another slip most likely names its table too, decided or in
    review, when its own ink may name a table a colliding slip may be at (`hold_contested`), a
    seated table no slip of the pile names (`hold_unclaimed`), or the table of a slip whose ink may
    name its own (`hold_swappable`): there the seating cannot vouch for it, unless the two slips'
    letters tell their players apart (`writers.py`). A slip the seating
    puts surely at a table its own ink was not sure of is read again in that player's hand
    (`SlipDecoder.in_seated_hand`), and one the seating leaves unsure of its table has its letters
    weighed in the hands of the tables it may be at (`SlipDecoder.told_by_letters`)."""
    verdicts = [decoder.decode(r) for r in records]
    if not verdicts:
        return []
    taken = set(taken or ())
    rows = [v.posterior.tables if v.posterior else {} for v in verdicts]
    seatable = [decoder.seatable_tables(v) for v in verdicts]
    free = len(set(decoder.k.tables) - taken)
    slips = sum(v.posterior is not None for v in verdicts)
    second = float(decoder.p.table.get("second", 0.0)) * empty_table_odds(slips, free, decoder.p.table.get("absent"))
    seated = seat_pile(seatable, taken, second)
    for i, v in enumerate(verdicts):
        if v.posterior is None:
            continue
        ink_table, share = max(rows[i].items(), key=lambda kv: kv[1], default=(None, 0.0))
        if ink_table in taken and share > 0.5:
            continue  # the ink names a table filed already: the same paper again, never moved off it
        v = decoder.in_seated_hand(records[i], v, seated[i])
        if not seated[i]:
            verdicts[i] = _hold(v, "every table this slip may name already has a slip")
            continue
        verdicts[i] = decoder.told_by_letters(records[i], decoder.with_tables(v, seated[i]))
    count = claimed_tables(verdicts, seatable)
    colliding = {i for i, v in enumerate(verdicts) if count[v.best.reading.table] > 1 or v.best.reading.table in taken}
    for i in colliding:
        v = verdicts[i]
        if not v.held:
            verdicts[i] = _hold(v, f"another slip of this round also claims table {v.best.reading.table}")
    unclaimed = set(decoder.k.tables) - set(count) - taken
    held = hold_unclaimed(hold_contested(verdicts, rows, colliding), rows, unclaimed)
    return hold_swappable(held, rows, lambda i, t, u: decoder.writer_log_odds(records[i], held[i], t, u))


def empty_table_odds(slips: int, free: int, absent: float | None) -> float:
    """The odds that a table still without a slip gets none from this pile, at most 1: what a
    slip taken for a second one at another table costs, for the table it leaves empty.

    A full pile (as many slips as tables still to file) leaves a table empty only when its player
    handed in nothing (`priors.json` `table.absent`). Without this, a slip whose 4 was read 9 at
    0.88 (table 43 read 93) weighed a second slip at 93 against table 43, which no other slip may
    be at, as if table 43 were as likely empty as filled, and went to review 0.97 sure of 43. A
    pile scanned in parts (fewer slips than tables left) leaves tables empty for now: there the
    odds are those of the share it leaves, and no more than even, as before `absent` was known."""
    if absent is None or free <= 0:
        return 1.0
    share = max(float(absent), 1.0 - slips / free)
    return min(1.0, share / (1.0 - share)) if share < 1.0 else 1.0


# A table at least this share of a slip's own ink names may be the one it belongs to. Seen on
# held-out hands in a room of 100: table 99 read 79 (its 9 read 7, 9 at 0.02) collided with table
# 79's own slip, while table 29 read 99 (2 at 0.007) was decided for 99, which no other slip claimed.
CONTESTED = 0.005
# Two slips may carry each other's tables (`hold_swappable`) when each ink names the other's table
# (at least SWAP_EDGE: below it a table gets only the share every table gets from an ink sure of
# another) and the two give the swap at least SWAP_ODDS against the tables they are seated at
# (`swap_odds`). The real swaps seen on held-out hands had odds of 8.3e-4 (24/29, seed 3524),
# 1.0e-3 (1/2, seed 3526) and 1.4e-2 (40/90, seed 3504); SWAP_ODDS is a third of the smallest, set
# by hand. Over the 367 pairs the rule before held on the blank piles of seeds 3533-3535 (all seen),
# the inks' odds foretold 4.1 swaps, and 2 of the pairs were real swaps: the inks are not surer of
# their tables than they should be, so a pair let go under SWAP_ODDS is a swap less than once in 3,000.
SWAP_EDGE = 0.001
SWAP_ODDS = 3e-4
# A slip whose ink allows more tables than this (its table box empty or unreadable) is filed by the
# player's name, not by its ink: it holds back no table, and is checked against the tables at filing.
FEW_TABLES = 3


def hold_contested(verdicts: list[Verdict], own: list[dict[int | None, float]], colliding: set[int]) -> list[Verdict]:
    """Send to review each slip decided for a table a colliding slip may be at, when its own ink
    may be another table's too (RULES.md §2: one slip per table and round).

    Two slips naming one table say that one of them is misread, so the tables either one's ink
    allows (`own`: each slip's own table posterior; at least CONTESTED, no more than FEW_TABLES
    tables so) are open again: the arbiter may file one of them there. A slip decided there whose
    ink is sure of its table keeps it (both would have to be misread); one whose ink leaves another
    table at least CONTESTED goes to review, for had it been decided, its table would get two slips
    and another player none."""
    open_tables: set[int] = set()
    for i in colliding:
        allowed = [t for t, p in own[i].items() if t is not None and p >= CONTESTED]
        if len(allowed) <= FEW_TABLES:
            open_tables.update(allowed)
    out = list(verdicts)
    for i, v in enumerate(verdicts):
        t = v.best.reading.table
        if not v.held and t in open_tables and own[i].get(t, 0.0) <= 1 - CONTESTED:
            out[i] = _hold(v, f"a slip in review may be table {t}'s")
    return out


def _hold(v: Verdict, why: str) -> Verdict:
    """The verdict sent to review for `why`, however sure it is; a slip already short of the
    threshold keeps that doubt on screen."""
    return replace(v, decided=False, held=why, doubt=why if v.decided else v.doubt)


def hold_unclaimed(verdicts: list[Verdict], own: list[dict[int | None, float]], unclaimed: set[int]) -> list[Verdict]:
    """Send to review each slip decided for its table when its own ink may name a seated table that
    no slip of the pile names (RULES.md §2: one slip per table and round).

    That table's slip is missing, or without a table, or misread: the seating cannot tell this slip
    from its neighbour's, only the ink can, so a decision needs the ink sure of its table."""
    out = list(verdicts)
    for i, v in enumerate(verdicts):
        maybe = [] if v.held else sorted(u for u in unclaimed if own[i].get(u, 0.0) >= CONTESTED)
        if maybe:
            out[i] = _hold(v, f"table {maybe[0]} has no slip and this one may be its")
    return out


def hold_swappable(verdicts: list[Verdict], own: list[dict[int | None, float]],
                   writer: Callable[[int, int, int], float] | None = None) -> list[Verdict]:
    """Send to review each slip seated at table t whose ink may name the table u of another slip
    whose ink may name t (`own`: each slip's own table posterior; each at least SWAP_EDGE), when
    the two inks give the swap odds of at least SWAP_ODDS (`swap_odds`). The two may be swapped, each player credited with the
    other's move (RULES.md §2). A slip in review counts, as it will be filed at the table it names.

    No slip collides and no table is left without a slip, so the seating has nothing to weigh but
    the two inks: a digit the reader misreads the same way on both slips (a 4 read 9 on table 24,
    a 9 read 4 on table 29, both 95 % sure on a hand never seen), or one slip torn between two
    tables settled by another slip misread for sure (table 1's read 2, 1 at 0.18; table 2's read
    1, 2 at 0.0047), swaps two players' moves. Odds, not each ink's share alone: a 7 read at 0.87
    leaves 0.13 to a 1 (the reader's confusions, `confusion.json`), so table 78's slip may be 18's,
    but when table 18's ink gives 78 only 0.0015 the swap needs both misread, about 1 in 4,600.

    Two decided slips that may be swapped but say the same (the same move, score and ruling, in
    the same round) are decided all the same: swapped or not, each of the two tables is filed and
    ruled alike, as an arbiter holding both papers would file them. Each keeps the other's table in
    `Verdict.twins`, for the audit, and teaches no player's hand (`Hands.learn`). A slip that may
    be swapped with a slip in review, or with one that says otherwise, goes to review, and so do
    the slips that may be swapped with it.

    `writer(i, t, u)`: the log of how much likelier slip i's letters are in table t's player's
    hand than in u's (`SlipDecoder.writer_log_odds`). The two slips' letters weigh on the swap as
    the table boxes do: a pair whose swap odds, the letters' odds against it taken in, fall under
    SWAP_ODDS is no pair, and each slip keeps the other's table in `Verdict.told_apart`, for the
    audit."""
    claims = {v.best.reading.table: j for j, v in enumerate(verdicts) if v.best.reading.table is not None}
    partners: dict[int, list[tuple[int, int]]] = {}
    told_apart: dict[int, list[int]] = {}
    for i, v in enumerate(verdicts):
        t = v.best.reading.table
        if v.held or t is None:
            continue
        for u in own[i]:
            j = claims.get(u)
            if j is None or j == i or u == t:
                continue
            odds = swap_odds(own[i], own[j], t, u) if min(own[i][u], own[j].get(t, 0.0)) >= SWAP_EDGE else 0.0
            if odds < SWAP_ODDS:
                continue
            letters = writer(i, t, u) + writer(j, u, t) if writer is not None else 0.0
            if odds * math.exp(-letters) < SWAP_ODDS:
                told_apart.setdefault(i, []).append(u)
            else:
                partners.setdefault(i, []).append((u, j))
    held = {i for i, pairs in partners.items()
            if not verdicts[i].decided or any(not _says_the_same(verdicts[i], verdicts[j]) for _, j in pairs)}
    while True:
        more = {i for i, pairs in partners.items() if i not in held and any(j in held for _, j in pairs)}
        if not more:
            break
        held |= more
    out = [replace(v, told_apart=tuple(sorted(told_apart[i]))) if i in told_apart else v
           for i, v in enumerate(verdicts)]
    for i, pairs in partners.items():
        if i in held:
            u = next((u for u, j in pairs if j in held or not _says_the_same(verdicts[i], verdicts[j])), pairs[0][0])
            out[i] = _hold(out[i], f"this slip and table {u}'s may have each other's table numbers")
        else:
            out[i] = replace(out[i], twins=tuple(sorted(u for u, _ in pairs)))
    return out


def swap_odds(first: Mapping[int | None, float], second: Mapping[int | None, float], t: int, u: int) -> float:
    """The odds that a slip seated at t and a slip seated at u carry each other's tables, against
    the seating as it stands, from their inks alone (`first`, `second`: their table posteriors)."""
    seated = first.get(t, 0.0) * second.get(u, 0.0)
    swapped = first.get(u, 0.0) * second.get(t, 0.0)
    return swapped / seated if seated > 0 else (1.0 if swapped > 0 else 0.0)


def _says_the_same(a: Verdict, b: Verdict) -> bool:
    """Whether two decided slips would be filed alike at either table (`filing`). The round's board
    and group are everyone's (only classic duplicate is decoded), so the ruling does not depend on
    the table."""
    if not (a.decided and b.decided) or a.held or b.held:
        return False
    return filing(a.best.reading, a.best.outcome, a.best.round_state) == filing(b.best.reading, b.best.outcome,
                                                                                 b.best.round_state)


def filing(reading: Reading, outcome: Outcome, round_state: str) -> tuple:
    """What a table is filed with, whichever slip it is: the move, jokers and declared score, the
    ruling and the round state (its table and round number aside)."""
    return reading.position, reading.word, reading.jokers, reading.score, outcome, round_state
