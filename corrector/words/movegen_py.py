"""Pure-Python twin of `_movegen.c`: the same Appel–Jacobson walk, the same records.

Why it exists: a machine without a C compiler still gets every move, only slower. Tests check
that both give identical record sets, so either can stand in for the other.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from corrector.words.dawg import Dawg

N = 15
Record = tuple[int, int, int, int, int, tuple[int, ...], int, int, int]
# (score, row, col, horizontal, length, letters, placed, new_mask, joker_mask)


@dataclass
class _Gen:
    start: list[int]
    letter: list[int]
    target: list[int]
    final: list[int]
    values: list[int]
    board: list[int]
    board_joker: list[int]
    lmult: list[int]
    wmult: list[int]
    rack: list[int]
    jokers: int  # jokers not yet placed by the walk
    rack_size: int
    bingo_bonus: int
    tiles: int
    all: int
    rack0: list[int] = field(default_factory=list)  # the group's real tiles
    jokers0: int = 0  # the group's jokers
    out: list[Record] = field(default_factory=list)
    horizontal: int = 1
    line: int = 0
    anchor: int = 0
    cell: list[int] = field(default_factory=lambda: [-1] * N)
    cell_joker: list[int] = field(default_factory=lambda: [0] * N)
    lm: list[int] = field(default_factory=lambda: [1] * N)
    wm: list[int] = field(default_factory=lambda: [1] * N)
    cross: list[int] = field(default_factory=lambda: [0] * N)
    has_cross: list[int] = field(default_factory=lambda: [0] * N)
    cross_sum: list[int] = field(default_factory=lambda: [0] * N)
    word: list[int] = field(default_factory=lambda: [0] * N)
    wnew: list[int] = field(default_factory=lambda: [0] * N)

    def child(self, node: int, letter: int) -> int:
        for e in range(self.start[node], self.start[node + 1]):
            if self.letter[e] == letter:
                return self.target[e]
        return -1

    def place(self, letter: int) -> int:
        """A real tile when the group still holds one, else a joker (1 returned)."""
        if self.rack[letter] > 0:
            self.rack[letter] -= 1
            return 0
        self.jokers -= 1
        return 1

    def unplace(self, letter: int, joker: int) -> None:
        if joker:
            self.jokers += 1
        else:
            self.rack[letter] += 1

    def record(self, s: int, end: int, main_sum: int, wmul: int, cross_total: int, placed: int) -> None:
        """One record per way of playing the word's new tiles with the group's jokers. The walk
        counted every new tile as real; a joker on a new square takes its letter's points off the
        main word and off the cross word through that square."""
        new_mask = board_jokers = 0
        new: list[tuple[int, int, int]] = []  # (offset, letter, points lost as a joker)
        for p in range(s, end):
            if self.wnew[p]:
                new_mask |= 1 << (p - s)
                letter = self.word[p]
                v = self.values[letter] * self.lm[p]
                new.append((p - s, letter, v * (wmul + (self.wm[p] if self.has_cross[p] else 0))))
            elif self.cell_joker[p]:
                board_jokers |= 1 << (p - s)
        score = main_sum * wmul + cross_total + (self.bingo_bonus if placed >= self.rack_size else 0)
        row, col = (self.line, s) if self.horizontal else (s, self.line)
        letters = tuple(self.word[s:end]) + (0,) * (N - (end - s))
        real = list(self.rack0)

        def assign(i: int, jokers: int, points: int, joker_mask: int) -> None:
            if i == len(new):
                self.out.append((points, row, col, self.horizontal, end - s, letters, placed, new_mask, joker_mask))
                return
            off, letter, delta = new[i]
            if real[letter] > 0:
                real[letter] -= 1
                assign(i + 1, jokers, points, joker_mask)
                real[letter] += 1
            if jokers > 0:
                assign(i + 1, jokers - 1, points - delta, joker_mask | 1 << off)

        assign(0, self.jokers0, score, board_jokers)

    def extend_right(self, pos: int, node: int, main_sum: int, wmul: int, cross_total: int, placed: int, s: int) -> None:
        """Letters only: a new letter is a real tile while the group has one, else a joker;
        `record` then lists every joker placement."""
        if pos < N and self.cell[pos] < 0:
            if pos > self.anchor and self.final[node]:
                self.record(s, pos, main_sum, wmul, cross_total, placed)
            if placed == self.tiles:
                return
            lm, wm = self.lm[pos], self.wm[pos]
            for e in range(self.start[node], self.start[node + 1]):
                letter = self.letter[e]
                if not (self.cross[pos] >> letter) & 1:
                    continue
                if self.rack[letter] == 0 and self.jokers == 0:
                    continue
                self.word[pos] = letter
                self.wnew[pos] = 1
                v = self.values[letter] * lm
                ct = cross_total + ((self.cross_sum[pos] + v) * wm if self.has_cross[pos] else 0)
                joker = self.place(letter)
                self.extend_right(pos + 1, self.target[e], main_sum + v, wmul * wm, ct, placed + 1, s)
                self.unplace(letter, joker)
        elif pos < N:
            letter = self.cell[pos]
            child = self.child(node, letter)
            if child < 0:
                return
            self.word[pos] = letter
            self.wnew[pos] = 0
            v = 0 if self.cell_joker[pos] else self.values[letter]
            self.extend_right(pos + 1, child, main_sum + v, wmul, cross_total, placed, s)
        elif pos > self.anchor and self.final[node]:
            self.record(s, pos, main_sum, wmul, cross_total, placed)

    def left_part(self, prefix: list[int], node: int, limit: int) -> None:
        """Left parts lie on empty non-anchor squares, so they form no cross words."""
        s = self.anchor - len(prefix)
        main_sum, wmul = 0, 1
        for i, letter in enumerate(prefix):
            p = s + i
            self.word[p], self.wnew[p] = letter, 1
            main_sum += self.values[letter] * self.lm[p]
            wmul *= self.wm[p]
        self.extend_right(self.anchor, node, main_sum, wmul, 0, len(prefix), s)
        if limit == 0:
            return
        for e in range(self.start[node], self.start[node + 1]):
            letter = self.letter[e]
            if self.rack[letter] == 0 and self.jokers == 0:
                continue
            joker = self.place(letter)
            self.left_part(prefix + [letter], self.target[e], limit - 1)
            self.unplace(letter, joker)


def _sq(horizontal: int, line: int, pos: int) -> int:
    return line * N + pos if horizontal else pos * N + line


def _cross_checks(g: _Gen, horizontal: int) -> tuple[list[int], list[int], list[int]]:
    cross, has, total = [g.all] * (N * N), [0] * (N * N), [0] * (N * N)
    board = g.board
    for line in range(N):
        for pos in range(N):
            sq = _sq(horizontal, line, pos)
            if board[sq] >= 0:
                continue
            a = b = line
            while a > 0 and board[_sq(1 - horizontal, pos, a - 1)] >= 0:
                a -= 1
            while b < N - 1 and board[_sq(1 - horizontal, pos, b + 1)] >= 0:
                b += 1
            if a == b == line:
                continue
            has[sq] = 1
            total[sq] = sum(g.values[board[t]] for q in range(a, b + 1) if q != line
                            for t in [_sq(1 - horizontal, pos, q)] if not g.board_joker[t])
            node = 0
            for q in range(a, line):
                node = g.child(node, board[_sq(1 - horizontal, pos, q)])
                if node < 0:
                    break
            mask = 0
            if node >= 0:
                for e in range(g.start[node], g.start[node + 1]):
                    n2 = g.target[e]
                    for q in range(line + 1, b + 1):
                        n2 = g.child(n2, board[_sq(1 - horizontal, pos, q)])
                        if n2 < 0:
                            break
                    if n2 >= 0 and g.final[n2]:
                        mask |= 1 << g.letter[e]
            cross[sq] = mask
    return cross, has, total


def _direction(g: _Gen, horizontal: int, anchors: list[int]) -> None:
    cross, has, total = _cross_checks(g, horizontal)
    g.horizontal = horizontal
    for line in range(N):
        squares = [_sq(horizontal, line, pos) for pos in range(N)]
        is_anchor = [anchors[sq] for sq in squares]
        if not any(is_anchor):
            continue
        g.line = line
        g.cell = [g.board[sq] for sq in squares]
        g.cell_joker = [g.board_joker[sq] for sq in squares]
        g.lm = [g.lmult[sq] for sq in squares]
        g.wm = [g.wmult[sq] for sq in squares]
        g.cross = [cross[sq] for sq in squares]
        g.has_cross = [has[sq] for sq in squares]
        g.cross_sum = [total[sq] for sq in squares]
        for a in range(N):
            if not is_anchor[a]:
                continue
            g.anchor = a
            if a > 0 and g.cell[a - 1] >= 0:
                s = a - 1
                while s > 0 and g.cell[s - 1] >= 0:
                    s -= 1
                node, main_sum = 0, 0
                for p in range(s, a):
                    node = g.child(node, g.cell[p]) if node >= 0 else -1
                    g.word[p], g.wnew[p] = g.cell[p], 0
                    if not g.cell_joker[p]:
                        main_sum += g.values[g.cell[p]]
                if node >= 0:
                    g.extend_right(a, node, main_sum, 1, 0, 0, s)
            else:
                k = 0
                p = a - 1
                while p >= 0 and g.cell[p] < 0 and not is_anchor[p]:
                    k += 1
                    p -= 1
                g.left_part([], 0, max(0, min(k, g.tiles - 1)))


def generate(dawg: Dawg, board: list[int], board_joker: list[int], values: list[int], lmult: list[int],
             wmult: list[int], rack: list[int], jokers: int, rack_size: int, bingo_bonus: int,
             start_sq: int, alpha: int) -> list[Record]:
    """Same arguments (as lists) and the same records as `_movegen.generate`."""
    g = _Gen(dawg.start.tolist(), dawg.letter.tolist(), dawg.target.tolist(), dawg.final.tolist(), values, board,
             board_joker, lmult, wmult, list(rack), jokers, rack_size, bingo_bonus, jokers + sum(rack),
             (1 << alpha) - 1, list(rack), jokers)
    if g.tiles == 0:
        return []
    empty = all(x < 0 for x in board)
    anchors = [0] * (N * N)
    for r in range(N):
        for c in range(N):
            sq = r * N + c
            if board[sq] >= 0:
                continue
            if empty:
                anchors[sq] = int(sq == start_sq)  # RULES.md §1: the first move covers the start square
            else:
                anchors[sq] = int((r > 0 and board[sq - N] >= 0) or (r < N - 1 and board[sq + N] >= 0)
                                  or (c > 0 and board[sq - 1] >= 0) or (c < N - 1 and board[sq + 1] >= 0))
    _direction(g, 1, anchors)
    _direction(g, 0, anchors)
    return g.out
