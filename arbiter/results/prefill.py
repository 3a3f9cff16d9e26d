"""Pre-filled slip sets from the stored seating (`template print --game G --rounds 1-15`): one
plain `scanner.printing.Prefill` record per player per round, so the scanner prints them without
knowing the store (it never imports `arbiter`), and no arbiter types a 900-row CSV by hand."""
from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from scanner.printing import Prefill

from ..errors import WorkflowError
from ..store.games import players
from ..store.models import Game, Tournament

MAX_ROUNDS = 99  # TUR has two boxes on every form


def parse_rounds(text: str) -> list[int]:
    """'1-15', '3', '1-5,8' → the round numbers, in order, each once."""
    out: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        low, sep, high = part.partition("-")
        try:
            first, last = int(low), int(high if sep else low)
        except ValueError as exc:
            raise WorkflowError(f"--rounds {text!r}: expected N, N-M or a list of them, e.g. 1-15") from exc
        if not 1 <= first <= last <= MAX_ROUNDS:
            raise WorkflowError(f"--rounds {text!r}: rounds run from 1 to {MAX_ROUNDS}, first before last")
        out += [n for n in range(first, last + 1) if n not in out]
    return out


def prefills(session: Session, game: Game, round_numbers: list[int]) -> list[Prefill]:
    """Round by round (the order the slips are handed out), table by table within a round."""
    seated = players(session, game)
    if not seated:
        raise WorkflowError(f"game {game.id} has no players yet: import the seating with `fluturas players import`")
    tournament = session.get(Tournament, game.tournament_id)
    label = f"{tournament.name} — {game.name}" if tournament else game.name
    return [Prefill(str(game.id), n, p.table_no, p.name, label) for n in round_numbers for p in seated]


def form_for(game: Game) -> str:
    """The slip form a game's players write on (templates/README.md)."""
    if game.kind == "anticipation":
        return "anticipatie"
    return "tactic" if game.variant == "tactic" else "duplicat"


def print_slip_set(db: str, game_id: int | None, rounds_text: str, out: Path, form: str | None = None) -> tuple[int, int, str]:
    """The PDF of pre-filled slips of a stored game's seating for the rounds asked: returns
    (slips, pages, template id). The file is replaced only once complete."""
    from scanner.printing import render_sheets
    from scanner.template import load_template

    from ..store.games import get_game
    from .sheetkit import replace_when_done
    from ..store.store import open_store

    numbers = parse_rounds(rounds_text)
    with open_store(db).session() as s:
        game = get_game(s, game_id)
        records = prefills(s, game, numbers)
        template = load_template(form or form_for(game))
    pages: list[int] = []
    replace_when_done(out, lambda tmp: pages.append(render_sheets(template, tmp, 0, records)))
    return len(records), pages[0], template.id
