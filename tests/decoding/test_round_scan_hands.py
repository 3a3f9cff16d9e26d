"""`round scan` reads each slip in its player's hand (arbiter/slips/hands.py): table 2's player
writes R so that the reader reads K. In round 1 the slip goes to review and the arbiter clears it;
in round 2 the same player's K is read as R and the slip is decided, while table 3, whose player
has no such settled slip, stays in review; the audit says which box was read in the player's hand.
A slip still in review teaches nothing, and a slip whose own table box is unsure is read in the hand
of the table the whole pile seats it at. Real SQLite
store, real CLI, reading records written by hand (no images)."""
from __future__ import annotations

from click.testing import CliRunner
from sqlalchemy import select

from arbiter.review.review import resolve
from arbiter.round.rack import set_rack
from arbiter.round.tops import set_continuation
from arbiter.slips.hands import settled_hands
from arbiter.round.correction import close_round
from arbiter.slips.decoding import round_decoder
from arbiter.store.audit import entries
from arbiter.store.games import GameSpec, get_game, get_round, new_game, seat_players
from arbiter.store.models import ReviewItem, Round, Slip
from arbiter.store.seating import Seat
from arbiter.store.store import open_store
from arbiter.web.app import create_app
from cli import main
from tests.arbiter.helpers import ARBITER, write_jsonl
from tests.decoding.helpers import record


def _game(db, tmp_path, name: str = "Partida 1", seats: dict[int, str] | None = None) -> int:
    """A game of the tournament "Cupa Test", its three tables seated by name (Jucător 1..3 unless
    `seats` says otherwise), round 1's group entered and its top MORAR at H4."""
    words = tmp_path / "words.txt"
    words.write_text("MORAR\nROD\nDOR\nMODEL\n", encoding="utf-8")
    seats = seats or {t: f"Jucător {t}" for t in range(1, 4)}
    store = open_store(db)
    with store.session() as s:
        game = new_game(s, GameSpec("Cupa Test", name, wordlist=words), ARBITER)
        seat_players(s, game, [Seat(t, who, "CS Test", None, t + 1) for t, who in seats.items()],
                     ARBITER, "seats.csv")
        rnd = set_rack(s, game, "AMORRDE", ARBITER)
        set_continuation(s, game, rnd, "H4 MORAR", ARBITER)
        game_id = game.id
    store.close()
    return game_id


def _scan(db, tmp_path, game_id: int, number: int, records: list[dict]) -> str:
    for r in records:
        table = int(r["fields"]["masa"]["text"])
        r.update({"source": f"scans/g{game_id}r{number}t{table}.png", "slip_index": 0,
                  "sha256": f"{game_id:016x}{number:016x}{table:032x}"})
    pile = write_jsonl(tmp_path / f"game{game_id}round{number}.jsonl", records)
    out = CliRunner().invoke(main, ["round", "scan", str(pile), "--round", str(number), "--db", str(db),
                                    "--game", str(game_id), "--arbiter", "ana"])
    assert out.exit_code == 0, out.output
    return out.output


def _next_round(db, game_id: int) -> dict[str, int]:
    """Round 1 closed, round 2's group entered: ROD's squares and scores in round 2."""
    store = open_store(db)
    with store.session() as s:
        game = get_game(s, game_id)
        close_round(s, game, get_round(s, game, 1), ARBITER)
        set_rack(s, game, "DOLEMAR", ARBITER)
    decoder = round_decoder(store, game_id, 2)
    store.close()
    return {m.position: m.score for m in decoder.k.moves if m.word == "ROD"}


def _open_items(db) -> list[ReviewItem]:
    with open_store(db).session() as s:
        return list(s.scalars(select(ReviewItem).where(ReviewItem.state == "open")))


def _filed(db, number: int) -> dict[int, Slip]:
    with open_store(db).session() as s:
        return {x.table_no: x for x in s.scalars(select(Slip).join(Round, Slip.round_id == Round.id)
                                                 .where(Round.number == number, Slip.state == "filed"))}


