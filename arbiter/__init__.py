"""The arbiter's workflow: the tournament store, the round loop, the review queue, exports,
results and appeals (issue 7), one folder per stage of a game (arbiter/README.md, "Where things
are"). Nothing here prints; `cli.py` does."""

DEFAULT_DB = "fluturas.db"  # the store the commands open when neither --db nor $FLUTURAS_DB says
