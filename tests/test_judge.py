"""Whole games through the judge (RULES.md §4, §6; D 5.3.7, 5.3.8, 6.2–6.6, 8): accumulation,
solos, ranking, appeals, variants and input errors."""
from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

from cli import main
from corrector.judging.case import parse_case
from corrector.errors import CaseError
from corrector.judging.judge import judge_case
from corrector.judging.report import result_json

WORDS = ["MODEL", "MARE", "ME", "EL", "AR", "RE", "ERA", "ARE", "MA", "AM", "LA", "AL", "TE", "ET", "TA", "AT",
         "SA", "AS", "CASA", "SEC", "TEC", "UT", "TU", "NU", "UN", "DA", "AD", "DE", "ED", "LE", "MI", "IN", "NI",
         "TI", "IT", "OM", "MO", "DO", "OD", "NE", "EN", "ACE", "CAT", "TOT", "RAT", "SAT", "LAT", "MAT"]
# The rounds' tops, as the move generator finds them for this list: 26, 12, 9, 14, 12, 4.
ROUNDS = [("AEMODLR", "8D MODEL", 26), ("ARECSUT", "7F ARE", 12), ("CSUTAIE", "9B ACE", 9),
          ("NEDITOA", "10A AD", 14), ("LAMORET", "7E MARE", 12), ("SINCATE", "A10 ACE", 4)]
TOP_TOTAL = 77


def top_slip(table: int, round_no: int, **changes) -> dict:
    """The slip of a player who found the round's top and wrote it correctly."""
    _, move, score = ROUNDS[round_no - 1]
    position, word = move.split()
    return {"table": table, "round": round_no, "score": score, "position": position, "word": word, **changes}


def game(players: int = 3, slips: dict[int, list[dict]] | None = None, all_top: bool = True, **extra) -> dict:
    """A 6-round game; by default every player writes every top correctly, `slips` replaces a
    table's slip in a round (a dict with only 'table' and 'drop': True removes it)."""
    rounds = []
    for n, (rack, move, _) in enumerate(ROUNDS, start=1):
        by_table = {t: top_slip(t, n) for t in range(1, players + 1)} if all_top else {}
        for s in (slips or {}).get(n, []):
            if s.get("drop"):
                by_table.pop(s["table"], None)
            else:
                by_table[s["table"]] = s
        rounds.append({"round": n, "rack": rack, "continuation": move, "slips": list(by_table.values())})
    data = {"rules": "ro", "category": "senior", "variant": "classic", "words": WORDS,
            "players": [{"table": t, "name": f"Player {t}"} for t in range(1, players + 1)], "rounds": rounds}
    data.update(extra)
    return data


def run(data: dict) -> dict:
    return result_json(judge_case(parse_case(copy.deepcopy(data))))


def table(out: dict, t: int) -> dict:
    return next(row for row in out["tables"] if row["table"] == t)


def slip_of(out: dict, round_no: int, t: int) -> dict:
    return next(s for s in out["rounds"][round_no - 1]["slips"] if s["table"] == t)


# --- totals --------------------------------------------------------------------------------------

def test_RULES_4_top_total_and_percent():
    out = run(game())
    assert out["top_total"] == TOP_TOTAL
    assert table(out, 1)["total"] == TOP_TOTAL and table(out, 1)["percent_of_top"] == 100.0


def test_D_6_2_fourth_and_fifth_warning_cost_5_each():
    wrong = {n: [top_slip(1, n, score=1)] for n in range(1, 7)}
    out = run(game(slips=wrong))
    row = table(out, 1)
    assert (row["warnings"], row["warning_cost"]) == (5, 10)  # round 6 scores 4: no warning
    assert [slip_of(out, n, 1)["warning_cost"] for n in range(1, 7)] == [0, 0, 0, 5, 5, 0]
    assert slip_of(out, 6, 1)["waived"] == ["SCORE_WRONG"]
    assert row["total"] == TOP_TOTAL - 10


def test_D_6_3_penalty_on_a_12_point_move_takes_it_to_0():
    out = run(game(slips={2: [top_slip(1, 2, position="F7")]}))  # 7F written F7: inverted
    s = slip_of(out, 2, 1)
    assert (s["status"], s["penalty"], s["score"], s["credited"]) == ("PENALISED", "INVERTED_SIGNS", 12, 0)
    assert table(out, 1)["total"] == TOP_TOTAL - 12 and table(out, 1)["penalties"] == 1


