"""Reading a slip against its round (issue 15): legal moves, RULES.md §3 near-misses and free
readings weighed by the reader's per-box probabilities, the judge's ruling on each, and the
posterior of each outcome. Takes the scanner's reading record as parsed JSON; never imports the
scanner."""
from .decoder import HAND_NOTE, LOOKS_NOTE, LOOKS_TAIL, TWIN_NOTE, TWIN_TAIL, Candidate, Outcome, Reading, SlipDecoder, Verdict
from .pile import decode_round
from .evidence import SlipInk, slip_ink
from .hands import Hands
from .knowledge import LegalMove, RoundKnowledge
from .priors import Priors, load_priors

__all__ = ["HAND_NOTE", "LOOKS_NOTE", "LOOKS_TAIL", "TWIN_NOTE", "TWIN_TAIL", "Candidate", "Hands", "LegalMove", "Outcome", "Priors", "Reading", "RoundKnowledge", "SlipDecoder", "SlipInk",
           "Verdict", "decode_round", "load_priors", "slip_ink"]
