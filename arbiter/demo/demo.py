"""`fluturas demo`: a whole sample game played through the arbiter's workflow, from scanned slips.

The game master draws each round from the game's seed (`round draw`, D 5.3.1–5.3.2) on the bundled
Romanian demo list (not the LOC); sixteen players from `samples/players.csv` (≥ 15, so solos
apply, D 5.3.8) write their slips (`arbiter.demo.simulation`: mostly tops or other legal moves, a seeded
share of the mistakes of RULES.md §3–4); the scanner's synthetic renderer draws them on scanned
pages (`arbiter.demo.slipimages`); and then the arbiter's own steps run: `round scan` through the real
scanner, `round set-top`, `round correct`, the review queue, `round close`, the sheet.

The demo arbiter clears the review queue with the truth it rendered, as an arbiter would with the
slip in hand, through the same review API (audited under its name, corrected fields kept for the
reader's fine-tuning). The scanner's figures it prints are measured against that truth: nothing is
corrected silently. Yields the lines the CLI prints."""
from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from corrector.words.movegen import generate_moves
from corrector.rulepack import load_pack
from samples import SAMPLES

from ..results.exports import write_exports
from ..review.review import discard_slip, queue, resolve
from ..round.correction import close_round, correct_round
from ..round.draw import draw_round
from ..round.tops import retain_continuation
from ..slips.decoding import DecodeTally
from ..slips.ingest import missing_tables
from ..slips.readings import SlipReading
from ..slips.roundscan import scan_round
from ..store.games import GameSpec, board_before, get_game, get_round, lexicon_of, new_game, players, seat_players
from ..store.models import Slip
from ..store.seating import Seat, read_seating
from ..store.store import Store, open_store
from .readcheck import FIELDS, ReadTally, field_value
from .simulation import MistakeDeck, RoundSlips, simulate_round
from .slipimages import RenderedPage, render_round, truth_of

ACTOR = "arbitru-demo"
MAX_REVIEW_PASSES = 4  # a corrected reading can raise a new decision flag; it settles in two or three


@dataclass(frozen=True)
class DemoOptions:
    """The sample game (samples/game.json) and how to play it; `rounds` may be lowered for tests."""

    rounds: int = 7
    seed: int = 2026
    reader: str = "cnn"
    threshold: float = 0.95  # for readings without the scanner's own calibrated `accepted`
    per_page: int = 4
    mistake_rate: float = 0.3
    players: int | None = None  # None: every seat of samples/players.csv; fewer take the first, more add seats

    @classmethod
    def from_sample(cls, samples: Path = SAMPLES, **overrides: Any) -> "DemoOptions":
        spec = json.loads((samples / "game.json").read_text(encoding="utf-8"))
        base = cls(rounds=spec["rounds"], seed=spec["seed"], per_page=spec["slips_per_page"],
                   mistake_rate=spec["mistake_rate"])
        return replace(base, **{k: v for k, v in overrides.items() if v is not None})


def _fresh_store(out: Path) -> tuple[Store, Path]:
    out.mkdir(parents=True, exist_ok=True)
    db = out / "demo.db"
    for stale in (db, out / "demo.db-wal", out / "demo.db-shm"):
        stale.unlink(missing_ok=True)
    return open_store(db), db


def _setup(store: Store, samples: Path, opts: DemoOptions) -> tuple[int, dict[str, Any], int]:
    spec = json.loads((samples / "game.json").read_text(encoding="utf-8"))
    with store.session() as s:
        game = new_game(s, GameSpec(spec["tournament"], spec["name"], spec["variant"], spec["category"],
                                    spec["rules"], samples / spec["words"], seed=opts.seed), ACTOR)
        seats = _seat_count(read_seating(samples / spec["players"]), opts.players)
        seat_players(s, game, seats, ACTOR, spec["players"])
        return game.id, spec, len(seats)


def _seat_count(seats: list[Seat], count: int | None) -> list[Seat]:
    """The first `count` seats of the list, or the list with seats added (`Jucător N`) up to it."""
    if count is None:
        return seats
    added = [Seat(t, f"Jucător {t}", None, None, 0) for t in range(len(seats) + 1, count + 1)]
    return (seats + added)[:count]


