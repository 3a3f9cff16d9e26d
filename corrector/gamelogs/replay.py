"""Replay a game record and compare every recorded placement score with ours (issue: engine check
against real games; a disagreement is a scoring bug until proved otherwise)."""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from corrector.board import Board
from corrector.coords import Position, square_name
from corrector.errors import NotationError, RecordError
from corrector.placement import Move, Placement, apply_placement, place_move
from corrector.judging.rack import take_from_rack
from corrector.reasons import Violation
from corrector.gamelogs.records import EventKind, GameRecord
from corrector.rulepack import RulePack
from corrector.tiles import Tile


@dataclass(frozen=True)
class ReplayRow:
    line: int
    player: str
    position: str
    word: str
    recorded: int | None
    computed: int | None
    agrees: bool
    problem: str = ""


@dataclass(frozen=True)
class ReplayResult:
    path: str
    rows: tuple[ReplayRow, ...]
    skipped: dict[str, int]

    @property
    def disagreements(self) -> int:
        return sum(not row.agrees for row in self.rows)

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "placements": len(self.rows),
            "agreements": len(self.rows) - self.disagreements,
            "disagreements": self.disagreements,
            "skipped": dict(sorted(self.skipped.items())),
            "moves": [asdict(row) for row in self.rows],
        }


def _tiles_from_written(word: str, board: Board, position: Position, pack: RulePack, where: str) -> tuple[Tile, ...]:
    """Expand '.' (a letter already on the board) into the board's tile; letters written in
    parentheses are board letters too and are read as written."""
    tiles: list[Tile] = []
    for part in re.split(r"(\.)", word.replace("(", "").replace(")", "")):
        if part == ".":
            square = position.square(len(tiles))
            tile = board[square] if Board.on_board(*square) else None
            if tile is None:
                raise RecordError(f"{where}: field word: '.' stands on the empty square {square_name(*square)}")
            tiles.append(tile)
        elif part:
            try:
                tiles.extend(pack.tiles.parse_word(part))
            except NotationError as exc:
                raise RecordError(f"{where}: field word: {exc}") from exc
    return tuple(tiles)


def replay(record: GameRecord, pack: RulePack) -> ReplayResult:
    """Play every placement in order; a withdrawn play (GCG `--`) leaves the board and is
    counted as skipped, as are exchanges, passes and score adjustments."""
    board = Board()
    last_by_player: dict[str, tuple[int, Placement]] = {}
    rows: list[ReplayRow] = []
    skipped: dict[str, int] = {}
    for event in record.events:
        if event.kind is EventKind.WITHDRAWN and event.player in last_by_player:
            line, withdrawn = last_by_player.pop(event.player)
            for r, c, _ in withdrawn.new_tiles:
                board[r, c] = None
            rows = [row for row in rows if row.line != line]
        if event.kind is not EventKind.PLACEMENT:
            skipped[event.kind.value] = skipped.get(event.kind.value, 0) + 1
            continue
        tiles = _tiles_from_written(event.word, board, event.position, pack, f"{record.path}:{event.line}")
        move = Move(event.position, tiles)
        result = place_move(board, move, pack)
        if isinstance(result, Violation):
            # A recorded placement that does not fit the board cannot be replayed any further.
            raise RecordError(f"{record.path}:{event.line}: field word: {move} does not fit: "
                              f"{result.message('en')} ({result.reason.name}, RULES.md {result.article})")
        problem = ""
        if event.rack:
            # The group must hold the new tiles (RULES.md §3 step 4): a record that breaks this is suspect.
            try:
                rack = pack.tiles.parse_rack(event.rack)
            except NotationError as exc:
                raise RecordError(f"{record.path}:{event.line}: field rack: {exc}") from exc
            leave = take_from_rack(rack, (t for _, _, t in result.new_tiles))
            problem = str(leave) if isinstance(leave, Violation) else ""
        apply_placement(board, result)
        last_by_player[event.player] = (event.line, result)
        rows.append(ReplayRow(event.line, event.player, move.position.frs(), move.word, event.recorded_score,
                              result.score, result.score == event.recorded_score and not problem, problem))
    return ReplayResult(record.path, tuple(rows), skipped)
