"""Before the first round, in the browser: a new game (`game new`) and its seating (`players
import`, and one seat at a time: `players add/edit/remove`), through the same library calls."""
from __future__ import annotations

import tempfile
from pathlib import Path

from flask import Flask, flash, g, redirect, render_template, request, url_for
from werkzeug.utils import secure_filename

from exitcodes import FluturasError
from samples import SAMPLES

from ..store.games import ANTICIPATION_VARIANTS, CATEGORIES, KINDS, VARIANTS, GameSpec, new_game, players, seat_players
from ..store.players import SeatChange, add_player, edit_player, remove_player, slips_of
from ..store.seating import read_seating
from ..store.store import Store
from .desk import Desk, actor, refused
from .i18n import text

DEMO_WORDS = SAMPLES / "wordlists" / "ro-demo-hunspell.txt.gz"
RULE_PACKS = ("ro", "pl", "ca", "en", "fr")


def _game_or_none(store: Store, desk: Desk):
    from ..errors import StoreError

    with store.session() as s:
        try:
            return desk.game(s)
        except StoreError:
            return None


def register(app: Flask, desk: Desk) -> None:
    store = desk.store

    @app.route("/game/new", methods=["GET", "POST"])
    def game_new():
        if request.method == "POST":
            who = actor()
            form = request.form
            typed = form.get("words", "").strip()
            words = Path(typed).expanduser() if typed else DEMO_WORDS
            spec = GameSpec(form.get("tournament", "").strip(), form.get("name", "").strip(),
                            form.get("variant", "classic"), form.get("category", "senior"), form.get("rules", "ro"),
                            words, form.get("venue", "").strip() or None, None, form.get("kind", "duplicate"))
            try:
                with store.session() as s:
                    game = new_game(s, spec, who)
                    flash(f"{text('game_created', g.lang)}: {game.name}", "ok")
            except FluturasError as exc:
                refused(exc)
                return render_template("game_new.html", game=_game_or_none(store, desk), form=form, **_choices()), 400
            return redirect(url_for("players_page"))
        return render_template("game_new.html", game=_game_or_none(store, desk), form={}, **_choices())

    @app.get("/players")
    def players_page():
        with store.session() as s:
            game = desk.game(s)
            seats = [(p, slips_of(s, game, p.table_no)) for p in players(s, game)]
            return render_template("players.html", game=game, seats=seats)

    @app.post("/players/import")
    def players_import():
        who = actor()
        upload = request.files.get("seating")
        if upload is None or not upload.filename:
            flash(f"{text('conflict', g.lang)}: {text('choose_file', g.lang)}", "error")
            return redirect(url_for("players_page"))
        name = secure_filename(upload.filename) or "seating.csv"
        with tempfile.TemporaryDirectory(prefix="fluturas-seating-") as folder:
            path = Path(folder) / name
            upload.save(path)
            try:
                seats = read_seating(path, request.form.get("encoding") or None)
                with store.session() as s:
                    count = seat_players(s, desk.game(s), seats, who, upload.filename, bool(request.form.get("replace")))
                flash(f"{count} {text('players_seated', g.lang)}", "ok")
            except FluturasError as exc:  # the message names the file as the arbiter chose it
                refused(type(exc)(str(exc).replace(str(path), upload.filename)))
        return redirect(url_for("players_page"))

    def _seat_form() -> SeatChange:
        form = request.form
        return SeatChange(form.get("name"), form.get("club"), form.get("category"))

    @app.post("/players/add")
    def players_add():
        who = actor()
        try:
            table = int(request.form.get("table", ""))
            with store.session() as s:
                player = add_player(s, desk.game(s), table, _seat_form(), who, request.form.get("reason") or None)
                flash(f"{text('table', g.lang)} {table}: {player.name} — {text('saved', g.lang)}", "ok")
        except ValueError:
            typed = request.form.get("table", "")
            refused(f"{text('table', g.lang)} " + (f"„{typed}”" if g.lang == "ro" else f"“{typed}”")
                    + f": {text('table_number', g.lang)}")
        except FluturasError as exc:
            refused(exc)
        return redirect(url_for("players_page"))

    @app.post("/players/<int:table>/edit")
    def players_edit(table: int):
        who = actor()
        try:
            with store.session() as s:
                edit_player(s, desk.game(s), table, _seat_form(), who, request.form.get("reason") or None)
            flash(f"{text('table', g.lang)} {table}: {text('saved', g.lang)}", "ok")
        except FluturasError as exc:
            refused(exc)
        return redirect(url_for("players_page"))

    @app.post("/players/<int:table>/remove")
    def players_remove(table: int):
        who = actor()
        try:
            with store.session() as s:
                seat = remove_player(s, desk.game(s), table, who, request.form.get("reason") or None)
            flash(f"{text('table', g.lang)} {table}: {seat['name']} — {text('removed', g.lang)}", "ok")
        except FluturasError as exc:
            refused(exc)
        return redirect(url_for("players_page"))


def _choices() -> dict[str, object]:
    return {"kinds": KINDS, "variants": VARIANTS, "anticipation_variants": ANTICIPATION_VARIANTS,
            "categories": CATEGORIES, "packs": RULE_PACKS, "demo_words": DEMO_WORDS.name}
