"""`round_benchmark.py` counts a slip filed at another player's table beside a twin that says the
same (corrector/decoding/pile.py `hold_swappable`) as right only when that table's own slip rules
alike, and says how many such slips it saw; such a slip teaches no hand."""
from __future__ import annotations

from corrector.decoding import Hands
from tests.decoding.helpers import decoder, record
from tests.decoding.test_decoder import WORDS


def test_twins_filed_at_each_others_tables_are_right_and_counted(ro, bench):
    dec = decoder(ro, WORDS, "AEMODLR", round_no=1)
    # table 4's slip reads 9 (4 at 0.03), table 9's reads 4 (9 at 0.03), both H4 MODEL 26
    records = [record(1, 9, 26, "H4", "MODEL", doubts={("table", 0): ("4", 0.03)}),
               record(1, 4, 26, "H4", "MODEL", doubts={("table", 0): ("9", 0.03)})]
    records += [record(1, t, 20, "H8", "MODEL") for t in range(1, 17) if t not in (4, 9)]
    truths = [bench.Written(4, 1, "H4", "MODEL", (), 26, None), bench.Written(9, 1, "H4", "MODEL", (), 26, None)]
    truths += [bench.Written(t, 1, "H8", "MODEL", (), 20, None) for t in range(1, 17) if t not in (4, 9)]
    tally = bench.Tally()
    verdicts = bench.judge_round(dec, records, truths, tally, "pile")
    assert [v.best.reading.table for v in verdicts[:2]] == [9, 4] and verdicts[0].decided and verdicts[1].decided
    assert (tally.decided, tally.silent, tally.twins, tally.twins_swapped) == (16, 0, 2, 2)
    hands = Hands()
    bench.settle(hands, records, truths, verdicts)
    assert 4 not in hands.by_table and 9 not in hands.by_table and 1 in hands.by_table
    # had table 9's player written another score, the slip filed there would be wrong
    other = bench.Written(9, 1, "H4", "MODEL", (), 36, "wrong_score")
    assert not bench.filed_alike(dec, verdicts[0].best, other)
    assert bench.filed_alike(dec, verdicts[0].best, truths[1])