def test_D_6_4_one_disciplinary_warning_costs_20():
    out = run(game(disciplinary=[{"table": 2, "round": 3}]))
    assert (table(out, 2)["total"], table(out, 2)["eliminated"]) == (TOP_TOTAL - 20, False)


def test_D_6_4_two_disciplinary_warnings_eliminate_and_stop_correction():
    out = run(game(disciplinary=[{"table": 2, "round": 4}, {"table": 2, "round": 2}]))
    row = table(out, 2)
    assert (row["eliminated"], row["eliminated_in"], row["rank"], row["percent_of_top"]) == (True, 4, None, None)
    assert [slip_of(out, n, 2)["status"] for n in (4, 5, 6)] == ["VALID", "NOT_CORRECTED", "NOT_CORRECTED"]
    assert 2 not in [r for r in out["ranking"][:2]]


def test_D_7_1_3_cheating_eliminates():
    out = run(game(disciplinary=[{"table": 3, "round": 2, "cheating": True}]))
    assert (table(out, 3)["eliminated_in"], table(out, 3)["rank"]) == (2, None)
    assert slip_of(out, 3, 3)["status"] == "NOT_CORRECTED"


def test_RULES_4_missing_slip_scores_0():
    out = run(game(slips={3: [{"table": 1, "drop": True}]}))
    assert slip_of(out, 3, 1)["status"] == "MISSING" and table(out, 1)["total"] == TOP_TOTAL - 9


def test_D_6_6_equal_totals_share_the_higher_place():
    out = run(game(players=3, slips={1: [top_slip(3, 1, score=None, position=None)]}))
    assert [table(out, t)["rank"] for t in (1, 2, 3)] == [1, 1, 3]


def test_D_5_3_8_solo_with_15_players_not_14():
    def only_table_1_finds_round_2(players: int) -> dict:
        return game(players=players, slips={2: [{"table": t, "drop": True} for t in range(2, players + 1)]})
    out14, out15 = run(only_table_1_finds_round_2(14)), run(only_table_1_finds_round_2(15))
    assert table(out14, 1)["solos"] == 0 and out14["rounds"][1]["solo"] is None
    assert table(out15, 1)["solos"] == 1 and out15["rounds"][1]["solo"] == 1
    assert table(out15, 1)["total"] == TOP_TOTAL + 10


def test_D_5_3_8_solo_for_the_rooms_best_below_the_top():
    # Round 1: the top (26) is found by nobody; table 1 alone plays MODEL at H5 (18).
    slips = {1: [top_slip(t, 1, position="H5", score=18) if t == 1 else {"table": t, "drop": True} for t in range(1, 16)]}
    out = run(game(players=15, slips=slips))
    assert out["rounds"][0]["solo"] == 1


@pytest.mark.parametrize("basis, solo", [("raw_score", 1), ("credited", 2)])
def test_policy_solo_basis(basis, solo):
    # Round 1: table 1 plays the top with a penalty (26 → 6); table 2 alone plays H5 (18).
    slips = {1: [top_slip(1, 1, position="D8"), top_slip(2, 1, position="H5", score=18)]
             + [{"table": t, "drop": True} for t in range(3, 16)]}
    out = run(game(players=15, slips=slips, policies={"solo_basis": basis}))
    assert out["rounds"][0]["solo"] == solo


def test_youth_inversion_is_a_warning_not_a_penalty():
    out = run(game(category="youth", slips={1: [top_slip(1, 1, position="D8")]}))
    s = slip_of(out, 1, 1)
    assert (s["status"], s["warning"], s["credited"]) == ("VALID", "INVERTED_SIGNS", 26)


# --- appeals (D 6.5, D 5.3.7) --------------------------------------------------------------------

APPEAL = {"reason": "contestation", "by": "chief arbiter", "at": "2026-11-22 18:40"}


def test_D_6_5_appeal_cancel_warning_keeps_who_when_why():
    data = game(slips={1: [top_slip(1, 1, score=None)]},
                appeals=[{"table": 1, "round": 1, "action": "cancel_warning", **APPEAL}])
    s = slip_of(run(data), 1, 1)
    assert s["warning"] is None and "APPEAL_APPLIED" in s["flags"]
    assert s["appeals"] == [{"action": "cancel_warning", **APPEAL}]
    assert "chief arbiter" in s["explanation"]["en"]


