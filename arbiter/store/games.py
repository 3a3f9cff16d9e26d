"""Games, seats and rounds in the store. Every change writes its audit entry in the same
transaction (`audit.record`), so the log and the data never disagree."""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrector.board import Board
from corrector.errors import NotationError, RulePackError
from corrector.placement import Move, Placement, apply_placement, place_move
from corrector.reasons import Violation
from corrector.rulepack import RulePack, load_pack, pack_sha256
from corrector.words.lexicon import Lexicon

from ..errors import StoreError, WorkflowError
from .audit import Change, record, snapshot
from .freetext import check_text
from .models import Game, Player, Round, Tournament
from .seating import Seat
from .validation import require_not_final

VARIANTS = ("classic", "completiv", "super_joker", "eliptic", "metagrama", "top", "tactic")  # docs/judge.md
# docs/anticipation.md; blind (A 8.4): each player's own groups (`round groups --table N`)
ANTICIPATION_VARIANTS = ("classic", "avocalic", "scrabble_endurance", "scrabble_total", "blind")
KINDS = ("duplicate", "anticipation")
CATEGORIES = ("senior", "youth")


@dataclass(frozen=True)
class GameSpec:
    """What `game new` asks for (RULES.md §6 variants, D 6.2.e youth/senior)."""

    tournament: str
    name: str
    variant: str = "classic"
    category: str = "senior"
    rules: str = "ro"
    wordlist: Path | None = None
    venue: str | None = None
    seed: int | None = None  # for `round draw` / `round groups --draw`; a random one when not given
    kind: str = "duplicate"  # or "anticipation" (RULES.md §7)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def new_game(session: Session, spec: GameSpec, actor: str) -> Game:
    if spec.kind not in KINDS:
        raise WorkflowError(f"type {spec.kind!r}: expected one of {', '.join(KINDS)}")
    allowed = ANTICIPATION_VARIANTS if spec.kind == "anticipation" else VARIANTS
    if spec.variant not in allowed:
        raise WorkflowError(f"{spec.kind} variant {spec.variant!r}: expected one of {', '.join(allowed)}")
    if spec.category not in CATEGORIES:
        raise WorkflowError(f"category {spec.category!r}: expected senior or youth")
    for value, field in ((spec.tournament, "--tournament"), (spec.name, "--name"), (spec.venue or "", "--venue")):
        check_text(value, field, required=field != "--venue", longest=200)
    rules = _pack_name(spec.rules)
    pack = load_pack(rules)  # an unknown pack fails here, before anything is stored
    label = sha = path = None
    if spec.wordlist is not None:
        label, sha, path = spec.wordlist.name, *check_wordlist(spec.wordlist, pack)
    tournament = session.scalar(select(Tournament).where(Tournament.name == spec.tournament))
    if tournament is None:
        tournament = Tournament(name=spec.tournament, venue=spec.venue)
        session.add(tournament)
        session.flush()
        record(session, actor, Change("tournament.new", "tournament", tournament.id, after=snapshot(tournament)))
    seed = spec.seed if spec.seed is not None else secrets.randbelow(2**31)
    game = Game(tournament_id=tournament.id, name=spec.name, kind=spec.kind, variant=spec.variant, category=spec.category,
                rules=rules, rules_sha256=pack_sha256(rules), wordlist_label=label, wordlist_sha256=sha, wordlist_path=path, draw_seed=seed)
    session.add(game)
    session.flush()
    record(session, actor, Change("game.new", "game", game.id, after=snapshot(game)), game.id)
    return game


def _pack_name(rules: str) -> str:
    """A pack by name as given; a pack file by its absolute path, so every later command finds
    the same file whatever folder it runs in."""
    path = Path(rules)
    if path.suffix == ".toml" and path.is_file():
        rules = str(path.resolve())
    if len(rules) > 100:
        raise WorkflowError(f"--rules {rules}: the path is longer than the store keeps (100 characters); "
                            f"move the pack to a shorter path")
    return rules


