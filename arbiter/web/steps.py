"""Every step of a round in the browser: the game and its seating, the round's desk, the pile
uploaded and read, and the round grid. `app.create_app` registers them with one call."""
from __future__ import annotations

from pathlib import Path

from flask import Flask

from ..store.store import Store
from . import grid, round_pages, setup_pages, upload
from .desk import Desk


def register_steps(app: Flask, store: Store, game_id: int | None, learn: Path | None,
                   image_roots: tuple[Path, ...]) -> None:
    desk = Desk(store, game_id, learn, image_roots)
    for pages in (setup_pages, round_pages, upload, grid):
        pages.register(app, desk)
