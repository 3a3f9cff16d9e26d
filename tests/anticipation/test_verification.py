""""Verificare" (RULES.md §7, A 5.3, A 5.5.h): the main word and the listed adjacent words are
checked first and the answer is reported before the rest of the correction."""
from __future__ import annotations

from corrector.anticipation import answer_verifications, correct_anticipation_game

from .helpers import game, move, slip, standard_groups


def test_A_5_3_verificare_checks_the_main_word_and_the_listed_adjacent_words_first(ro, words):
    slips = (slip(1, 1, move("H8", "CASE", 8), total=8), slip(2, 1, move("H8", "CASA", 8), total=8, verify=True),
             slip(1, 2, move("9G", "LAC", 5), verify=True, verify_words=("AS", "XAS")))
    g = game(ro, words, standard_groups(ro, words), *slips, players=2)
    before = answer_verifications(g, 2)  # answered without correcting anything
    assert [(c.word, c.valid) for c in before[0].checks] == [("LAC", True), ("AS", True), ("XAS", False)]
    result = correct_anticipation_game(g)
    assert [(v.round, v.table) for v in result.verifications] == [(1, 2), (2, 1)]
    assert result.verifications[0].all_valid and not result.verifications[1].all_valid
    assert list(result.to_json())[:list(result.to_json()).index("players")].count("verifications") == 1
    assert result.player(1).rounds[1].verification == before[0]
