"""A minimised word graph (DAWG) over tile indices, stored as flat numpy arrays.

Why flat arrays: the move generator's C loop walks them directly, and they save to and load
from disk in milliseconds (a 1.3 M-word list must load in under a second). Node 0 is the root;
the edges of node n are `letter[start[n]:start[n+1]]` (ascending) with targets
`target[start[n]:start[n+1]]`; `final[n]` says a word ends at n; `mask[n]` has bit i set when
n has an edge for tile index i (cross-checks are intersections of such masks).
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

MAX_LETTERS = 63  # letter masks are 64-bit; bit 63 is kept free


@dataclass(frozen=True)
class Dawg:
    start: np.ndarray  # uint32[N + 1]
    letter: np.ndarray  # uint8[E]
    target: np.ndarray  # uint32[E]
    final: np.ndarray  # uint8[N]
    mask: np.ndarray  # uint64[N]

    @property
    def node_count(self) -> int:
        return int(self.final.shape[0])

    @property
    def edge_count(self) -> int:
        return int(self.letter.shape[0])

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.start, self.letter, self.target, self.final, self.mask))

    def child(self, node: int, index: int) -> int:
        """The node reached from `node` by tile index `index`, or -1."""
        lo, hi = int(self.start[node]), int(self.start[node + 1])
        pos = lo + int(np.searchsorted(self.letter[lo:hi], index))
        if pos < hi and int(self.letter[pos]) == index:
            return int(self.target[pos])
        return -1

    def walk(self, indices: Iterable[int], node: int = 0) -> int:
        for index in indices:
            node = self.child(node, index)
            if node < 0:
                return -1
        return node

    def contains(self, indices: Iterable[int]) -> bool:
        node = self.walk(indices)
        return node >= 0 and bool(self.final[node])

    def sequences(self) -> Iterator[tuple[int, ...]]:
        """Every word as a tuple of tile indices, in ascending order."""
        start, letter, target, final = (a.tolist() for a in (self.start, self.letter, self.target, self.final))
        stack: list[tuple[int, tuple[int, ...]]] = [(0, ())]
        while stack:
            node, prefix = stack.pop()
            if final[node] and prefix:
                yield prefix
            for e in range(start[node + 1] - 1, start[node] - 1, -1):
                stack.append((target[e], prefix + (letter[e],)))

    def digest(self) -> str:
        """sha256 of the arrays, so a corrupt cache is detected rather than trusted."""
        h = hashlib.sha256()
        for a in (self.start, self.letter, self.target, self.final):
            h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()

    def check(self) -> None:
        """Structural checks (cheap, vectorised); raises ValueError on an inconsistent graph."""
        n, e = self.node_count, self.edge_count
        if self.start.shape != (n + 1,) or int(self.start[0]) != 0 or int(self.start[-1]) != e:
            raise ValueError("edge index does not match the edge arrays")
        if n == 0 or np.any(np.diff(self.start.astype(np.int64)) < 0):
            raise ValueError("edge index is not ascending")
        if e and (int(self.target.max()) >= n or int(self.letter.max()) >= MAX_LETTERS):
            raise ValueError("edge points outside the graph")


def node_masks(start: np.ndarray, letter: np.ndarray, node_count: int) -> np.ndarray:
    bits = np.left_shift(np.uint64(1), letter.astype(np.uint64))
    owner = np.repeat(np.arange(node_count), np.diff(start.astype(np.int64)))
    mask = np.zeros(node_count, dtype=np.uint64)
    np.bitwise_or.at(mask, owner, bits)
    return mask


def from_arrays(start: np.ndarray, letter: np.ndarray, target: np.ndarray, final: np.ndarray) -> Dawg:
    start = np.ascontiguousarray(start, dtype=np.uint32)
    letter = np.ascontiguousarray(letter, dtype=np.uint8)
    target = np.ascontiguousarray(target, dtype=np.uint32)
    final = np.ascontiguousarray(final, dtype=np.uint8)
    dawg = Dawg(start, letter, target, final, node_masks(start, letter, final.shape[0]))
    dawg.check()
    return dawg


def build_dawg(words: Iterable[bytes]) -> Dawg:
    """Minimised DAWG of words given as byte strings of tile indices, in ascending order,
    without duplicates (incremental construction of Daciuk et al., 2000: one pass, and only
    the register of distinct nodes is kept in memory)."""
    finals: list[bool] = [False]
    edges: list[dict[int, int] | None] = [{}]
    register: dict[tuple, int] = {}
    unchecked: list[tuple[int, int, int]] = []  # (parent, letter, child) along the last word

    def minimise(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, ch, child = unchecked.pop()
            out = edges[child]
            key = (finals[child], tuple(out.items()))  # insertion order is letter order
            found = register.get(key)
            if found is None:
                register[key] = child
            else:
                edges[parent][ch] = found
                edges[child] = None  # the duplicate is dropped

    previous = b""
    for word in words:
        if word <= previous and previous:
            raise ValueError("words must be sorted and unique")
        common = 0
        limit = min(len(word), len(previous))
        while common < limit and word[common] == previous[common]:
            common += 1
        minimise(common)
        node = unchecked[-1][2] if unchecked else 0
        for ch in word[common:]:
            new = len(finals)
            finals.append(False)
            edges.append({})
            edges[node][ch] = new
            unchecked.append((node, ch, new))
            node = new
        finals[node] = True
        previous = word
    minimise(0)
    return _flatten(finals, edges)


def _flatten(finals: list[bool], edges: list[dict[int, int] | None]) -> Dawg:
    """Renumber the kept nodes breadth-first from the root and lay their edges out flat."""
    order = [0]
    number = {0: 0}
    i = 0
    while i < len(order):
        for child in edges[order[i]].values():
            if child not in number:
                number[child] = len(order)
                order.append(child)
        i += 1
    start = np.zeros(len(order) + 1, dtype=np.uint32)
    letters: list[int] = []
    targets: list[int] = []
    for new_id, old in enumerate(order):
        out = edges[old]
        letters.extend(out.keys())
        targets.extend(number[c] for c in out.values())
        start[new_id + 1] = len(letters)
    final = np.fromiter((finals[old] for old in order), dtype=np.uint8, count=len(order))
    return from_arrays(start, np.array(letters, dtype=np.uint8), np.array(targets, dtype=np.uint32), final)