def test_D_6_5_appeal_cancel_penalty_and_set_score():
    data = game(slips={1: [top_slip(1, 1, position="D8")], 2: [top_slip(1, 2, word="ARA")]},
                appeals=[{"table": 1, "round": 1, "action": "cancel_penalty", **APPEAL},
                         {"table": 1, "round": 2, "action": "set_score", "score": 12, **APPEAL}])
    out = run(data)
    assert (slip_of(out, 1, 1)["status"], slip_of(out, 1, 1)["credited"]) == ("VALID", 26)
    assert (slip_of(out, 2, 1)["status"], slip_of(out, 2, 1)["credited"]) == ("VALID", 12)


def test_D_6_5_appeal_reread_decides_the_slip_again():
    data = game(slips={1: [top_slip(1, 1, position="A1")]},
                appeals=[{"table": 1, "round": 1, "action": "reread", **APPEAL,
                          "slip": {"table": 1, "round": 1, "score": 26, "position": "8D", "word": "MODEL"}}])
    assert slip_of(run(data), 1, 1)["status"] == "VALID"


def test_D_5_3_7_repeated_incorrect_move_gets_round_average_capped():
    # Round 4: the top AD is 14; table 3 writes ADA (not in the list) which would score more.
    data = game(players=3, slips={4: [top_slip(3, 4, word="DA", position="10B"), top_slip(2, 4, word="ADA")]},
                appeals=[{"table": 2, "round": 4, "action": "repeat_average", **APPEAL}])
    out = run(data)
    s = slip_of(out, 4, 2)
    assert s["status"] == "AVERAGED"
    credited = [slip_of(out, 4, t)["credited"] for t in (1, 3)]
    average = (sum(credited) + 0) // 3
    assert s["credited"] == average


def test_D_5_3_7_repeat_average_with_an_explicit_cap():
    data = game(slips={4: [top_slip(2, 4, word="ADA")]},
                appeals=[{"table": 2, "round": 4, "action": "repeat_average", "cap": 3, **APPEAL}])
    assert slip_of(run(data), 4, 2)["credited"] == 3


# --- variants (§6, D 8) ---------------------------------------------------------------------------

def test_D_8_4_top_variant_ranks_by_tops():
    # Table 2 misses round 2's top, table 3 misses rounds 2 and 3: 6, 5, 4 tops.
    data = game(variant="top", slips={2: [{"table": 2, "drop": True}, {"table": 3, "drop": True}],
                                      3: [{"table": 3, "drop": True}]})
    out = run(data)
    assert [(table(out, t)["tops"], table(out, t)["rank"]) for t in (1, 2, 3)] == [(6, 1), (5, 2), (4, 3)]


def test_D_8_4_top_variant_penalty_costs_a_top():
    data = game(variant="top", players=2, slips={1: [top_slip(1, 1, position="D8")]})
    out = run(data)
    assert (table(out, 1)["tops"], table(out, 2)["tops"]) == (5, 6)
    assert (table(out, 1)["rank"], table(out, 2)["rank"]) == (2, 1)


def test_D_8_6_tactic_two_moves_and_three_scores_on_one_slip():
    data = {"rules": "ro", "category": "senior", "variant": "tactic", "words": WORDS,
            "players": [{"table": 1, "name": "A"}, {"table": 2, "name": "B"}],
            "rounds": [{"round": 1, "rack": ["AEMODLR", "ARECSUT"], "continuation": ["8D MODEL", "7F ARE"],
                        "slips": [
                            {"table": 1, "round": 1, "total": 38, "moves": [
                                {"position": "8D", "word": "MODEL", "score": 26}, {"position": "7F", "word": "ARE", "score": 12}]},
                            {"table": 2, "round": 1, "total": 40, "moves": [
                                {"position": "8D", "word": "MODEL", "score": 25}, {"position": "7F", "word": "ARE", "score": 12}]}]}]}
    out = run(data)
    assert out["top_total"] == 38
    one, two = slip_of(out, 1, 1), slip_of(out, 1, 2)
    assert (one["status"], one["credited"], one["warning"]) == ("VALID", 38, None)
    assert (two["credited"], two["warning"], two["waived"]) == (38, "SCORE_WRONG", ["SCORE_WRONG"])
    data["policies"] = {"one_warning_per_slip_multi_move": False}
    two = slip_of(run(data), 1, 2)
    assert (two["warning"], two["more_warnings"]) == ("SCORE_WRONG", ["SCORE_WRONG"])