def test_a_players_settled_slip_teaches_the_next_round_that_players_K_is_an_R(tmp_path):
    db = tmp_path / "store.db"
    game_id = _game(db, tmp_path)
    # round 1: MORAR at H4, through the centre; table 2's two R read K
    out = _scan(db, tmp_path, game_id, 1, [record(1, 1, 24, "H4", "MORAR"), record(1, 2, 24, "H4", "MOKAK")])
    assert "1 to review" in out
    (item,) = _open_items(db)
    store = open_store(db)
    assert settled_hands(store, game_id, 2).lent(2) == {}  # in review: nothing settled yet
    resolve(store, item.id, item.version, "ana", {"table": 2, "word": "MORAR"}, "R scris ca K")
    assert settled_hands(store, game_id, 2).lent(2) == {"K": {"R": 0.5}}
    assert settled_hands(store, game_id, 1).lent(2) == {}  # round 1 learns from no earlier round
    store.close()
    squares = _next_round(db, game_id)
    square = next(iter(sorted(squares)))
    out = _scan(db, tmp_path, game_id, 2, [record(2, 2, squares[square], square, "KOD"),
                                           record(2, 3, squares[square], square, "KOD")])
    filed = _filed(db, 2)
    assert filed[2].content["word"] == "ROD"  # table 2's player: decided in the player's hand
    assert [i.table_no for i in _open_items(db)] == [3]  # table 3's player: K is still K, in review
    assert filed[2].confidence > filed[3].confidence
    with open_store(db).session() as s:
        why = {e.entity_id: e.reason for e in entries(s, game_id, "slip.file")}
    assert why[str(filed[2].id)] == "read in the player's hand: R read K (word, box 1)"
    assert why[str(filed[3].id)] is None  # in review: its reasons are the review item's
    page = create_app(open_store(db), game_id).test_client().get("/audit").data.decode()
    assert "citit în scrisul jucătorului" in page and "R citit ca K (căsuța 1 a cuvântului)" in page


def test_a_slip_whose_table_box_is_unsure_is_read_in_the_hand_of_the_table_the_pile_seats_it_at(tmp_path):
    """Round 2: table 2's player writes a 2 the reader takes for a 3 at 0.3, too unsure to read the
    slip in a hand by its own box; table 3's slip says 3 for sure, so the pile seats it at 2, and
    it is read in table 2's player's hand (`SlipDecoder.in_seated_hand`): decided, and audited so."""
    db = tmp_path / "store.db"
    game_id = _game(db, tmp_path)
    _scan(db, tmp_path, game_id, 1, [record(1, 1, 24, "H4", "MORAR"), record(1, 2, 24, "H4", "MOKAK")])
    (item,) = _open_items(db)
    store = open_store(db)
    resolve(store, item.id, item.version, "ana", {"table": 2, "word": "MORAR"}, "R scris ca K")
    store.close()
    squares = _next_round(db, game_id)
    square = next(iter(sorted(squares)))
    two_or_three = record(2, 2, squares[square], square, "KOD", doubts={("table", 0): ("3", 0.3)})
    _scan(db, tmp_path, game_id, 2, [two_or_three, record(2, 3, squares[square], square, "ROD")])
    filed = _filed(db, 2)
    assert _open_items(db) == [] and filed[2].content["word"] == "ROD" and filed[3].content["word"] == "ROD"
    with open_store(db).session() as s:
        why = {e.entity_id: e.reason for e in entries(s, game_id, "slip.file")}
    assert why[str(filed[2].id)] == "read in the player's hand: R read K (word, box 1)"


def test_a_slip_still_in_review_teaches_nothing(tmp_path):
    db = tmp_path / "store.db"
    game_id = _game(db, tmp_path)
    _scan(db, tmp_path, game_id, 1, [record(1, 1, 24, "H4", "MORAR"), record(1, 2, 24, "H4", "MOKAK")])
    squares = _next_round(db, game_id)
    square = next(iter(sorted(squares)))
    _scan(db, tmp_path, game_id, 2, [record(2, 2, squares[square], square, "KOD")])
    assert [i.table_no for i in _open_items(db)] == [2, 2]  # round 1's slip and round 2's, both in review


