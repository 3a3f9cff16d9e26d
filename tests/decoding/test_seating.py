"""One slip a table across a round's pile (RULES.md §2), on table posteriors alone: the exact
assignment marginals of `corrector.decoding.seating`, checked against brute force."""
from __future__ import annotations

import itertools
import random

import pytest

from corrector.decoding import seating
from corrector.decoding.seating import seat_pile

SECOND = 1e-3  # the chance that a slip is a second one for its table (priors.json table.second)


def brute_force(rows, taken, second):
    """Every assignment of every slip, weighed, summed: what `seat_pile` must equal."""
    choices = []
    for row in rows:
        opts = [(t, p, True) for t, p in row.items() if t is None or t not in taken]
        named, share = max(row.items(), key=lambda kv: kv[1])
        if named is not None and named not in taken:
            opts.append((named, second * share, False))
        choices.append(opts)
    sums = [dict() for _ in rows]
    total = 0.0
    for pick in itertools.product(*choices):
        seats = [t for t, _, seat in pick if seat and t is not None]
        if len(seats) != len(set(seats)):
            continue
        weight = 1.0
        for _, p, _ in pick:
            weight *= p
        total += weight
        for i, (t, _, _) in enumerate(pick):
            sums[i][t] = sums[i].get(t, 0.0) + weight
    return [{t: w / total for t, w in s.items()} for s in sums]


def random_pile(rng: random.Random, slips: int, tables: int) -> list[dict]:
    rows = []
    for _ in range(slips):
        allowed = rng.sample(range(1, tables + 1), rng.randint(1, 3))
        weights = [rng.random() ** 3 for _ in allowed] + [rng.random() * 0.01]
        total = sum(weights)
        rows.append({**{t: w / total for t, w in zip(allowed, weights)}, None: weights[-1] / total})
    return rows


@pytest.mark.parametrize("seed", range(8))
def test_the_marginals_are_those_of_every_assignment_weighed(seed):
    rng = random.Random(seed)
    rows = random_pile(rng, slips=6, tables=7)
    taken = {rng.randint(1, 7)}
    fitted = seat_pile(rows, taken, SECOND)
    expected = brute_force(rows, taken, SECOND)
    for got, want in zip(fitted, expected):
        for t in set(got) | set(want):
            assert got.get(t, 0.0) == pytest.approx(want.get(t, 0.0), abs=1e-6)


def test_of_two_slips_read_74_the_one_whose_ink_allows_the_free_14_moves_there():
    fourteen_read_74 = {74: 0.94, 14: 0.05, 94: 0.01}
    seventy_four = {74: 0.9999, 14: 0.0001}
    ninety_four = {94: 0.999, 74: 0.001}
    moved, stays, other = seat_pile([fourteen_read_74, seventy_four, ninety_four], set(), SECOND)
    assert moved[14] > 0.95 and stays[74] > 0.99 and other[94] > 0.99


def test_two_slips_sure_of_one_table_both_keep_it_as_a_second_slip_would():
    """Neither ink allows another table: one of them is a second slip for it (the same paper
    scanned twice), not a slip of a table its ink rules out."""
    a, b = seat_pile([{5: 0.9999, 3: 0.0001}, {5: 0.9999, 8: 0.0001}], set(), SECOND)
    assert a[5] > 0.9 and b[5] > 0.9


def test_a_table_filed_by_an_earlier_pile_holds_no_slip_of_this_one():
    (only_filed,), (split,) = seat_pile([{2: 1.0}], {2}, SECOND), seat_pile([{2: 0.5, 3: 0.5}], {2}, SECOND)
    assert only_filed == {}
    assert split == {3: pytest.approx(1.0)}


def test_slips_whose_inks_share_no_table_keep_their_own_posteriors():
    rows = [{1: 0.7, 2: 0.3}, {5: 0.6, 6: 0.4}]
    fitted = seat_pile(rows, set(), SECOND)  # each may also be a second slip for the table its ink names most
    assert fitted[0][1] == pytest.approx((0.7 + SECOND * 0.7) / (1 + SECOND * 0.7), rel=1e-9)
    assert fitted[1][6] == pytest.approx(0.4 / (1 + SECOND * 0.6), rel=1e-9)


def test_a_group_too_entangled_to_enumerate_is_propagated_near_the_exact_sum(monkeypatch):
    """Seen on held-out hands, room of 100, where the whole pile is one group: table 90 read 40
    (a 9 at 0.001), table 40 read 40 (0.84, 90 at 0.08). Every assignment weighed, table 90's slip is
    at 40 with 0.975 in its pile, short of a decision; propagation, which counts the loop 40-90
    twice, must not make it sure."""
    rows = [{40: 0.994, 60: 0.0025, 90: 0.0013, None: 0.0022}, {40: 0.84, 90: 0.078, 20: 0.018, 60: 0.016, None: 0.048},
            {20: 0.999, 40: 0.001}, {60: 0.999, 90: 0.001}]
    exact = seat_pile(rows, set(), SECOND)
    assert 0.9 < exact[0][40] < 0.98 and exact[1][90] > 0.5
    monkeypatch.setattr(seating, "MAX_STEPS", 3)
    entangled = seat_pile(rows, set(), SECOND)
    assert entangled[0][40] == pytest.approx(exact[0][40], abs=0.01) and entangled[0][40] < 0.985
    assert entangled[1][90] == pytest.approx(exact[1][90], abs=0.01)
    assert entangled[2][20] > 0.99 and entangled[3][60] > 0.99


def chain_pile(rng: random.Random, slips: int) -> list[dict]:
    """Slip k torn between tables k and k + 1 (a 1 that may be a 7, down a room): a pile whose
    slips share tables in a line, with no loop."""
    rows = []
    for k in range(1, slips + 1):
        own = 0.5 + 0.5 * rng.random()
        rows.append({k: own * 0.99, k + 1: (1 - own) * 0.99, None: 0.01})
    return rows


@pytest.mark.parametrize("seed", range(4))
def test_propagation_is_the_exact_sum_where_no_slips_form_a_loop(monkeypatch, seed):
    rows = chain_pile(random.Random(seed), slips=7)
    exact = brute_force(rows, set(), SECOND)
    monkeypatch.setattr(seating, "MAX_STEPS", 3)
    propagated = seat_pile(rows, set(), SECOND)
    for got, want in zip(propagated, exact):
        for t in set(got) | set(want):
            assert got.get(t, 0.0) == pytest.approx(want.get(t, 0.0), abs=1e-6)


def test_a_group_too_entangled_to_enumerate_still_uses_the_tables_others_hold(monkeypatch):
    """A slip torn between 59 and 56 while another slip is sure of 56 is at 59, enumerated or not."""
    rows = [{59: 0.97, 56: 0.03}, {56: 0.9999, 59: 0.0001}]
    monkeypatch.setattr(seating, "MAX_STEPS", 1)
    torn, sure = seat_pile(rows, set(), SECOND)
    assert torn[59] > 0.999 and sure[56] > 0.999
