"""The arbiter's workflow: the tournament store, the round loop, the review queue, exports,
results and appeals (issue 7). Nothing here prints; `cli.py` does."""

DEFAULT_DB = "fluturas.db"  # the store the commands open when neither --db nor $FLUTURAS_DB says
