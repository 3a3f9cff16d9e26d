"""Anticipation games (RULES.md §7): every player builds an own board from letter groups known
in advance. Entry points: `correct_anticipation_game` (a whole game) and `answer_verifications`
(a round's "Verificare" answers); `judge.load_game` reads the `fluturas judge` input."""
from corrector.anticipation.correction import AnticipationResult, answer_verifications, correct_anticipation_game
from corrector.anticipation.game import AnticipationGame, AnticipationSlip, Player, Variant

__all__ = ["AnticipationGame", "AnticipationResult", "AnticipationSlip", "Player", "Variant",
           "answer_verifications", "correct_anticipation_game"]