def test_D_8_6_tactic_groups_in_either_order():
    data = {"rules": "ro", "category": "senior", "variant": "tactic", "words": WORDS,
            "players": [{"table": 1, "name": "A"}],
            "rounds": [{"round": 1, "rack": ["ARECSUT", "AEMODLR"], "continuation": ["8D MODEL", "7F ARE"],
                        "slips": [{"table": 1, "round": 1, "total": 38, "moves": [
                            {"position": "8D", "word": "MODEL", "score": 26}, {"position": "7F", "word": "ARE", "score": 12}]}]}]}
    assert slip_of(run(data), 1, 1)["credited"] == 38


# --- input errors vs players' mistakes ------------------------------------------------------------

def test_malformed_position_and_unknown_letter_on_a_slip_are_decisions():
    out = run(game(slips={1: [top_slip(1, 1, position="Z99")], 2: [top_slip(1, 2, word="AR€")]}))
    assert slip_of(out, 1, 1)["violation"] == "MALFORMED_POSITION"
    assert slip_of(out, 2, 1)["violation"] == "UNKNOWN_LETTER"
    assert slip_of(out, 1, 2)["status"] == "VALID"  # nothing else is affected


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["rounds"][0]["slips"].append(top_slip(9, 1)), "rounds[0].slips[3] (table 9, round 1): key 'table': unknown table 9"),
    (lambda d: d["rounds"][1]["slips"][0].update(round=5), "key 'round': the slip says round 5 but is filed under round 2"),
    (lambda d: d["rounds"][0]["slips"][1].pop("word"), "rounds[0].slips[1] (table 2, round 1): key 'word': missing"),
    (lambda d: d.update(disciplinary=[{"table": 1, "round": 7}]), "disciplinary[0] (table 1): key 'round': round 7 is out of range 1–6"),
    (lambda d: d.update(appeals=[{"table": 4, "round": 1, "action": "cancel_warning", **APPEAL}]), "appeals[0]: key 'table': unknown table 4"),
    (lambda d: d["rounds"][0].update(rack="AEMODL1"), "rounds[0]: key 'rack'"),
    (lambda d: d["rounds"][0].update(continuation="8D MODELE"), "rounds[0]: key 'continuation'"),
    (lambda d: d.pop("players"), "'players' is a required property"),
    (lambda d: d["rounds"][0]["slips"][0].update(colour="blue"), "rounds[0].slips[0] (table 1, round 1): Additional properties"),
])
def test_broken_case_is_an_input_error_naming_key_and_slip(mutate, message):
    data = game()
    mutate(data)
    with pytest.raises(CaseError) as err:
        run(data)
    assert message in str(err.value)


def test_cli_judge_is_byte_identical_and_exits_2_on_bad_input(tmp_path):
    case = tmp_path / "case.json"
    case.write_text(json.dumps(game(slips={1: [top_slip(1, 1, position="H9", score=None)]})), encoding="utf-8")
    runner = CliRunner()
    first = runner.invoke(main, ["judge", str(case), "--json"])
    second = runner.invoke(main, ["judge", str(case), "--json"])
    assert first.exit_code == 0 and first.output == second.output
    assert json.loads(first.output)["top_total"] == TOP_TOTAL
    text = runner.invoke(main, ["judge", str(case)])
    assert text.exit_code == 0 and "top of the game: 77" in text.output
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    result = runner.invoke(main, ["judge", str(broken)])
    assert result.exit_code == 2 and "not valid JSON" in result.output


def test_words_from_a_file_relative_to_the_case(tmp_path):
    (tmp_path / "list.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    data = game(words={"file": "list.txt"})
    case = tmp_path / "case.json"
    case.write_text(json.dumps(data), encoding="utf-8")
    from corrector.judging.case import load_case
    assert result_json(judge_case(load_case(case)))["top_total"] == TOP_TOTAL


def test_continuation_top_uses_the_move_generator():
    data = game(players=1)
    for rnd in data["rounds"]:
        rnd["continuation"] = "top"
    assert run(data)["top_total"] == TOP_TOTAL


def test_D_8_2_completiv_top_over_every_stock_choice():
    data = {"rules": "ro", "category": "senior", "variant": "completiv", "words": ["MODEL", "DOREL"],
            "players": [{"table": 1, "name": "A"}],
            "rounds": [{"round": 1, "rack": "ODELRA", "continuation": "top",
                        "slips": [{"table": 1, "round": 1, "score": 26, "position": "8D", "word": "MODEL"}]}]}
    out = run(data)
    assert out["rounds"][0]["top"] == 26 and slip_of(out, 1, 1)["status"] == "VALID"
