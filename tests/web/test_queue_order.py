"""The queue's order: the items that change the most points first (the candidates' spread, else
the points the slip claims), and the table-range filter of D 5.5.f."""
from __future__ import annotations

from arbiter.store.games import get_game
from arbiter.web.queue import cards

from .helpers import candidate, flagged_round, open_items, write_candidates


def test_most_points_at_stake_first_and_table_ranges(store, tmp_path):
    game_id = flagged_round(store, tmp_path, 4, {1: "M0DEL", 2: "M0DEL", 3: "M0DEL", 4: "M0DEL"},
                            scores={1: 12, 2: 40, 3: 5, 4: 26})
    by_table = {e.table: e for e in open_items(store, game_id)}
    write_candidates(store, by_table[3].item_id, [candidate(3, "MODEL", 26, 0.6, "valid", 26),
                                                  candidate(3, "MOREL", 26, 0.4, "incorrect", 0)])
    with store.session() as s:
        game = get_game(s, game_id)
        ordered = cards(s, game, 1)
        assert [c.entry.table for c in ordered] == [2, 3, 4, 1]
        assert [c.stake for c in ordered] == [40, 26, 26, 12]
        assert ordered[1].doubtful == {"word": [1]} and len(ordered[1].candidates) == 2
        assert ordered[0].doubtful == {"word": None}  # no candidates: the field the scanner doubted
        assert [c.entry.table for c in cards(s, game, 1, (1, 2))] == [2, 1]
        assert [c.entry.table for c in cards(s, game, 1, (3, 9))] == [3, 4]
