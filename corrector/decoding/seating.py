"""Which table each slip of a round's pile is at, all slips at once (RULES.md §2: one slip per
table and round).

Each slip's own ink gives a posterior over the seated tables (and none: unreadable or not seated).
The pile as a whole is an assignment: no two slips at one table, none at a table an earlier pile
filed. A slip's chance of table t is the total weight of the assignments that put it there: a
table another slip's ink names for sure is not this slip's, and when two slips both read 74, the
one whose ink also allows 14 while no other slip can be at 14 is the one that moves.

Slips only interact through tables their inks share, so the pile splits into small groups (two
slips torn between 14 and 74, a third that may be 94) whose assignments are enumerated exactly,
most likely first, leaving out those a billion times less likely than the best found. A group too
entangled to enumerate within `MAX_STEPS` (in a room of 100, where every 7 may be a 1, the whole pile
is one group) gets belief propagation (`propagated`): two slips read 74 both keep 74 only if no
table is free for either, as in the exact sum."""
from __future__ import annotations

import numpy as np

Row = dict["int | None", float]  # table (None: no seated table) -> probability
Options = list[tuple["int | None", float, bool]]  # table, weight, whether the slip takes its seat

EDGE = 1e-7  # a table the slip's own ink gives less than this is not one it may be at
BEAM = 1e-9  # assignments this much less likely than the best found are left out
MAX_STEPS = 200_000  # search steps a group may take before it falls back to belief propagation
# A slip's odds of being at a table, capped: a slip with no other option is there for sure, and a
# cap keeps the others' sum exact to about 1e-10 when it is taken away again.
ODDS_CAP = 1e6


def _options(row: Row, taken: set[int], second: float) -> Options:
    """The tables a slip may be at (none of them filed already), most likely first, each taking
    its seat; and, weighed `second`, the table its ink names most as a second slip there, taking
    no seat (the same paper scanned twice, a player's two slips: the arbiter sorts them out)."""
    opts = [(t, p, True) for t, p in row.items() if p >= EDGE and (t is None or t not in taken)]
    named, share = max(row.items(), key=lambda kv: kv[1], default=(None, 0.0))
    if named is not None and named not in taken and second * share >= EDGE:
        opts.append((named, second * share, False))
    return sorted(opts, key=lambda o: -o[1])


def _groups(options: list[Options]) -> list[list[int]]:
    """Slips linked by a table both may be at (union-find over shared tables)."""
    parent = list(range(len(options)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[int, int] = {}
    for i, opts in enumerate(options):
        for t, _, _ in opts:
            if t is not None:
                parent[root(i)] = root(first.setdefault(t, i))
    groups: dict[int, list[int]] = {}
    for i in range(len(options)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _enumerate(slips: list[int], options: list[Options]) -> list[Row] | None:
    """Exact table marginals of one group's slips (in `slips` order); None past MAX_STEPS."""
    order = sorted(range(len(slips)), key=lambda j: len(options[slips[j]]))
    opts = [options[slips[j]] for j in order]
    bound = [1.0] * (len(opts) + 1)  # the most the remaining slips can multiply a weight by
    for k in range(len(opts) - 1, -1, -1):
        bound[k] = bound[k + 1] * opts[k][0][1]
    sums: list[dict[int | None, float]] = [{} for _ in opts]
    chosen: list[int | None] = [None] * len(opts)
    used: set[int] = set()
    state = {"total": 0.0, "best": 0.0, "steps": 0}

    def visit(k: int, weight: float) -> bool:
        state["steps"] += 1
        if state["steps"] > MAX_STEPS:
            return False
        if k == len(opts):
            state["total"] += weight
            state["best"] = max(state["best"], weight)
            for j, t in enumerate(chosen):
                sums[j][t] = sums[j].get(t, 0.0) + weight
            return True
        for t, p, seat in opts[k]:
            if weight * p * bound[k + 1] < state["best"] * BEAM:
                break  # most likely first: every option left is smaller still
            if seat and t in used:
                continue
            chosen[k] = t
            if seat and t is not None:
                used.add(t)
            ok = visit(k + 1, weight * p)
            if seat:
                used.discard(t)
            if not ok:
                return False
        return True

    if not visit(0, 1.0) or state["total"] <= 0.0:
        return None
    out: list[Row] = [{} for _ in slips]
    for k, j in enumerate(order):
        out[j] = {t: w / state["total"] for t, w in sums[k].items()}
    return out


def propagated(slips: list[int], options: list[Options], rounds: int = 300) -> list[Row]:
    """Table marginals of a group too entangled to enumerate, by belief propagation over its
    assignments (in `slips` order). Each table tells each slip the chance it is free of the others:
    1 / (1 + the others' odds of being there, each without that table); each slip tells each table
    its odds of being there against its other options, each weighed by what its table said. A
    second slip's option and no seated table take no seat. Propagation counts a loop of slips (40
    read 90 and 90 read 40) more than once, so it can be surer than the exact sum: the pile's holds
    (`pile.hold_swappable`, `hold_contested`) weigh each slip's own ink against the others'."""
    tables = sorted({t for i in slips for t, _, seat in options[i] if seat and t is not None})
    column = {t: j for j, t in enumerate(tables)}
    seats = np.zeros((len(slips), len(tables)))
    seatless = np.zeros(len(slips))
    for a, i in enumerate(slips):
        for t, w, seat in options[i]:
            if seat and t is not None:
                seats[a, column[t]] += w
            else:
                seatless[a] += w
    free = np.ones_like(seats)  # what each table tells each slip: the chance it is free of the others
    for _ in range(rounds):
        told = seats * free
        elsewhere = told.sum(axis=1, keepdims=True) + seatless[:, None] - told
        odds = np.minimum(seats / np.maximum(elsewhere, 1e-300), ODDS_CAP)
        others = np.maximum(odds.sum(axis=0, keepdims=True) - odds, 0.0)
        new = 1.0 / (1.0 + others)
        done = np.abs(new - free).max() < 1e-10
        free = np.sqrt(free * new)  # damped: the messages settle instead of swinging around a loop
        if done:
            break
    out: list[Row] = []
    for a, i in enumerate(slips):
        row: Row = {}
        for t, w, seat in options[i]:
            told_w = w * (free[a, column[t]] if seat and t is not None else 1.0)
            row[t] = row.get(t, 0.0) + told_w
        total = sum(row.values())
        out.append({t: w / total for t, w in row.items() if w > 0.0})
    return out


def seat_pile(rows: list[Row], taken: set[int], second: float = 0.0) -> list[Row]:
    """Each slip's table posterior given the whole pile: exact per group of entangled slips, by
    belief propagation for a group too entangled. `second`: the chance that a slip is a second one for
    its table. A slip that may be at no table at all (every one its ink allows is filed already)
    gets an empty row."""
    options = [_options(row, taken, second) for row in rows]
    out: list[Row] = [{} for _ in rows]
    for group in _groups(options):
        live = [i for i in group if options[i]]
        if not live:
            continue
        fitted = _enumerate(live, options)
        if fitted is None:
            fitted = propagated(live, options)
        for i, row in zip(live, fitted):
            out[i] = row
    return out