def _anas_first_game(db, tmp_path) -> None:
    """Game 1 of the tournament: Ana Pop at table 2 writes MORAR, read MOKAK; an arbiter clears it."""
    first = _game(db, tmp_path, "Partida 1", {1: "Carmen", 2: "Ana Pop", 3: "Bogdan"})
    _scan(db, tmp_path, first, 1, [record(1, 1, 24, "H4", "MORAR"), record(1, 2, 24, "H4", "MOKAK")])
    (item,) = _open_items(db)
    store = open_store(db)
    resolve(store, item.id, item.version, "ana", {"table": 2, "word": "MORAR"}, "R scris ca K")
    store.close()


def test_a_players_hand_goes_with_them_to_the_tournaments_next_game(tmp_path):
    """Ana's R reads K; in game 1 she sits at table 2 and an arbiter clears her slip. In game 2 she
    sits at table 3: her first slip there is read in her hand, while Bogdan, now at table 2, whose
    K was never settled as an R, stays in review."""
    db = tmp_path / "store.db"
    _anas_first_game(db, tmp_path)
    second = _game(db, tmp_path, "Partida 2", {1: "Carmen", 2: "Bogdan", 3: " ana  POP "})
    store = open_store(db)
    hands = settled_hands(store, second, 1)
    assert hands.lent(3) == {"K": {"R": 0.5}} and hands.lent(2) == {}  # Ana's hand, at her new table
    store.close()
    out = _scan(db, tmp_path, second, 1, [record(1, 3, 24, "H4", "MOKAK"), record(1, 2, 24, "H4", "MOKAK")])
    with open_store(db).session() as s:
        filed = {x.table_no: x for x in s.scalars(select(Slip).where(Slip.game_id == second))}
        waiting = [i.table_no for i in s.scalars(select(ReviewItem).where(ReviewItem.state == "open"))]
    assert filed[3].content["word"] == "MORAR", out  # decided in Ana's hand
    assert waiting == [2]  # Bogdan's: the ink alone reads MOKAK, and his hand lends nothing


def test_a_name_seated_twice_lends_no_hand_to_either(tmp_path):
    db = tmp_path / "store.db"
    _anas_first_game(db, tmp_path)
    second = _game(db, tmp_path, "Partida 2", {1: "Ana Pop", 2: "Bogdan", 3: "Ana Pop"})
    store = open_store(db)
    assert settled_hands(store, second, 1).lent(1) == {} and settled_hands(store, second, 1).lent(3) == {}
    store.close()


def test_two_slips_that_may_carry_each_others_table_numbers_and_say_the_same_are_filed_and_teach_no_hand(tmp_path):
    """Table 1's 1 reads a little like a 2 and table 2's 2 like a 1, both writing H4 MORAR 24:
    swapped or not, each table gets the same decision, so both are filed without review. Either
    may be the other player's paper, so neither teaches a hand, until an arbiter touches it; the
    audit says why, in the arbiter's words."""
    from arbiter.slips.hands import filed_beside_twins
    from arbiter.store.audit import Change, record as audit

    db = tmp_path / "store.db"
    game_id = _game(db, tmp_path)
    one_or_two = record(1, 1, 24, "H4", "MORAR", doubts={("table", 0): ("2", 0.03)})
    two_or_one = record(1, 2, 24, "H4", "MORAR", doubts={("table", 0): ("1", 0.03)})
    _scan(db, tmp_path, game_id, 1, [one_or_two, two_or_one, record(1, 3, 24, "H4", "MORAR")])
    assert _open_items(db) == []
    filed = _filed(db, 1)
    with open_store(db).session() as s:
        why = {e.entity_id: e.reason for e in entries(s, game_id, "slip.file")}
    assert why[str(filed[1].id)] == "may have swapped table numbers with the slip of table 2, which says the same"
    assert why[str(filed[2].id)] == "may have swapped table numbers with the slip of table 1, which says the same"
    assert why[str(filed[3].id)] is None
    store = open_store(db)
    assert set(settled_hands(store, game_id, 2).by_table) == {3}
    page = create_app(store, game_id).test_client().get("/audit").data.decode()
    assert "poate avea numărul de masă al fluturașului mesei 2, și invers" in page
    with store.session() as s:
        assert filed_beside_twins(s) == {filed[1].id, filed[2].id}
        audit(s, "ana", Change("slip.correct", "slip", filed[1].id, before={}, after={}, reason="verificat"), game_id)
    assert set(settled_hands(store, game_id, 2).by_table) == {1, 3}
    store.close()


