"""`round_benchmark.py` names the misreads that keep clean slips in review (`held_misreads`): the
box whose ink rules out the legal move the player wrote, what was written there and what the reader
put first, so that a reader's next training knows which letters it must learn."""
from __future__ import annotations

from tests.decoding.helpers import decoder, record
from tests.decoding.test_decoder import WORDS


def test_a_clean_slip_held_by_a_misread_letter_is_counted_by_its_box(ro, bench):
    dec = decoder(ro, WORDS, "AEMODLR", round_no=1)
    # tables 1 and 2 both wrote H4 MODEL 26; the reader takes table 1's L for a K (L at 0.002)
    records = [record(1, 1, 26, "H4", "MODEK", doubts={("word", 4): ("L", 0.002)}),
               record(1, 2, 26, "H4", "MODEK", doubts={("word", 4): ("L", 0.002)})]
    truths = [bench.Written(1, 1, "H4", "MODEL", (), 26, None),
              bench.Written(2, 1, "H4", "MODEL", (), 26, "not_a_word")]
    tally = bench.Tally()
    verdicts = bench.judge_round(dec, records, truths, tally, "pile")
    assert not verdicts[0].decided and ("word", 4) in verdicts[0].ruled_out
    assert bench.held_misreads(records[0], truths[0], verdicts[0]) == [("word", "L", "K")]
    # only a slip without a mistake is counted: table 2's, labelled with one, is not
    assert dict(tally.held_misreads) == {("word", "L", "K"): 1}


def test_a_box_read_as_written_names_no_misread(ro, bench):
    dec = decoder(ro, WORDS, "AEMODLR", round_no=1)
    rec = record(1, 1, 26, "H4", "MODEK", doubts={("word", 4): ("L", 0.002)})
    verdict = bench.judge_round(dec, [rec], [bench.Written(1, 1, "H4", "MODEL", (), 26, None)], bench.Tally(), "pile")[0]
    assert ("word", 4) in verdict.ruled_out
    # had the player written the K the reader saw, the box that holds the slip is no misread
    assert bench.held_misreads(rec, bench.Written(1, 1, "H4", "MODEK", (), 26, None), verdict) == []
