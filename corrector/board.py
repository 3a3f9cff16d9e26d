"""Board state: 15×15 squares, each empty or holding a tile (RULES.md §1)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from corrector.errors import BoardFileError, NotationError
from corrector.rulepack import SIZE, RulePack
from corrector.tiles import JOKER, Tile


@dataclass
class Board:
    """Mutable board; `copy()` before trying a move you may not keep."""

    grid: list[list[Tile | None]] = field(default_factory=lambda: [[None] * SIZE for _ in range(SIZE)])

    def __getitem__(self, square: tuple[int, int]) -> Tile | None:
        row, col = square
        return self.grid[row][col]

    def __setitem__(self, square: tuple[int, int], tile: Tile | None) -> None:
        row, col = square
        self.grid[row][col] = tile

    @staticmethod
    def on_board(row: int, col: int) -> bool:
        return 0 <= row < SIZE and 0 <= col < SIZE

    def tile_counts(self) -> Counter[str]:
        """The tiles on the board by letter, a joker counted as '?' whatever letter it stands for:
        what the stock lacks because of the board (RULES.md §5)."""
        return Counter(JOKER if tile.joker else tile.letter for _, _, tile in self.tiles())

    def occupied(self, row: int, col: int) -> bool:
        return self.on_board(row, col) and self.grid[row][col] is not None

    def is_empty(self) -> bool:
        return not any(map(any, self.grid))  # tiles are always truthy; this runs in C

    def tiles(self) -> list[tuple[int, int, Tile]]:
        return [(r, c, t) for r, line in enumerate(self.grid) for c, t in enumerate(line) if t is not None]

    def copy(self) -> "Board":
        return Board([list(line) for line in self.grid])

    def to_text(self) -> str:
        """15 lines, `.` empty, uppercase tile, lowercase joker (the board-file format)."""
        return "\n".join(
            " ".join(str(t) if t else "." for t in line) if any(t and len(t.letter) > 1 for t in line)
            else "".join(str(t) if t else "." for t in line)
            for line in self.grid
        ) + "\n"

    @classmethod
    def from_text(cls, text: str, pack: RulePack, source: str = "<board>") -> "Board":
        """Read the board-file format; a line may also list 15 squares separated by spaces
        (needed for digraph tiles such as Catalan NY)."""
        lines = [line.rstrip("\r") for line in text.splitlines() if line.strip()]
        if len(lines) != SIZE:
            raise BoardFileError(f"{source}: expected {SIZE} lines of squares, found {len(lines)}")
        board = cls()
        for r, line in enumerate(lines):
            cells = line.split() if " " in line.strip() else list(line.strip())
            if len(cells) != SIZE:
                raise BoardFileError(f"{source}: line {r + 1}: expected {SIZE} squares, found {len(cells)}")
            for c, cell in enumerate(cells):
                if cell == ".":
                    continue
                try:
                    (tile,) = pack.tiles.parse_word(cell)
                except (NotationError, ValueError) as exc:
                    raise BoardFileError(f"{source}: line {r + 1}, column {c + 1}: {exc}") from exc
                board[r, c] = tile
        board.check_tiles(pack, source)
        return board

    def check_tiles(self, pack: RulePack, source: str = "<board>") -> None:
        """A board holds no more of a letter, nor more jokers, than the set has (RULES.md §1:
        100 tiles for Romanian, 2 jokers): more can only be a mistyped board file."""
        counts = self.tile_counts()
        jokers = counts.pop(JOKER, 0)
        if jokers > pack.tiles.jokers:
            raise BoardFileError(f"{source}: {jokers} jokers (lowercase letters) on the board, "
                                 f"the set has {pack.tiles.jokers}")
        for letter, count in sorted(counts.items()):
            allowed = pack.tiles.counts.get(letter, 0)
            if count > allowed:
                raise BoardFileError(f"{source}: {count} tiles {letter} on the board, the set has {allowed}")

    @classmethod
    def load(cls, path: str | Path, pack: RulePack) -> "Board":
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise BoardFileError(f"{path}: cannot read board file: {exc}") from exc
        return cls.from_text(text, pack, str(path))
