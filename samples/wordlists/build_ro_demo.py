"""Build the bundled Romanian demo word list (demo list, not LOC) from Debian `hunspell-ro`.

Why a script: the list must be reproducible from public sources, byte for byte. Steps:
expand the Hunspell dictionary with `unmunch` (package `hunspell-tools`), drop entries that
start with a capital letter (proper nouns and abbreviations are not playable), fold with the
`ro` pack (Annex 1: Ă=Â=A, Î=I, Ș=Ş=S, Ț=Ţ=T, uppercase), keep words made only of letters of the
pack (K Q W Y included: a joker may stand for them, RULES.md §1) with 2–15 tiles, sort, and
write a gzip file with a fixed timestamp so the same input gives the same bytes.

Usage: python samples/wordlists/build_ro_demo.py [--dic PATH] [--aff PATH] [--out PATH]
"""
from __future__ import annotations

import argparse
import gzip
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from corrector.rulepack import load_pack  # noqa: E402

DEFAULT_DIC = Path("/usr/share/hunspell/ro_RO.dic")
DEFAULT_AFF = Path("/usr/share/hunspell/ro_RO.aff")
DEFAULT_OUT = Path(__file__).resolve().parent / "ro-demo-hunspell.txt.gz"


def expand(dic: Path, aff: Path) -> list[str]:
    """Every inflected form Hunspell accepts, as `unmunch` prints it (UTF-8, SET UTF-8 in the .aff)."""
    result = subprocess.run(["unmunch", str(dic), str(aff)], capture_output=True, check=True)
    return result.stdout.decode("utf-8").splitlines()


def demo_words(forms: list[str]) -> list[str]:
    pack = load_pack("ro")
    alphabet = set(pack.tiles.alphabet)
    words: set[str] = set()
    for form in forms:
        form = form.strip()
        if not form or not form[0].islower():
            continue
        folded = pack.tiles.fold(form)
        if 2 <= len(folded) <= 15 and all(ch in alphabet for ch in folded):
            words.add(folded)
    return sorted(words)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dic", type=Path, default=DEFAULT_DIC)
    parser.add_argument("--aff", type=Path, default=DEFAULT_AFF)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    words = demo_words(expand(args.dic, args.aff))
    data = ("\n".join(words) + "\n").encode("ascii")
    with open(args.out, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
        gz.write(data)
    print(f"{args.out}: {len(words)} words (demo list, not LOC)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
