"""Reading records for the decoder: written by hand (what a reader would report for clear or
ambiguous ink, in the scanner's `fluturas.reading/1` form), or read by the real scanner from a
rendered slip image (`scanned`)."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from corrector.board import Board
from corrector.decoding import RoundKnowledge, SlipDecoder, load_priors
from corrector.judging.decision import RoundContext
from corrector.judging.group import build_group
from corrector.rulepack import RulePack
from corrector.words.lexicon import Lexicon

CLASSES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
NAMES = {"round": "tur", "table": "masa", "score": "puncte", "position": "poz", "word": "depunere"}
CLEAR = 0.999
THRESHOLD = 0.99
# The values `round_benchmark --calibrate` fits, as the rulings below were reviewed with them.
FITTED_FOR_TESTS = {"free": 0.003, "score.wrong": 0.08, "mark.doubt": 0.05, "ink.plausible_mass": 0.99}


def box(ch: str, doubt: tuple[str, float] | None = None, joker: bool = False,
        with_probs: bool = True) -> dict[str, Any]:
    """One written box: `ch` read clearly, or split with `doubt` (another class and its share)."""
    probs = [0.0] * len(CLASSES)
    if doubt is None:
        probs[CLASSES.index(ch)] = CLEAR
    else:
        other, share = doubt
        probs[CLASSES.index(ch)] = CLEAR - share
        probs[CLASSES.index(other)] = share
    rest = (1 - sum(probs)) / (len(CLASSES) - 2 if doubt else len(CLASSES) - 1)
    probs = [p or rest for p in probs]
    top = sorted(zip(CLASSES, probs), key=lambda kv: -kv[1])[:3]
    out: dict[str, Any] = {"top_k": [[c, p] for c, p in top], "joker": "circle" if joker else None}
    if with_probs:
        out["probs"] = probs
        out["marks"] = {"circle": 0.98 if joker else 0.003, "dot": 0.002, "tick": 0.001}
    return out


def record(round_no: int | None, table: int | None, score: int | None, position: str, word: str,
           jokers: tuple[int, ...] = (), doubts: dict[tuple[str, int], tuple[str, float]] | None = None,
           with_probs: bool = True) -> dict[str, Any]:
    """A reading record of a slip whose ink says exactly these values, with `doubts` on some boxes."""
    doubts = doubts or {}
    values = {"round": "" if round_no is None else str(round_no), "table": "" if table is None else str(table),
              "score": "" if score is None else str(score), "position": position, "word": word}
    fields = {}
    for name, text in values.items():
        chars = [box(ch, doubts.get((name, i)), name == "word" and i in jokers, with_probs)
                 for i, ch in enumerate(text)]
        fields[NAMES[name]] = {"text": text, "chars": chars, "jokers": list(jokers) if name == "word" else []}
    return {"format": "fluturas.reading/1", "classes": CLASSES, "fields": fields}


def crafted_box(probs: dict[str, float], rest: float = 1e-5) -> dict[str, Any]:
    """One written box with exactly this distribution (the other classes `rest` each), as the
    reader reports it: `probs` and its three best classes."""
    p = [probs.get(c, rest) for c in CLASSES]
    total = sum(p)
    p = [x / total for x in p]
    top = sorted(zip(CLASSES, p), key=lambda kv: -kv[1])[:3]
    return {"top_k": [[c, x] for c, x in top], "joker": None, "probs": p,
            "marks": {"circle": 0.003, "dot": 0.002, "tick": 0.001}}


def scanned(values: dict[str, str], seed: int = 7, jokers: tuple[int, ...] = ()) -> dict[str, Any]:
    """The real scanner's reading record of a slip written with `values` (template field names:
    tur, masa, poz, puncte, depunere) in a clear calibration hand, rendered on a page at 150 dpi."""
    from pathlib import Path

    import numpy as np

    from scanner.pipeline import scan_page
    from scanner.reader import make_reader
    from scanner.source import Page
    from scanner.synth import fonts
    from scanner.synth.slip import PageStyle, SlipStyle, render_page, render_slip
    from scanner.template import load_template

    template = load_template("duplicat")
    rng = np.random.default_rng(seed)
    style = SlipStyle(fonts=[p for p in fonts.resolve(fonts.CALIBRATION).paths if "dkg" in p.name])
    slip = render_slip(template, values, rng, style, jokers={"depunere": list(jokers)})
    page = render_page([slip], rng, PageStyle(quarter_turns=(0,)))
    [reading] = scan_page(Page(Path("slip.png"), 1, page), make_reader("cnn"), "cnn", (template,))
    return reading.to_dict()


def undeciding(dec: SlipDecoder) -> SlipDecoder:
    """The same decoder with thresholds no slip reaches, as a calibration decodes: what holds a
    slip shows apart from its certainty."""
    return SlipDecoder(dec.k, replace(dec.p, threshold=1.0, threshold_overrule=1.0), confusion=None, mark_scores=None)


def decoder(pack: RulePack, words: set[str], rack: str, placed: tuple[tuple[str, str], ...] = (),
            round_no: int = 2, tables=range(1, 17)) -> SlipDecoder:
    """A decoder for a round on a board holding `placed` words, the group `rack`, and `words`."""
    from tests.boards import board_with

    board = board_with(pack, *placed) if placed else Board()
    group = build_group("classic", pack, board, pack.tiles.parse_rack(rack), tuple(sorted(Counter().items())))
    ctx = RoundContext(pack, board, group, Lexicon.from_words(words, pack))
    # the tests never depend on a calibration run: the fitted values are pinned here
    priors = replace(load_priors().adjusted(FITTED_FOR_TESTS), threshold=THRESHOLD, threshold_overrule=THRESHOLD)
    return SlipDecoder(RoundKnowledge.build(ctx, round_no, list(tables)), priors, confusion=None, mark_scores=None)
