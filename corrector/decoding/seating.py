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
is one group) gets a mean-field fit that never moves a slip off the table its ink names mostly
(`pinned_mean_field`)."""
from __future__ import annotations

import numpy as np

Row = dict["int | None", float]  # table (None: no seated table) -> probability
Options = list[tuple["int | None", float, bool]]  # table, weight, whether the slip takes its seat

EDGE = 1e-7  # a table the slip's own ink gives less than this is not one it may be at
BEAM = 1e-9  # assignments this much less likely than the best found are left out
MAX_STEPS = 200_000  # search steps a group may take before it falls back to the pinned mean field


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


def pinned_mean_field(rows: list[Row], taken: set[int], rounds: int = 30) -> list[Row]:
    """Table posteriors of a group too entangled to enumerate: each slip's own posterior times the
    chance that no other slip is at the table, fitted to a fixed point, where a slip whose ink names
    a table mostly (more than half) is never moved off it and keeps its own posterior (it then
    collides, and goes to review). It is surer than the exact sum where slips pull each other
    around a loop, hence the pin: it never takes a slip off the table its ink names mostly."""
    tables = sorted({t for row in rows for t in row if t is not None} | taken)
    index = {t: j for j, t in enumerate(tables)}
    m = np.zeros((len(rows), len(tables) + 1))  # the last column: no seated table
    for i, row in enumerate(rows):
        for t, p in row.items():
            m[i, index[t] if t is not None else -1] = p
    m *= np.array([0.0 if t in taken else 1.0 for t in tables] + [1.0])
    own = m / np.maximum(m.sum(axis=1, keepdims=True), 1e-300)
    owns = [max(row.items(), key=lambda kv: kv[1], default=(None, 0.0)) for row in rows]
    pinned = np.zeros(len(rows), bool)
    for _ in range(len(rows)):
        fitted = own.copy()
        for _ in range(rounds):
            others = np.log1p(-np.minimum(fitted, 1 - 1e-12))
            others[:, -1] = 0.0
            new = m * np.exp(others.sum(axis=0, keepdims=True) - others)
            new /= np.maximum(new.sum(axis=1, keepdims=True), 1e-300)
            new[pinned] = own[pinned]
            done = np.abs(new - fitted).max() < 1e-9
            fitted = new if done else 0.5 * (fitted + new)
            if done:
                break
        moved = np.array([not pinned[i] and t is not None and p > 0.5 and fitted[i, index[t]] < p - 1e-9
                          for i, (t, p) in enumerate(owns)])
        if not moved.any():
            break
        pinned |= moved
    keys = tables + [None]
    return [dict(rows[i]) if pinned[i] else {keys[j]: float(p) for j, p in enumerate(fitted[i]) if p > 1e-9}
            for i in range(len(rows))]


def seat_pile(rows: list[Row], taken: set[int], second: float = 0.0) -> list[Row]:
    """Each slip's table posterior given the whole pile: exact per group of entangled slips, the
    pinned mean-field fit for a group too entangled. `second`: the chance that a slip is a second one for
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
            fitted = pinned_mean_field([rows[i] for i in live], taken)
        for i, row in zip(live, fitted):
            out[i] = row
    return out
