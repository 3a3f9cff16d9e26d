"""The arbiter's workflow: the tournament store, the round loop, the review queue, exports,
results and appeals (issue 7). Nothing here prints; `cli.py` does."""
