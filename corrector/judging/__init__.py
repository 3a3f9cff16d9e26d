"""Judging: what a slip says, the decision on each slip (RULES.md §3), sanctions, solos, totals and ranking of a whole game (§4, §6)."""