def test_RULES_2_two_slips_that_may_carry_each_others_table_numbers_told_apart_by_their_letters_are_filed(tmp_path):
    """Table 1's player writes an R the reader reads R 0.7, K 0.29 on every slip; table 2's player
    a clear R. In round 2 table 1's 1 reads a little like a 2 and table 2's 2 like a 1, and they
    wrote ROD at different squares: the table boxes alone would send both to review, but the Rs
    say whose each slip is (corrector/decoding/writers.py). Both are filed at their tables, and
    the audit says why, in the arbiter's words."""
    db = tmp_path / "store.db"
    game_id = _game(db, tmp_path)
    script_r = {("word", 2): ("K", 0.29), ("word", 4): ("K", 0.29)}
    _scan(db, tmp_path, game_id, 1, [record(1, 1, 24, "H4", "MORAR", doubts=script_r),
                                     record(1, 2, 24, "H4", "MORAR"), record(1, 3, 24, "H4", "MORAR")])
    assert _open_items(db) == []
    squares = _next_round(db, game_id)
    first, second = sorted(squares)[:2]
    one_or_two = record(2, 1, squares[first], first, "ROD",
                        doubts={("table", 0): ("2", 0.03), ("word", 0): ("K", 0.29)})
    two_or_one = record(2, 2, squares[second], second, "ROD", doubts={("table", 0): ("1", 0.03)})
    _scan(db, tmp_path, game_id, 2, [one_or_two, two_or_one, record(2, 3, squares[first], first, "ROD")])
    assert _open_items(db) == []
    filed = _filed(db, 2)
    assert (filed[1].content["position"], filed[2].content["position"]) == (first, second)
    with open_store(db).session() as s:
        why = {e.entity_id: e.reason for e in entries(s, game_id, "slip.file")}
    assert why[str(filed[1].id)] == "told by its letters from table 2, whose number its table box may carry"
    assert why[str(filed[2].id)] == "told by its letters from table 1, whose number its table box may carry"
    page = create_app(open_store(db), game_id).test_client().get("/audit").data.decode()
    assert "numărul mesei poate fi citit și 2; literele lui seamănă cu cele de pe fluturașii de până acum" in page


def test_RULES_2_two_slips_that_may_carry_each_others_table_numbers_in_like_hands_go_to_review(tmp_path):
    """The same round 2 where both players' Rs read alike: nothing tells the slips apart."""
    db = tmp_path / "store.db"
    game_id = _game(db, tmp_path)
    _scan(db, tmp_path, game_id, 1, [record(1, t, 24, "H4", "MORAR") for t in (1, 2, 3)])
    squares = _next_round(db, game_id)
    first, second = sorted(squares)[:2]
    one_or_two = record(2, 1, squares[first], first, "ROD", doubts={("table", 0): ("2", 0.03)})
    two_or_one = record(2, 2, squares[second], second, "ROD", doubts={("table", 0): ("1", 0.03)})
    _scan(db, tmp_path, game_id, 2, [one_or_two, two_or_one, record(2, 3, squares[first], first, "ROD")])
    assert sorted(i.table_no for i in _open_items(db)) == [1, 2]
