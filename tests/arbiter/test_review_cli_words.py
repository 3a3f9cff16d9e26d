"""`fluturas review` at the terminal as on the web page: the upright crop written where the arbiter
can open it (its path printed), the candidates numbered most likely first, a number accepting that
candidate, and rulings in words (no rule code, no JSON)."""
from __future__ import annotations

import re

from click.testing import CliRunner
from sqlalchemy import select

from arbiter.demo.demo import DemoOptions, run_demo
from arbiter.store.games import get_game
from arbiter.store.models import Player, ReviewItem, Slip
from arbiter.store.store import open_store
from arbiter.web.queue import by_probability
from cli import main

from tests.web.test_demo_screenshots import replay_round_for_review


def test_review_shows_the_crop_and_numbers_the_candidates_as_the_web_page(tmp_path):
    list(run_demo(tmp_path, options=DemoOptions.from_sample(rounds=1)))
    db = tmp_path / "demo.db"
    store = open_store(db)
    with store.session() as s:
        demo_game = get_game(s).id
    review_game, _undecided = replay_round_for_review(store, demo_game)
    crops = tmp_path / "crops"
    result = CliRunner().invoke(main, ["review", "--db", str(db), "--game", str(review_game), "--arbiter", "ana",
                                       "--crops", str(crops)], input="2\n\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    first = out.split("\n[2/")[0]
    crop = re.search(r"crop: (\S+\.png)", first)
    assert crop and open(crop[1], "rb").read(8) == b"\x89PNG\r\n\x1a\n"  # an upright crop, doubtful boxes outlined
    shown = [int(p) for p in re.findall(r"^  \d\. .*?(\d+) %", first, re.M)]
    assert len(shown) >= 3 and shown == sorted(shown, reverse=True)  # most likely first, numbered 1, 2, 3 ...
    seat = re.match(r"\n?\[1/\d+\] round 1, table (\d+) \(([^)]+)\)", first)
    assert seat, first  # the slip's table and the name of the player seated there
    with store.session() as s:
        seated = s.scalar(select(Player).where(Player.game_id == review_game, Player.table_no == int(seat[1])))
        assert seated is not None and seat[2] == seated.name
    assert re.search(r"\b\d{1,3} % sure", first) and "warning: wrong score" in first
    assert not re.search(r"\b[A-Z]+_[A-Z_]+\b|RULES\.md|[{\[]\"|\bsure of\b", out), out
    with store.session() as s:  # `2` took the second candidate as the page numbers them: most likely first
        item = s.scalar(select(ReviewItem).where(ReviewItem.game_id == review_game,
                                                 ReviewItem.table_no == int(seat[1])))
        second = by_probability(item.candidates)[1]["reading"]
        stored = s.get(Slip, item.slip_id).content
        assert item.state == "resolved"
        assert (stored["position"], stored["word"], stored["score"]) == (second["position"], second["word"], second["score"])
    store.close()
