"""The round's desk: the steps of `round set-rack` / `round draw`, `round set-top` (every equal top
and the list of every legal move), `template print` for the round, `round scan` (upload.py),
`round correct`, `round close` (asked twice), `results provisional` / `results final`, in one
page, each through the library function the command calls."""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from flask import Flask, flash, g, redirect, render_template, request, send_file, url_for

from exitcodes import FluturasError

from ..round.correction import close_round, correct_round
from ..round.draw import draw_round
from ..store.games import board_before, get_round, require_kind, rounds
from ..round.rack import set_rack
from ..store.models import Game, Round
from ..results.results import finalise, parse_deadline, publish
from ..round.tops import RoundTops, round_tops
from ..store.validation import blockers
from .board import BoardView, board_view
from .desk import Desk, actor, refused
from .i18n import text
from .pages import RoundStatus, round_page


@dataclass(frozen=True)
class MoveRow:
    """One legal move of the round's group: what a slip would say and what it scores."""

    position: str
    word: str
    score: int
    top: bool

    @property
    def text(self) -> str:
        return f"{self.position} {self.word}"


@dataclass(frozen=True)
class DayView:
    round: Round | None
    next_number: int  # the round a new group opens
    status: RoundStatus | None
    board: BoardView | None
    tops: RoundTops | None
    moves: tuple[MoveRow, ...]
    problem: str | None


@lru_cache(maxsize=4)
def _lexicon(path: str, sha: str | None, rules: str, label: str | None):
    """The word list once per process (checked against its stored sha256 by `verify_wordlist`)."""
    from corrector.rulepack import load_pack
    from corrector.words.lexicon import load_lexicon

    return load_lexicon(path, load_pack(rules), label=label)


def legal_moves(session, game: Game, rnd: Round) -> tuple[MoveRow, ...]:
    """Every legal move of the group on the round's board, best first (the move generator's order)."""
    from corrector.rulepack import load_pack
    from corrector.words.movegen import generate_moves

    from ..store.games import verify_wordlist

    pack = load_pack(game.rules)
    lexicon = _lexicon(verify_wordlist(game), game.wordlist_sha256, game.rules, game.wordlist_label)
    found = generate_moves(board_before(session, game, rnd.number, pack), pack.tiles.parse_rack(rnd.rack), pack, lexicon)
    best = found[0].score if found else None
    return tuple(MoveRow(p.position.frs(), p.word, p.score, p.score == best) for p in found)


def day_view(session, game: Game, number: int | None) -> DayView:
    all_rounds = rounds(session, game)
    rnd = get_round(session, game, number) if number is not None else (all_rounds[-1] if all_rounds else None)
    next_number = (all_rounds[-1].number + 1) if all_rounds else 1
    if rnd is None:
        return DayView(None, next_number, None, None, None, (), None)
    status = round_page(session, game, rnd).status
    board = tops = None
    moves: tuple[MoveRow, ...] = ()
    problem = None
    if game.kind == "duplicate":
        try:
            from corrector.rulepack import load_pack

            pack = load_pack(game.rules)
            position, _, word = (rnd.continuation or "").partition(" ")
            board = board_view(board_before(session, game, rnd.number, pack), pack, position or None, word or None)
            if not rnd.continuation:  # once retained, the round keeps its top and equal tops itself
                tops = round_tops(session, game, rnd)
            if game.variant != "tactic":
                moves = legal_moves(session, game, rnd)
        except FluturasError as exc:
            problem = str(exc)
    return DayView(rnd, next_number, status, board, tops, moves, problem)


