"""Anticipation games in the arbiter workflow (RULES.md §7, docs/anticipation.md): the groups and
the round→group order kept on the game, typed slips filed per round, the correction by
`corrector.anticipation` stored as decisions and standings, and the game's own sheet."""
