"""The bundled sample tournament (game, players, readings, game log, the Romanian demo word list),
shipped inside the package so that `fluturas demo` and `fluturas top` work from an installed wheel."""
from __future__ import annotations

from pathlib import Path

SAMPLES = Path(__file__).resolve().parent
DEMO_GAME = SAMPLES / "game.json"
DEMO_WORDS = SAMPLES / "wordlists" / "ro-demo-hunspell.txt.gz"  # a demo list, not the LOC