def check_wordlist(path: Path, pack: RulePack) -> tuple[str, str]:
    """A word list fit to play with, checked at `game new` so the game never dies at its first
    round: a file, not empty, text (no NUL byte), and every line a word of the pack's letters
    (`load_lexicon` names the line at fault). Its sha256 and absolute path."""
    from corrector.errors import LexiconError
    from corrector.words.lexicon import load_lexicon

    if not path.is_file():
        raise WorkflowError(f"{path}: word list not found")
    with path.open("rb") as handle:
        head = handle.read(1 << 16)
    if not head.strip():
        raise WorkflowError(f"{path}: the word list is empty")
    if b"\0" in head and head[:2] != b"\x1f\x8b":
        raise WorkflowError(f"{path}: not a word list (binary data); give the text file of the list")
    try:
        lexicon = load_lexicon(path, pack)
    except LexiconError as exc:
        raise WorkflowError(f"word list {exc}") from exc
    if len(lexicon) == 0:
        raise WorkflowError(f"{path}: the word list holds no word of 2 to 15 letters")
    return lexicon.info.sha256, str(path.resolve())


def verify_rules(game: Game) -> None:
    """The game's rule pack, checked against the sha256 stored by `game new`: a pack edited since
    (or a base it extends) is refused with both hashes, never used under the old one."""
    if not game.rules_sha256:
        return  # a game started before packs were pinned (migration 0009)
    try:
        found = pack_sha256(game.rules)
    except RulePackError as exc:
        raise WorkflowError(f"game {game.id}: rule pack {game.rules}: {exc}") from exc
    if found != game.rules_sha256:
        raise WorkflowError(f"rule pack {game.rules}: changed since `game new` (sha256 {found}, the game's is "
                            f"{game.rules_sha256}); restore the original file")


def require_kind(game: Game, kind: str, command: str) -> None:
    """A command of one kind of game run on the other is refused before it touches anything:
    a duplicate round has one shared board, an anticipation round one board per player."""
    if game.kind != kind:
        raise WorkflowError(f"game {game.id} is of type {game.kind}: `{command}` is for {kind} games")


def get_game(session: Session, game_id: int | None = None) -> Game:
    """The game asked for, or the newest one."""
    if game_id is None:
        game = session.scalar(select(Game).order_by(Game.id.desc()).limit(1))
        if game is None:
            raise StoreError("the store holds no game yet: start one with `fluturas game new`")
    else:
        game = session.get(Game, game_id)
        if game is None:
            raise StoreError(f"game {game_id} is not in the store")
    verify_rules(game)
    return game


def seat_players(session: Session, game: Game, seats: list[Seat], actor: str, source: str, replace: bool = False) -> int:
    """Store a checked seating list, all or nothing. A table already seated is an error unless
    `replace`, which keeps the old seat in the audit log."""
    require_not_final(game, "changing the seating")
    for seat in seats:  # the library's callers too: a name the sheets can print (no control character)
        check_text(seat.name, f"{source}: row {seat.row}: name", required=True, longest=200)
        check_text(seat.club or "", f"{source}: row {seat.row}: club", longest=200)
        check_text(seat.category or "", f"{source}: row {seat.row}: category", longest=20)
    current = {p.table_no: p for p in session.scalars(select(Player).where(Player.game_id == game.id))}
    clashes = [s for s in seats if s.table in current]
    if clashes and not replace:
        s = clashes[0]
        raise WorkflowError(f"{source}: row {s.row}: table {s.table} is already seated "
                            f"({current[s.table].name}); pass --replace to replace the seating list")
    for seat in seats:
        old = current.get(seat.table)
        before = snapshot(old, ("table_no", "name", "club", "category")) if old else None
        player = old or Player(game_id=game.id, table_no=seat.table)
        player.name, player.club, player.category = seat.name, seat.club, seat.category
        session.add(player)
        record(session, actor, Change("player.seat", "player", seat.table, before=before,
                                      after={"table_no": seat.table, "name": seat.name, "club": seat.club,
                                             "category": seat.category}, reason=f"imported from {source}"), game.id)
    return len(seats)


def players(session: Session, game: Game) -> list[Player]:
    return list(session.scalars(select(Player).where(Player.game_id == game.id).order_by(Player.table_no)))


def get_round(session: Session, game: Game, number: int | None = None) -> Round:
    """Round `number`, or the newest round of the game."""
    query = select(Round).where(Round.game_id == game.id)
    query = query.where(Round.number == number) if number is not None else query.order_by(Round.number.desc()).limit(1)
    found = session.scalar(query)
    if found is None:
        raise StoreError(f"game {game.id}: no round {number if number is not None else 'yet'}"
                         f" (enter the group with `fluturas round set-rack`)")
    return found


