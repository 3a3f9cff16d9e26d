"""What the pages of a round's every step share: the store, the game they show, where uploaded
scans are kept, and the arbiter who writes (a write without a named arbiter is refused, as in
the queue)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flask import abort, current_app, flash, g

from exitcodes import FluturasError

from .. import words
from ..store.games import get_game
from ..store.models import Game
from ..store.store import Store
from . import security
from .i18n import text


@dataclass(frozen=True)
class Desk:
    store: Store
    game_id: int | None  # None: the newest game (a game created in the browser becomes the one shown)
    learn: Path | None
    image_roots: tuple[Path, ...]

    def game(self, session) -> Game:
        return get_game(session, self.game_id)

    @property
    def scans(self) -> Path:
        """Where an uploaded pile is kept: beside the store (the slips' images must outlive the upload)."""
        return (self.image_roots[0] if self.image_roots else Path(".").resolve()) / "scans"


def actor() -> str:
    name = security.arbiter()
    if not name:
        abort(403, description=text("no_arbiter", g.lang))
    return name


def said(exc: FluturasError | str) -> str:
    """A refusal of the library in the page's language (`words.refusal`); a line the page wrote
    in its own words is shown as it is. A refusal without its words yet is logged, to be given some."""
    if isinstance(exc, str):
        return exc
    message = str(exc)
    if not words.refusals.known(message):
        current_app.logger.warning("a refusal without its words in arbiter/words/refusals.py: %s", message)
    return words.refusal(message, g.lang)


def refused(exc: FluturasError | str) -> None:
    """One line under the arbiter's 'not saved', in the page's language."""
    flash(f"{text('conflict', g.lang)}: {said(exc)}", "error")