def _play(store: Store, game_id: int, number: int, opts: DemoOptions, deck: MistakeDeck) -> tuple[RoundSlips, str]:
    """Draw the round and have every player write a slip (the move generator's moves)."""
    with store.session() as s:
        game = get_game(s, game_id)
        rnd, _announcement = draw_round(s, game, ACTOR)
        pack = load_pack(game.rules)
        lexicon = lexicon_of(game, pack)
        board = board_before(s, game, number, pack)
        moves = generate_moves(board, pack.tiles.parse_rack(rnd.rack), pack, lexicon)
        tables = [p.table_no for p in players(s, game)]
        rack = rnd.rack
    tops = [m for m in moves if moves and m.score == moves[0].score]
    slips = simulate_round(number, tables, tops, moves, lexicon, random.Random(opts.seed * 1000 + number), deck,
                           opts.mistake_rate)
    return slips, rack


def _scan(store: Store, game_id: int, number: int, pages: list[RenderedPage],
          opts: DemoOptions) -> tuple[ReadTally, DecodeTally]:
    """`round scan` of the rendered pages (`arbiter.slips.roundscan.scan_round`, the command's own path):
    the real scanner and the decoder (issue 15); the reading and the decided ruling checked per slip
    against the truth."""
    tally, decoding = ReadTally(), DecodeTally()
    by_path = {str(p.path.resolve()): p for p in pages}
    seen: list[tuple[SlipReading, object, object]] = []
    done = scan_round(store, game_id, number, [p.path for p in pages], opts.threshold, opts.reader, ACTOR,
                      lambda old, new: "old", on_filed=lambda reading, verdict, filed: seen.append((reading, verdict, filed)))
    matched = 0
    for reading, verdict, filed in seen:
        truth = truth_of({**reading.raw, "source": reading.source}, by_path)
        matched += truth is not None
        tally.add(reading, truth, bool(filed.review) or filed.outcome != "filed")
        decoding.add(done.decoder, verdict, truth.content() if truth else None, f"{reading.source}#{reading.slip_index}")
    tally.slips_unmatched += sum(len(p.slips) for p in pages) - matched  # drawn but never found on the page
    return tally, decoding


def _truth_correction(slip: Slip, pages: dict[str, RenderedPage]) -> dict[str, Any] | None:
    """What the arbiter reads on the slip itself, for each field the store holds differently."""
    truth = truth_of(slip.reading or {}, pages)
    if truth is None:
        return None
    written, held = truth.content(), slip.content
    out: dict[str, Any] = {}
    for name in FIELDS:
        if field_value(held, held.get("jokers") or [], name) != field_value(written, truth.jokers, name):
            out[name] = written[name]
            if name == "word":
                out["jokers"] = list(truth.jokers)
    if slip.table_no != truth.table:  # read right but unsure: the slip is not yet under its table
        out["table"] = truth.table
    return out


def _clear_queue(store: Store, game_id: int, number: int, pages: dict[str, RenderedPage],
                 learn: Path) -> tuple[int, int, int]:
    """The demo arbiter's pass over the round's queue: (readings corrected, items accepted, samples)."""
    corrected = accepted = samples = 0
    with store.session() as s:
        items = queue(s, game_id, number)
        slips = {e.slip_id: s.get(Slip, e.slip_id) for e in items if e.slip_id}
        fixes = {e.item_id: _truth_correction(slips[e.slip_id], pages)
                 for e in items if e.kind == "reading" and slips.get(e.slip_id) is not None}
    for e in items:
        fix = fixes.get(e.item_id)
        if fix:
            samples += len(resolve(store, e.item_id, e.version, ACTOR, fix, "read from the slip image", learn))
            corrected += 1
        elif e.kind == "reading" and fix is None and e.table is None and e.slip_id is not None:
            with store.session() as s:  # nothing of a player's slip on it: never counted
                discard_slip(s, get_game(s, game_id), e.slip_id, "not-a-slip", ACTOR, "no slip on the image")
            accepted += 1
        else:
            why = "the reading matches the slip" if e.kind == "reading" else "the judge's decision stands"
            resolve(store, e.item_id, e.version, ACTOR, None, why)
            accepted += 1
    return corrected, accepted, samples


