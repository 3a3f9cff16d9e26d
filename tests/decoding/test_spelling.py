"""A free reading pays for letter pairs the word list almost never has (`spelling.py`): a string
like AQDXIJND is the reader failing on a hand, not a player's word, while a player's word-like
mistake (ARDEIIID) pays nothing and is still ruled as written.

The round is the one of `test_ink_veto.py`, on the bundled Romanian word list (1.3 million forms)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from corrector.decoding import SlipDecoder, spelling
from corrector.decoding.knowledge import RoundKnowledge
from corrector.judging.decision import RoundContext
from corrector.words.lexicon import Lexicon, load_lexicon
from tests.decoding.helpers import crafted_box, decoder, record

WORDS = Path(__file__).resolve().parents[2] / "samples" / "wordlists" / "ro-demo-hunspell.txt.gz"
RARE = 0.002


@pytest.fixture(scope="module")
def lexicon(ro):
    return load_lexicon(WORDS, ro)


@pytest.fixture(scope="module")
def dec(ro, lexicon):
    """The ARDEIIND round of `test_ink_veto.py` with the whole Romanian list behind it."""
    small = decoder(ro, {"ARDEIIND", "NU"}, "ARDEIID", placed=(("11H", "NU"),), round_no=3)
    ctx = RoundContext(ro, small.k.ctx.board, small.k.ctx.group, lexicon)
    return SlipDecoder(RoundKnowledge.build(ctx, 3, list(range(1, 17))), replace(small.p, rare_pair=RARE),
                       confusion=None, mark_scores=None)


def test_words_and_word_like_mistakes_cost_nothing_reader_garbage_costs_much(lexicon):
    s = spelling.for_lexicon(lexicon, RARE)
    for word in ("ARDEIIND", "DUALISM", "RESAIDAM", "NEDENOTATU"):
        assert word in lexicon and s.cost(word) == 0.0
    for mistake in ("ARDEIIID", "PANZU", "TRESU"):  # players' mistakes, not in the list
        assert mistake not in lexicon and s.cost(mistake) == 0.0
    assert s.cost("RESQGJQM") < -20 and s.cost("AQDXIJND") < -20


def test_a_list_too_short_to_tell_costs_nothing(ro):
    short = Lexicon.from_words(["ARDEIIND", "NU", "DIN"], ro)
    assert spelling.for_lexicon(short, RARE) is None
    assert spelling.for_lexicon({"ARDEIIND"}, RARE) is None


def _garbled() -> dict:
    """`H5 ARDEIIND 74` in a hand the reader misreads surely in three boxes: AQDXIJND."""
    rec = record(3, 7, 74, "H5", "ARDEIIND")
    chars = rec["fields"]["depunere"]["chars"]
    for i, (seen, written) in {1: ("Q", "R"), 3: ("X", "E"), 5: ("J", "I")}.items():
        chars[i] = crafted_box({seen: 0.999, written: 0.0008})
    return rec


def test_reader_garbage_is_not_ruled_as_the_players_invalid_word(dec):
    blind = SlipDecoder(dec.k, replace(dec.p, rare_pair=0.0), confusion=None, mark_scores=None)
    was = blind.decode(_garbled())
    assert was.decided and was.best.outcome.status == "incorrect"  # without the cost: a silent error
    v = dec.decode(_garbled())
    assert not (v.decided and v.best.outcome.status == "incorrect")
    assert any(c.reading.word == "ARDEIIND" and c.outcome.status == "valid" for c in v.candidates)


def test_RULES_3_a_word_like_invalid_word_weighs_the_same_with_the_cost(dec):
    """ARDEIIID (one letter wrong) is weighed exactly as before: never decided as the legal move."""
    rec = record(3, 7, 74, "H5", "ARDEIIID")
    rec["fields"]["depunere"]["chars"][6] = crafted_box({"I": 0.98, "N": 0.003})
    blind = SlipDecoder(dec.k, replace(dec.p, rare_pair=0.0), confusion=None, mark_scores=None).decode(rec)
    v = dec.decode(rec)
    assert (v.decided, v.best.reading, v.ruled_out) == (blind.decided, blind.best.reading, blind.ruled_out)
    assert v.best.probability == pytest.approx(blind.best.probability)
    assert not (v.decided and v.best.reading.word == "ARDEIIND")
    assert any(c.reading.word == "ARDEIIID" and c.outcome.status == "incorrect" for c in v.candidates)
