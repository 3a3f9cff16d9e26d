"""The Flask application: routes only. Each write calls one workflow function of `arbiter`
(review.resolve, claims.claim/release, results.add_appeal, correction.correct_round / recorrect /
close_round) and reports its error, if any, as the CLI would, in one line."""
from __future__ import annotations

import io
import secrets
import shlex
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from flask import (Flask, Response, abort, flash, g, jsonify, redirect, render_template, request, send_file,
                   session, url_for)

from exitcodes import FluturasError

from .. import claims, words
from ..audit import entries
from ..correction import close_round, correct_round, recorrect
from ..errors import ReviewConflict
from ..games import get_game, get_round
from ..models import Slip
from ..results import APPEAL_KINDS, add_appeal, ranking
from ..review import resolve
from ..store import Store
from . import security
from .board import board_view
from .i18n import LANGS, Words, text
from .pages import hall_page, player_rounds, round_page
from .queue import cards, correction_from, current_round, preview_decision
from .slipcrop import crop, image_path

HERE = Path(__file__).resolve().parent


def undo_action(name: str):
    """`review.discard_slip` / `review.move_slip`: the queue offers them once the library has them."""
    from .. import review

    return getattr(review, name, None)


def create_app(store: Store, game_id: int | None = None, access_token: str | None = None,
               learn: Path | None = None, image_roots: tuple[Path, ...] = ()) -> Flask:
    """The app on an open store. `access_token` (set when listening beyond loopback) guards every
    page but the hall; `learn` is where corrected fields go for the reader (as `fluturas review`)."""
    app = Flask(__name__, template_folder=str(HERE / "templates"), static_folder=str(HERE / "static"))
    app.config.update(SECRET_KEY=secrets.token_bytes(32), ACCESS_TOKEN=access_token,
                      SESSION_COOKIE_SAMESITE="Strict", SESSION_COOKIE_HTTPONLY=True)

    @app.before_request
    def _lang():
        chosen = request.args.get("lang")
        if chosen in LANGS:
            session["lang"] = chosen
        g.lang = session.get("lang", "ro")

    security.install(app)  # after the language: its refusals are pages in the arbiter's language

    def game_of(s):
        return get_game(s, game_id)

    @app.context_processor
    def _helpers() -> dict[str, Any]:
        return {"t": lambda key: text(key, g.lang), "w": Words(g.lang), "lang": g.lang, "csrf": security.csrf_token(),
                "arbiter": security.arbiter(), "can_discard": undo_action("discard_slip") is not None,
                "can_move": undo_action("move_slip") is not None}

    def actor() -> str:
        name = security.arbiter()
        if not name:
            abort(403, description=text("no_arbiter", g.lang))
        return name

    def back(default: str) -> str:
        target = request.form.get("next") or default
        return target if target.startswith("/") and not target.startswith("//") else default

    @app.errorhandler(403)
    def _forbidden(exc):
        return render_template("message.html", title="403", message=exc.description), 403

    @app.errorhandler(FluturasError)
    def _workflow_error(exc):  # no game yet, a round not laid out...: one line, as the CLI says it
        return render_template("message.html", title=type(exc).__name__, message=str(exc)), 409

    @app.errorhandler(401)
    def _unauthorized(exc):
        return render_template("login.html", need_token=True), 401

    @app.get("/")
    def index():
        return redirect(url_for("queue_page"))

    @app.route("/login", methods=["GET", "POST"])
    def login():
        if request.method == "POST":
            name = request.form.get("name", "").strip()
            token = app.config["ACCESS_TOKEN"]
            if token and not (session.get("authed") or secrets.compare_digest(request.form.get("token", ""), token)):
                return render_template("login.html", need_token=True, error=True), 401
            session["authed"] = True
            if name:
                session["arbiter"] = name[:100]
            return redirect(back(url_for("queue_page")))
        return render_template("login.html", need_token=bool(app.config["ACCESS_TOKEN"]) and not session.get("authed"))

    # --- the queue ------------------------------------------------------------------------------

    def tables_filter() -> tuple[int, int] | None:
        raw = request.values.get("tables", "").strip()
        lo, sep, hi = raw.partition("-")
        if lo.isdigit() and (hi.isdigit() or not sep):
            return int(lo), int(hi or lo)
        return None

    def queue_url(**extra: Any) -> str:
        args = {k: request.values.get(k) for k in ("round", "tables") if request.values.get(k)}
        args.update({k: v for k, v in extra.items() if v is not None})
        return url_for("queue_page", **args)

    @app.get("/queue")
    def queue_page():
        with store.session() as s:
            game = game_of(s)
            number = request.args.get("round", type=int) or current_round(s, game)
            found = cards(s, game, number, tables_filter()) if number else []
            chosen = request.args.get("item", type=int)
            free = [c for c in found if c.claimed_by in (None, security.arbiter())]  # not another arbiter's
            card = next((c for c in found if c.entry.item_id == chosen), (free or found or [None])[0])
            board = None
            if card is not None and game.kind == "duplicate":
                board = _card_board(s, game, card)
            return render_template("queue.html", game=game, number=number, cards=found, card=card, board=board,
                                   tables=request.args.get("tables", ""), preview=None)

    def _card_board(s, game, card, content: dict[str, Any] | None = None):
        from corrector.rulepack import load_pack

        from ..games import board_before

        pack = load_pack(game.rules)
        try:
            before = board_before(s, game, card.entry.round, pack)
        except FluturasError:
            return None
        shown = content or (card.candidates[0]["reading"] if card.candidates else card.entry.content) or {}
        return board_view(before, pack, shown.get("position"), shown.get("word"))

    def _find(s, item_id: int):
        game = game_of(s)
        found = cards(s, game, None)
        card = next((c for c in found if c.entry.item_id == item_id), None)
        if card is None:
            flash(f"review item {item_id}: no longer open")
        return game, card

    def _claim_or_refuse(item_id: int, who: str) -> bool:
        try:
            claims.claim(store, item_id, who)
            return True
        except FluturasError as exc:
            flash(f"{text('conflict', g.lang)}: {exc}", "error")
            return False

    @app.post("/queue/<int:item_id>/claim")
    def claim_item(item_id: int):
        who = actor()
        try:
            held = claims.claim(store, item_id, who)
        except FluturasError as exc:
            return jsonify(ok=False, message=str(exc)), 409
        return jsonify(ok=True, by=held.by, version=held.version)

    @app.post("/queue/<int:item_id>/skip")
    def skip_item(item_id: int):
        """Give the item back and show the next one in the queue's order."""
        claims.release(store, item_id, actor())
        with store.session() as s:
            game = game_of(s)
            order = [c.entry.item_id for c in cards(s, game, request.values.get("round", type=int) or current_round(s, game),
                                                    tables_filter())]
        later = order[order.index(item_id) + 1:] if item_id in order else []
        return redirect(queue_url(item=(later or order or [None])[0]))

    def _resolve(item_id: int, correction: dict[str, Any], reason: str):
        who = actor()
        if not _claim_or_refuse(item_id, who):
            return redirect(back(queue_url(item=item_id)))
        try:
            resolve(store, item_id, request.form.get("version", type=int) or 0, who, correction, reason, learn)
        except ReviewConflict as exc:
            flash(f"{text('conflict', g.lang)}: {exc}", "error")
            return redirect(back(queue_url()))
        except FluturasError as exc:
            flash(f"{text('conflict', g.lang)}: {exc}", "error")
            return redirect(back(queue_url(item=item_id)))
        claims.release(store, item_id, who)
        flash(f"{text('saved', g.lang)}: #{item_id}" + (f" ({words.summary(correction, g.lang)})" if correction else ""), "ok")
        return redirect(back(queue_url()))

    @app.post("/queue/<int:item_id>/accept")
    def accept_item(item_id: int):
        index = request.form.get("candidate", type=int)
        correction: dict[str, Any] = {}
        reason = "the reading matches the slip"
        if index is not None:
            with store.session() as s:
                _game, card = _find(s, item_id)
            if card is None or not 0 <= index < len(card.candidates):
                return redirect(back(queue_url()))
            correction = correction_from(card.entry.content, card.candidates[index]["reading"])
            reason = f"candidate {index + 1} (p={card.candidates[index].get('probability')}) read from the slip image"
        return _resolve(item_id, correction, reason)

    def _typed() -> dict[str, Any]:
        from .. commands.common import parse_fields

        return parse_fields(shlex.split(request.form.get("fields", "")))

    @app.post("/queue/<int:item_id>/preview")
    def preview_item(item_id: int):
        actor()
        with store.session() as s:
            game, card = _find(s, item_id)
            if card is None:
                return redirect(queue_url())
            try:
                correction = _typed()
                content = {**(card.entry.content or {}), **correction}
                decision = preview_decision(s, game, card.entry.round, content)
            except (FluturasError, click.BadParameter, ValueError) as exc:
                flash(f"{text('conflict', g.lang)}: {exc}", "error")
                return redirect(queue_url(item=item_id))
            found = cards(s, game, card.entry.round, tables_filter())
            return render_template("queue.html", game=game, number=card.entry.round, cards=found, card=card,
                                   board=_card_board(s, game, card, content), tables=request.values.get("tables", ""),
                                   preview={"fields": request.form.get("fields", ""), "content": content,
                                            "decision": decision, "version": request.form.get("version")})

    @app.post("/queue/<int:item_id>/save")
    def save_item(item_id: int):
        try:
            correction = _typed()
        except (click.BadParameter, ValueError) as exc:
            flash(f"{text('conflict', g.lang)}: {exc}", "error")
            return redirect(queue_url(item=item_id))
        return _resolve(item_id, correction, request.form.get("reason") or "read from the slip image")

    @app.post("/queue/<int:item_id>/discard")
    def discard_item(item_id: int):
        """Not a slip, or a second scan of the same paper (`review.discard_slip`, where this tree has it)."""
        kind = request.form.get("as", "")
        return _slip_action(item_id, "discard_slip", (kind,), f"discarded as {kind}")

    @app.post("/queue/<int:item_id>/move")
    def move_item(item_id: int):
        """File the slip in the round it belongs to (`review.move_slip`, where this tree has it)."""
        number = request.form.get("round", type=int)
        return _slip_action(item_id, "move_slip", (number,), f"moved to round {number}")

    def _slip_action(item_id: int, name: str, extra: tuple[Any, ...], done: str):
        who = actor()
        action = undo_action(name)
        if action is None:
            abort(404)
        if not _claim_or_refuse(item_id, who):
            return redirect(back(queue_url(item=item_id)))
        try:
            with store.session() as s:
                game, card = _find(s, item_id)
                if card is None or card.entry.slip_id is None:
                    return redirect(back(queue_url()))
                if card.entry.version != request.form.get("version", type=int):
                    raise ReviewConflict(f"review item {item_id} changed since it was shown; look at it again")
                action(s, game, card.entry.slip_id, *extra, who, request.form.get("reason") or done)
        except FluturasError as exc:
            flash(f"{text('conflict', g.lang)}: {exc}", "error")
            return redirect(back(queue_url(item=item_id)))
        claims.release(store, item_id, who)
        flash(f"{text('saved', g.lang)}: #{item_id} {done}", "ok")
        return redirect(back(queue_url()))

    @app.get("/slip/<int:slip_id>.png")
    def slip_image(slip_id: int):
        with store.session() as s:
            game = game_of(s)
            slip = s.get(Slip, slip_id)
            if slip is None or slip.game_id != game.id:
                abort(404)
            path = image_path(slip.source, image_roots)
            if path is None:
                abort(404)
            doubtful = {}
            if request.args.get("outline") == "1":
                with_cards = [c for c in cards(s, game, None) if c.entry.slip_id == slip_id]
                doubtful = with_cards[0].doubtful if with_cards else {}
            png = crop(path, dict(slip.reading or {}), doubtful)
        if png is None:
            abort(404)
        return Response(png, mimetype="image/png", headers={"Cache-Control": "private, max-age=60"})

    # --- the round ------------------------------------------------------------------------------

    @app.get("/round")
    def round_view():
        with store.session() as s:
            game = game_of(s)
            try:
                rnd = get_round(s, game, request.args.get("round", type=int))
            except FluturasError as exc:
                return render_template("message.html", title=text("round", g.lang), message=str(exc))
            return render_template("round.html", game=game, page=round_page(s, game, rnd))

    @app.post("/round/<int:number>/correct")
    def round_correct(number: int):
        try:
            done = correct_round(store, _game_id(), number, actor())
            flash(words.corrected(done.round, done.counts, done.held, g.lang), "ok")
        except FluturasError as exc:
            flash(str(exc), "error")
        return redirect(url_for("round_view", round=number))

    @app.post("/round/<int:number>/close")
    def round_close(number: int):
        who = actor()
        try:
            with store.session() as s:
                game = game_of(s)
                close_round(s, game, get_round(s, game, number), who)
        except FluturasError as exc:
            flash(str(exc), "error")
        return redirect(url_for("round_view", round=number))

    def _game_id() -> int:
        with store.session() as s:
            return game_of(s).id

    # --- the hall -------------------------------------------------------------------------------

    @app.get("/hall")
    def hall():
        with store.session() as s:
            game = game_of(s)
            return render_template("hall.html", game=game, page=hall_page(s, game))

    @app.get("/hall/state")
    def hall_state():
        with store.session() as s:
            page = hall_page(s, game_of(s))
            return jsonify(round=page.round.number if page.round else None, closed=page.closed)

    # --- results, appeals, audit, exports -------------------------------------------------------

    @app.get("/results")
    def results_view():
        with store.session() as s:
            game = game_of(s)
            from ..games import players, rounds

            return render_template("results.html", game=game, ranking=ranking(s, game), kinds=APPEAL_KINDS,
                                   seats=players(s, game), rounds=rounds(s, game))

    @app.get("/results/<int:table>")
    def player_view(table: int):
        with store.session() as s:
            game = game_of(s)
            from ..games import players

            seat = next((p for p in players(s, game) if p.table_no == table), None)
            if seat is None:
                abort(404)
            return render_template("player.html", game=game, seat=seat, rounds=player_rounds(s, game, table),
                                   kinds=APPEAL_KINDS)

    @app.post("/appeal")
    def appeal():
        who = actor()
        form = request.form
        try:
            change = {}
            if form.get("fields", "").strip():
                change.update(_typed())
            for key in ("score", "cap"):
                if form.get(key, "").strip():
                    change[key] = int(form[key])
            with store.session() as s:
                game = game_of(s)
                row = add_appeal(s, game, int(form.get("table", "")), form.get("round", type=int), form.get("kind", ""),
                                 form.get("reason", ""), who, datetime.now().astimezone(), change)
                gid, status, appeal_id = game.id, row.status, row.id
            recorrect(store, gid, who)
            flash(words.appeal_filed(appeal_id, status, g.lang), "ok")
        except (FluturasError, click.BadParameter, ValueError) as exc:
            flash(f"{text('conflict', g.lang)}: {exc}", "error")
        return redirect(back(url_for("results_view")))

    @app.get("/audit")
    def audit_view():
        with store.session() as s:
            game = game_of(s)
            return render_template("audit.html", game=game, entries=list(reversed(entries(s, game.id)))[:1000])

    @app.get("/export/<kind>")
    def export(kind: str):
        from ..exports import gather, write_csv, write_html, write_xlsx

        writers = {"xlsx": lambda s, game, p: write_xlsx(s, game, p), "csv": lambda s, game, p: write_csv(gather(s, game), p),
                   "html": lambda s, game, p: write_html(s, game, p)}
        if kind not in writers:
            abort(404)
        with tempfile.TemporaryDirectory(prefix="fluturas-export-") as folder, store.session() as s:
            game = game_of(s)
            path = writers[kind](s, game, Path(folder) / f"game{game.id}.{kind}")
            data = io.BytesIO(path.read_bytes())
        return send_file(data, as_attachment=True, download_name=path.name)

    return app