def run_demo(out: Path, samples: Path = SAMPLES, options: DemoOptions | None = None) -> Iterator[str]:
    opts = options or DemoOptions.from_sample(samples)
    started = time.monotonic()
    store, db = _fresh_store(out)
    game_id, spec, seated = _setup(store, samples, opts)
    yield f"store: {db}"
    yield (f"game {game_id}: {spec['name']}, {seated} players seated; word list {spec['words']} "
           f"({spec['words_note']}); draws from seed {opts.seed}; {opts.rounds} rounds")
    learn = out / "reader-samples"
    total, decoded = ReadTally(), DecodeTally()
    pages_all: dict[str, RenderedPage] = {}
    truth_log = []
    deck = MistakeDeck(random.Random(opts.seed))
    for number in range(1, opts.rounds + 1):
        slips, rack = _play(store, game_id, number, opts, deck)
        pages = render_round(slips.slips, out / "scans", number, opts.seed, opts.per_page)
        pages_by_path = {str(p.path.resolve()): p for p in pages}
        pages_all.update(pages_by_path)
        truth_log += [{"round": number, "page": str(p.path), "cell": k, "mistake": t.mistake, "intended": t.intended,
                       **t.content()} for p in pages for k, t in enumerate(p.slips)]
        mistakes = sorted(t.mistake for t in slips.slips if t.mistake) + ["missing_slip"] * len(slips.missing)
        yield (f"round {number}: group {rack}; {len(slips.slips)} slips on {len(pages)} scanned pages"
               + (f"; written with mistakes: {', '.join(mistakes)}" if mistakes else ""))
        tally, decoding = _scan(store, game_id, number, pages, opts)
        total.merge(tally)
        decoded.merge(decoding)
        yield f"round {number}: {tally.summary()}"
        yield f"round {number}: {decoding.summary()}"
        with store.session() as s:
            game = get_game(s, game_id)
            score, found = retain_continuation(s, game, get_round(s, game, number), "top", ACTOR)
            top = get_round(s, game, number).continuation
        yield f"round {number}: top {top} = {score}" + "".join(f"; equal top {t}" for t in found.equal_tops)
        fixed = accepted = learned = stored = 0
        for attempt in range(MAX_REVIEW_PASSES):  # readings are reviewed before the judge sees them
            c, a, n = _clear_queue(store, game_id, number, pages_by_path, learn)
            fixed, accepted, learned = fixed + c, accepted + a, learned + n
            if attempt and c + a == 0:
                break
            stored += correct_round(store, game_id, number, ACTOR).counts["changed"]
        yield (f"round {number}: review — {fixed} slips corrected from the image, {accepted} items accepted "
               f"({learned} corrected fields kept for the reader); {stored} decisions stored; "
               f"no slip from tables: {', '.join(map(str, missing_tables(store, game_id, number))) or 'none'}")
        with store.session() as s:
            game = get_game(s, game_id)
            lines = close_round(s, game, get_round(s, game, number), ACTOR).lines
        yield from (f"  {line}" for line in lines)
    with store.session() as s:
        game = get_game(s, game_id)
        files = write_exports(s, game, out, "demo")
        waiting = queue(s, game_id)
    (out / "truth.jsonl").write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in truth_log),
                                     encoding="utf-8")
    (out / "scan-check.json").write_text(json.dumps(asdict(total), indent=1, ensure_ascii=False) + "\n",
                                         encoding="utf-8")
    yield f"all rounds, {total.summary()}"
    yield f"all rounds, {decoded.summary()}"
    for line in decoded.wrong:
        yield f"  decided wrong: {line}"
    for line in total.wrong:
        yield f"  wrong yet accepted: {line}"
    yield "written: " + ", ".join(map(str, files)) + f"; slip images in {out / 'scans'}"
    for entry in waiting:
        yield f"waits for review: round {entry.round}, {entry.source}: {entry.reason}"
    yield f"done in {time.monotonic() - started:.0f} s"