def register(app: Flask, desk: Desk) -> None:
    store = desk.store

    def back(number: int | None = None):
        return redirect(url_for("day_page", round=number) if number else url_for("day_page"))

    @app.get("/day")
    def day_page():
        with store.session() as s:
            game = desk.game(s)
            view = day_view(s, game, request.args.get("round", type=int))
            return render_template("day.html", game=game, view=view)

    @app.post("/day/rack")
    def day_rack():
        who = actor()
        number = request.form.get("round", type=int)
        try:
            with store.session() as s:
                game = desk.game(s)
                require_kind(game, "duplicate", "round set-rack")
                rnd = set_rack(s, game, request.form.get("letters", "").strip(), who, number,
                               reason=request.form.get("reason") or None)
                number = rnd.number
            flash(f"{text('round', g.lang)} {number}: {text('group', g.lang)} {request.form.get('letters', '').strip().upper()}", "ok")
        except FluturasError as exc:
            refused(exc)
        return back(number)

    @app.post("/day/draw")
    def day_draw():
        who = actor()
        number = None
        try:
            with store.session() as s:
                game = desk.game(s)
                require_kind(game, "duplicate", "round draw")
                rnd, _lines = draw_round(s, game, who)
                number, rack = rnd.number, rnd.rack
            flash(f"{text('round', g.lang)} {number}: {text('group', g.lang)} {rack}", "ok")
        except FluturasError as exc:
            refused(exc)
        return back(number)

    @app.post("/day/<int:number>/top")
    def day_top(number: int):
        from ..round.tops import retain_continuation

        who = actor()
        try:
            with store.session() as s:
                game = desk.game(s)
                require_kind(game, "duplicate", "round set-top")
                score, _found = retain_continuation(s, game, get_round(s, game, number), request.form.get("move") or "top", who)
                move = get_round(s, game, number).continuation
            flash(f"{text('continuation', g.lang)}: {move} = {score}", "ok")
        except FluturasError as exc:
            refused(exc)
        return back(number)

    @app.get("/day/<int:number>/slips.pdf")
    def day_slips(number: int):
        """The round's pre-filled slips (`template print --rounds N`), one per seated player."""
        from scanner.printing import render_sheets
        from scanner.template import load_template

        from ..results.prefill import form_for, prefills

        with store.session() as s:
            game = desk.game(s)
            get_round(s, game, number)
            records = prefills(s, game, [number])
            template = load_template(form_for(game))
        buffer = io.BytesIO()
        render_sheets(template, buffer, 0, records)
        buffer.seek(0)
        return send_file(buffer, mimetype="application/pdf", as_attachment=True,
                         download_name=f"fluturasi-runda{number:02d}.pdf")

    @app.post("/day/<int:number>/correct")
    def day_correct(number: int):
        who = actor()
        try:
            with store.session() as s:
                gid = desk.game(s).id
            done = correct_round(store, gid, number, who)
            flash(f"{text('round', g.lang)} {done.round}: {text('corrected', g.lang)} — "
                  f"{done.counts.get('changed', 0)} {text('changed', g.lang)}, {done.counts.get('flagged', 0)} "
                  f"{text('sent_to_review', g.lang)}", "ok")
        except FluturasError as exc:
            refused(exc)
        return back(number)

    @app.post("/day/<int:number>/close")
    def day_close(number: int):
        """Asked first (what still waits is listed), closed only on the second, confirmed post."""
        who = actor()
        with store.session() as s:
            game = desk.game(s)
            rnd = get_round(s, game, number)
            if request.form.get("confirm") != "1":
                return render_template("confirm_close.html", game=game, rnd=rnd,
                                       waiting=blockers(s, game, round_id=rnd.id))
        try:
            with store.session() as s:
                game = desk.game(s)
                found = close_round(s, game, get_round(s, game, number), who)
                lines = found.lines
            flash(f"{text('round', g.lang)} {number}: {text('closed', g.lang)}", "ok")
            for line in lines:  # read aloud to the hall in the rulebook's Romanian words
                flash(line, "ok announce")
        except FluturasError as exc:
            refused(exc)
        return back(number)

    @app.post("/day/results/<stage>")
    def day_publish(stage: str):
        who = actor()
        now = datetime.now().astimezone()
        try:
            if stage == "provisional":
                with store.session() as s:
                    publish(s, desk.game(s), "provisional", who,
                            deadline=parse_deadline(request.form.get("deadline", "").strip(), now))
            elif stage == "final":
                with store.session() as s:
                    gid = desk.game(s).id
                finalise(store, gid, who, now, request.form.get("force") or None)
            else:
                return back()
            flash(text(f"published_{stage}", g.lang), "ok")
        except FluturasError as exc:
            refused(exc)
            return back()
        return redirect(url_for("results_view"))