def rounds(session: Session, game: Game) -> list[Round]:
    return list(session.scalars(select(Round).where(Round.game_id == game.id).order_by(Round.number)))


def check_group(game: Game, rack: str) -> str:
    """A group the set and the variant allow: letters of the set, no more of one letter (or of
    jokers) than the bag holds, at least one and at most the variant's rack in each group
    (RULES.md §1, D 8); a tactic round's two groups written 'ABCDEFG/HIJKLMN' (D 8.6)."""
    from collections import Counter

    from corrector.game.variants import load_duplicate_rules

    pack = load_pack(game.rules)
    variant = load_duplicate_rules(pack).variant(game.variant)
    parts = rack.split("/")
    if len(parts) > variant.groups:
        raise WorkflowError(f"group {rack!r}: a {game.variant} round has {variant.groups} group(s)")
    groups = []
    for part in parts:
        try:
            letters = pack.tiles.parse_rack(part)
        except NotationError as exc:
            raise WorkflowError(f"group {rack!r}: {exc}") from exc
        if not 1 <= len(letters) <= variant.rack_size:
            raise WorkflowError(f"group {part!r}: {len(letters)} letters; the {game.variant} variant takes "
                                f"1 to {variant.rack_size}")
        groups.append(letters)
    for letter, count in Counter(letter for letters in groups for letter in letters).items():
        have = pack.tiles.jokers if letter == "?" else pack.tiles.counts[letter]
        if count > have:
            raise WorkflowError(f"group {rack!r}: {count} × {letter}, the set has {have}")
    return "/".join("".join(letters) for letters in groups)


def verify_wordlist(game: Game) -> str:
    """The game's word list, checked against the sha256 stored by `game new` each time it is
    loaded: a list edited since is refused, never used under the old hash."""
    if not game.wordlist_path:
        raise WorkflowError(f"game {game.id} has no word list: give one with `game new --words FILE`")
    path = Path(game.wordlist_path)
    if not path.is_file():
        raise WorkflowError(f"word list {path}: not found (game {game.id} was started with it)")
    found = file_sha256(path)
    if game.wordlist_sha256 and found != game.wordlist_sha256:
        raise WorkflowError(f"word list {path}: changed since `game new` (sha256 {found}, the game's is "
                            f"{game.wordlist_sha256}); restore the original file")
    return str(path)


def lexicon_of(game: Game, pack: RulePack) -> Lexicon:
    """The game's word list as the move generator and the judge read it, checked first
    (`verify_wordlist`). Here, with the game, so the scan, the draw and the tops all load it alike."""
    from corrector.words.lexicon import load_lexicon

    return load_lexicon(verify_wordlist(game), pack, label=game.wordlist_label)


def board_before(session: Session, game: Game, number: int, pack: RulePack | None = None) -> Board:
    """The board at the start of round `number`: every earlier continuation applied."""
    pack = pack or load_pack(game.rules)
    board = Board()
    for earlier in rounds(session, game):
        if earlier.number >= number:
            break
        if not earlier.continuation:
            raise WorkflowError(f"round {earlier.number} has no continuation move yet")
        for placed in continuation_moves(board, earlier.continuation, pack, earlier.number):
            apply_placement(board, placed)
    return board


def continuation_moves(board: Board, text: str, pack: RulePack, number: int) -> list[Placement]:
    """The continuation's moves, each placed on the board the one before leaves (a tactic round
    has two: 'H4 MODEL; 8D CASA', D 8.6). The board itself is not changed."""
    work, out = board.copy(), []
    for part in text.split(";"):
        placed = place_continuation(work, part.strip(), pack, number)
        apply_placement(work, placed)
        out.append(placed)
    return out


def place_continuation(board: Board, text: str, pack: RulePack, number: int) -> Placement:
    try:
        move = Move.parse(text, pack)
    except NotationError as exc:
        raise WorkflowError(f"round {number}: continuation {text!r}: expected 'POSITION WORD' "
                            f"(jokers lowercase), {exc}") from exc
    placed = place_move(board, move, pack)
    if isinstance(placed, Violation):
        raise WorkflowError(f"round {number}: continuation {text!r} is not legal: {placed.message()}")
    return placed
