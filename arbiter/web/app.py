"""The Flask application: routes only. Each write calls one workflow function of `arbiter`
(review.resolve, claims.claim/release, results.add_appeal + judging.rejudge, correction.correct_round /
close_round) and reports its error, if any, as the CLI would, in one line.

Every path and parameter is checked before the store sees it (security.IdConverter, whole_arg):
a bad one is a 400 or a 404 page in the arbiter's language, never a failure of the server. Every
review item named in a path belongs to the game served, or it is a 404. When the store's
connections are all in use for longer than a bounded wait, the answer is a 503 "busy, try again"."""
from __future__ import annotations

import io
import secrets
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from flask import (Flask, Response, abort, flash, g, jsonify, redirect, render_template, request, send_file,
                   session, url_for)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException

from exitcodes import FluturasError

from ..review import claims
from .. import words
from ..store.audit import entries
from ..round.correction import close_round, correct_round
from ..errors import ReviewConflict, WorkflowError
from ..store.games import get_game, get_round
from ..round.judging import rejudge
from ..store.models import ReviewItem, Slip
from ..results.results import APPEAL_KINDS, add_appeal, ranking
from ..review.review import check_resolution, resolve
from ..store.store import Store
from . import security
from .board import board_view
from .desk import refused, said
from .i18n import LANGS, Words, text
from .pages import hall_page, player_rounds, round_page
from .queue import cards, correction_from, current_round, parse_correction, preview_decision
from .slipcrop import crop, image_path

HERE = Path(__file__).resolve().parent
BUSY_RETRY_SECONDS = 2


