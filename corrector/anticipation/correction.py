"""The correction of a whole anticipation game: the API the arbiter workflow and `fluturas judge`
call (RULES.md §7). `correct_anticipation_game(game)` replays every player's own board and ranks
the players; `answer_verifications(game, round)` gives the "Verificare" answers of a round on
their own, before that round is corrected (A 5.5.h)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corrector.errors import AnticipationInputError
from corrector.anticipation.game import AnticipationGame, Variant
from corrector.anticipation.groups import GroupSet, check_round_order
from corrector.anticipation.outcome import PlayerResult
from corrector.anticipation.replay import anticipation_pack, replay_player
from corrector.anticipation.variants import rank_players
from corrector.anticipation.verification import VerificationAnswer, answer_verification


@dataclass
class AnticipationResult:
    """Per player, per round: moves with their rulings and revisions, warnings, penalties after
    the A 6.3 cap, totals and place. `verifications` lists every "Verificare" answer, round by
    round, so a report can show them before the rest."""

    variant: Variant
    order: tuple[int, ...]
    groups: GroupSet | None
    players: list[PlayerResult]
    verifications: list[VerificationAnswer]

    def player(self, table: int) -> PlayerResult:
        for p in self.players:
            if p.table == table:
                return p
        raise KeyError(table)

    def standings(self) -> list[PlayerResult]:
        """Ranked players by place (then table), eliminated players last."""
        return sorted(self.players, key=lambda p: (p.rank is None, p.rank or 0, p.table))

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "anticipation",
            "variant": self.variant.key,
            "order": list(self.order),
            "groups": ["".join(g) for g in self.groups.groups] if self.groups else None,
            "redraws": [{"group": r.group, "letters": "".join(r.letters), "reason": r.reason}
                        for r in self.groups.redraws] if self.groups else [],
            "repairs": [{"groups": list(r.groups), "letters": ["".join(g) for g in r.letters]}
                        for r in self.groups.repairs] if self.groups else [],
            "verifications": [v.to_json() for v in self.verifications],
            "players": [p.to_json() for p in self.standings()],
        }


def _check(game: AnticipationGame) -> None:
    tables = [p.table for p in game.players]
    if len(set(tables)) != len(tables):
        raise AnticipationInputError("players: a table number is used twice")
    unknown = sorted({s.table for s in game.slips} - set(tables))
    if unknown:
        raise AnticipationInputError(f"slips: table {unknown[0]} is not a player")
    for p in game.players:
        check_round_order(game.order, game.groups_of(p.table))


def correct_anticipation_game(game: AnticipationGame) -> AnticipationResult:
    _check(game)
    players = [replay_player(game, p) for p in game.players]
    rank_players(game.variant, players, game.rounds)
    verifications = sorted((r.verification for p in players for r in p.rounds if r.verification),
                           key=lambda v: (v.round, v.table))
    return AnticipationResult(game.variant, game.order, game.groups, players, verifications)


def answer_verifications(game: AnticipationGame, rnd: int) -> list[VerificationAnswer]:
    """The "Verificare" answers of one round, by table, without correcting anything."""
    pack = anticipation_pack(game.pack)
    return [answer_verification(s.slip, s.verify_words, pack, game.lexicon)
            for s in sorted(game.slips, key=lambda s: s.table)
            if s.round == rnd and (s.verify or s.verify_words)]