def undo_action(name: str):
    """`review.discard_slip` / `review.move_slip`: the queue offers them once the library has them."""
    from ..review import review

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

    @app.before_request
    def _same_game():
        """A review item named in the path is one of the game served (as the CLI's --game)."""
        item_id = (request.view_args or {}).get("item_id")
        if item_id is None:
            return None
        with store.session() as s:
            owner = s.get(ReviewItem, item_id)
            if owner is None or owner.game_id != game_of(s).id:
                abort(404)
        return None

    @app.context_processor
    def _helpers() -> dict[str, Any]:
        return {"t": lambda key: text(key, g.lang), "w": Words(g.lang), "lang": g.lang, "csrf": security.csrf_token(),
                "arbiter": security.arbiter(), "can_discard": undo_action("discard_slip") is not None,
                "can_move": undo_action("move_slip") is not None, "refusal": shown_refusal}

    def shown_refusal(found: Any) -> str:
        """A judge's reason (its own Romanian and English) or a library refusal, in the page's words."""
        if hasattr(found, "message"):
            return found.message(g.lang)
        return words.refusal(str(found), g.lang)

    def actor() -> str:
        name = security.arbiter()
        if not name:
            abort(403, description=text("no_arbiter", g.lang))
        return name

    def back(default: str) -> str:
        return security.safe_next(request.values.get("next"), default)

    def described(exc: HTTPException) -> str:
        """A refusal's description: the page's own words, or the library's made the page's."""
        shown = exc.description or ""
        return words.refusal(shown, g.lang) if words.refusals.known(shown) else shown

    @app.errorhandler(403)
    def _forbidden(exc):
        return render_template("message.html", title="403", message=described(exc)), 403

    @app.errorhandler(400)
    def _bad_request(exc):
        return render_template("message.html", title=text("bad_request", g.lang), message=described(exc)), 400

    @app.errorhandler(404)
    @app.errorhandler(405)
    def _not_found(exc: HTTPException):
        return render_template("message.html", title=str(exc.code), message=text("not_found", g.lang)), exc.code

    @app.errorhandler(PoolTimeout)
    def _busy(_exc):  # every connection of the store's pool in use past the bounded wait
        page = render_template("message.html", title="503", message=text("busy", g.lang))
        return page, 503, {"Retry-After": str(BUSY_RETRY_SECONDS)}

    @app.errorhandler(FluturasError)
    def _workflow_error(exc):  # no game yet, a round not laid out...: one line, as the CLI says it
        return render_template("message.html", title=text("problem", g.lang), message=said(exc)), 409

    @app.errorhandler(401)
    def _unauthorized(exc):
        return render_template("login.html", need_token=True), 401

    @app.get("/")
    def index():
        return redirect(url_for("queue_page"))

    @app.route("/login", methods=["GET", "POST"])
    def login():
        """The arbiter's name (checked as the audit log checks it) and, beyond loopback, the
        access token the server printed: typed here, or brought by the link's `?token=`."""
        token = app.config["ACCESS_TOKEN"]
        if request.method == "POST":
            if token and not (session.get("authed") or security.token_matches(request.form.get("token"), token)):
                flash(text("wrong_token", g.lang), "error")
                return render_template("login.html", need_token=True, error=True), 401
            session["authed"] = True
            name = request.form.get("name", "")
            if name.strip():
                try:
                    session["arbiter"] = security.arbiter_name(name)
                except WorkflowError as exc:
                    flash(said(exc), "error")
                    return render_template("login.html", need_token=False), 400
            return redirect(back(url_for("queue_page")))
        return render_template("login.html", need_token=bool(token) and not session.get("authed"))

    # --- the queue ------------------------------------------------------------------------------

    def tables_filter() -> tuple[int, int] | None:
        raw = request.values.get("tables", "").strip()
        lo, sep, hi = raw.partition("-")
        digits = lambda text: text.isascii() and text.isdigit() and len(text) <= 9  # noqa: E731 ('²' is a digit to isdigit)
        if digits(lo) and (digits(hi) or not sep):
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
            number = security.whole_arg("round") or current_round(s, game)
            found = cards(s, game, number, tables_filter()) if number else []
            chosen = security.whole_arg("item")
            free = [c for c in found if c.claimed_by in (None, security.arbiter())]  # not another arbiter's
            card = next((c for c in found if c.entry.item_id == chosen), (free or found or [None])[0])
            board = None
            if card is not None and game.kind == "duplicate":
                board = _card_board(s, game, card)
            return render_template("queue.html", game=game, number=number, cards=found, card=card, board=board,
                                   tables=request.args.get("tables", ""), preview=None)

    def _card_board(s, game, card, content: dict[str, Any] | None = None):
        from corrector.rulepack import load_pack

        from ..store.games import board_before

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
            flash(said(WorkflowError(f"review item {item_id}: no longer open")), "error")
        return game, card

    def _claim_or_refuse(item_id: int, who: str) -> bool:
        try:
            claims.claim(store, item_id, who, game_id=_game_id())
            return True
        except FluturasError as exc:
            refused(exc)
            return False

    @app.post("/queue/<id:item_id>/claim")
    def claim_item(item_id: int):
        who = actor()
        try:
            held = claims.claim(store, item_id, who, game_id=_game_id())
        except FluturasError as exc:
            return jsonify(ok=False, message=said(exc)), 409
        return jsonify(ok=True, by=held.by, version=held.version)

    @app.post("/queue/<id:item_id>/skip")
    def skip_item(item_id: int):
        """Give the item back and show the next one in the queue's order."""
        claims.release(store, item_id, actor())
        with store.session() as s:
            game = game_of(s)
            order = [c.entry.item_id for c in cards(s, game, security.whole_arg("round") or current_round(s, game),
                                                    tables_filter())]
        later = order[order.index(item_id) + 1:] if item_id in order else []
        return redirect(queue_url(item=(later or order or [None])[0]))

    def _resolve(item_id: int, correction: dict[str, Any], reason: str):
        who = actor()
        if not _claim_or_refuse(item_id, who):
            return redirect(back(queue_url(item=item_id)))
        try:
            resolve(store, item_id, security.whole_arg("version", 0) or 0, who, correction, reason, learn)
        except ReviewConflict as exc:
            refused(exc)
            return redirect(back(queue_url()))
        except FluturasError as exc:
            refused(exc)
            return redirect(back(queue_url(item=item_id)))
        claims.release(store, item_id, who)
        flash(f"{text('saved', g.lang)}: #{item_id}" + (f" ({words.summary(correction, g.lang)})" if correction else ""), "ok")
        return redirect(back(queue_url()))

    @app.post("/queue/<id:item_id>/accept")
    def accept_item(item_id: int):
        index = security.whole_arg("candidate", 0)
        correction: dict[str, Any] = {}
        reason = "the reading matches the slip"
        if index is not None:
            with store.session() as s:
                _game, card = _find(s, item_id)
            if card is None or not 0 <= index < len(card.candidates):
                return redirect(back(queue_url()))
            correction = correction_from(card.entry.content, card.candidates[index]["reading"])
            if card.entry.table is None and card.candidates[index]["reading"].get("table") is not None:
                correction["table"] = card.candidates[index]["reading"]["table"]  # read unsure: filed under none yet
            reason = f"candidate {index + 1} (p={card.candidates[index].get('probability')}) read from the slip image"
        return _resolve(item_id, correction, reason)

    def _typed() -> dict[str, Any]:
        return parse_correction(request.form.get("fields", ""))

    @app.post("/queue/<id:item_id>/preview")
    def preview_item(item_id: int):
        """The decision the typed correction would give, checked by the very code that saves it
        (review.check_resolution, rolled back): what the preview refuses, saving refuses."""
        who = actor()
        try:
            number, content = check_resolution(store, item_id, who, _typed(), _game_id())
        except FluturasError as exc:
            refused(exc)
            return redirect(queue_url(item=item_id))
        with store.session() as s:
            game, card = _find(s, item_id)
            if card is None:
                return redirect(queue_url())
            try:
                decision = preview_decision(s, game, number, content)
            except FluturasError as exc:
                refused(exc)
                return redirect(queue_url(item=item_id))
            found = cards(s, game, card.entry.round, tables_filter())
            return render_template("queue.html", game=game, number=card.entry.round, cards=found, card=card,
                                   board=_card_board(s, game, card, content), tables=request.values.get("tables", ""),
                                   preview={"fields": request.form.get("fields", ""), "content": content,
                                            "decision": decision, "version": request.form.get("version")})

    @app.get("/queue/<id:item_id>/preview")
    def preview_left(item_id: int):
        """A preview is a POST; leaving it (Esc, reload, back) lands on the item in the queue."""
        return redirect(queue_url(item=item_id))

    @app.post("/queue/<id:item_id>/save")
    def save_item(item_id: int):
        try:
            correction = _typed()
        except FluturasError as exc:
            refused(exc)
            return redirect(queue_url(item=item_id))
        return _resolve(item_id, correction, request.form.get("reason") or "read from the slip image")

    @app.post("/queue/<id:item_id>/discard")
    def discard_item(item_id: int):
        """Not a slip, or a second scan of the same paper (`review.discard_slip`, where this tree has it)."""
        kind = request.form.get("as", "")
        return _slip_action(item_id, "discard_slip", (kind,), f"discarded as {kind}",
                            text("duplicate" if kind == "duplicate" else "not_a_slip", g.lang))

    @app.post("/queue/<id:item_id>/move")
    def move_item(item_id: int):
        """File the slip in the round it belongs to (`review.move_slip`, where this tree has it)."""
        number = security.whole_arg("round")
        return _slip_action(item_id, "move_slip", (number,), f"moved to round {number}",
                            f"{text('move_round', g.lang)} {number}")

    def _slip_action(item_id: int, name: str, extra: tuple[Any, ...], done: str, shown: str):
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
                if card.entry.version != security.whole_arg("version", 0):
                    raise ReviewConflict(f"review item {item_id} changed since it was shown; look at it again")
                action(s, game, card.entry.slip_id, *extra, who, request.form.get("reason") or done)
        except FluturasError as exc:
            refused(exc)
            return redirect(back(queue_url(item=item_id)))
        claims.release(store, item_id, who)
        flash(f"{text('saved', g.lang)}: {shown}", "ok")
        return redirect(back(queue_url()))

    @app.get("/slip/<id:slip_id>.png")
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
                rnd = get_round(s, game, security.whole_arg("round"))
            except FluturasError as exc:
                return render_template("message.html", title=text("round", g.lang), message=said(exc))
            return render_template("round.html", game=game, page=round_page(s, game, rnd))

    @app.post("/round/<id:number>/correct")
    def round_correct(number: int):
        try:
            done = correct_round(store, _game_id(), number, actor())
            flash(words.corrected(done.round, done.counts, done.held, g.lang), "ok")
        except FluturasError as exc:
            refused(exc)
        return redirect(url_for("round_view", round=number))

    @app.post("/round/<id:number>/close")
    def round_close(number: int):
        who = actor()
        try:
            with store.session() as s:
                game = game_of(s)
                close_round(s, game, get_round(s, game, number), who)
        except FluturasError as exc:
            refused(exc)
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
            from ..store.games import players, rounds

            return render_template("results.html", game=game, ranking=ranking(s, game), kinds=APPEAL_KINDS,
                                   seats=players(s, game), rounds=rounds(s, game))

    @app.get("/results/<id:table>")
    def player_view(table: int):
        with store.session() as s:
            game = game_of(s)
            from ..store.games import players

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
                    change[key] = security.whole_arg(key, 0)
            with store.session() as s:
                game = game_of(s)
                row = add_appeal(s, game, security.whole_arg("table"), security.whole_arg("round"), form.get("kind", ""),
                                 form.get("reason", ""), who, datetime.now().astimezone(), change)
                status, appeal_id = row.status, row.id
                # the totals follow in the same transaction, as on the CLI: an appeal the judge
                # refuses is not stored either
                rejudge(s, game, who, "appeal")
            flash(words.appeal_filed(appeal_id, status, g.lang), "ok")
        except FluturasError as exc:
            refused(exc)
        return redirect(back(url_for("results_view")))

    @app.get("/audit")
    def audit_view():
        with store.session() as s:
            game = game_of(s)
            return render_template("audit.html", game=game, entries=list(reversed(entries(s, game.id)))[:1000])

    @app.get("/export/<kind>")
    def export(kind: str):
        from openpyxl.utils.exceptions import IllegalCharacterError

        from ..results.exports import gather, write_csv, write_html, write_xlsx

        writers = {"xlsx": lambda s, game, p: write_xlsx(s, game, p), "csv": lambda s, game, p: write_csv(gather(s, game), p),
                   "html": lambda s, game, p: write_html(s, game, p)}
        if kind not in writers:
            abort(404)
        with tempfile.TemporaryDirectory(prefix="fluturas-export-") as folder, store.session() as s:
            game = game_of(s)
            try:
                path = writers[kind](s, game, Path(folder) / f"game{game.id}.{kind}")
            except IllegalCharacterError as exc:  # a name or reason stored with a control character
                shown = "".join(ch if ch.isprintable() else "\ufffd" for ch in str(exc))
                return render_template("message.html", title=text("export_failed", g.lang), message=shown), 409
            data = io.BytesIO(path.read_bytes())
        return send_file(data, as_attachment=True, download_name=path.name)

    from .steps import register_steps  # the game, its seating, the round's desk, the pile, the grid

    register_steps(app, store, game_id, learn, image_roots)
    return app
