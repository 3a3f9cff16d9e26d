"""Handwriting faces of the `@fontsource` npm packages (OFL), chosen as people print capitals and digits.

Of the ~340 faces Google Fonts files under "handwriting", these are the ones that look like a person
printing: no connected script, no swashes, no hollow letters (each was looked at on a sheet of
A–Z 0–9). They are fetched at training (or benchmark) time only, by `fetch` with npm, into a cache
outside the repository; nothing at run time or in CI needs them.

The split is fixed here, like `fonts.py`'s: near-twins (delius / delius-unicase) share a split, and no
face whose id hashes into `scanner/train/data/never-used-faces.sha256` may appear in any split.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

VERSION = "5.3"  # major.minor of the packages the faces were chosen from; npm gives the newest patch
CACHE = Path(os.environ.get("FLUTURAS_FONT_CACHE", Path.home() / ".cache/fluturas/fontsource"))
NEVER_USED = Path(__file__).resolve().parents[1] / "train" / "data" / "never-used-faces.sha256"

HELD_OUT: tuple[str, ...] = (
    "annie-use-your-telescope", "delius", "delius-unicase", "give-you-glory", "kavivanar", "mali",
    "mansalva", "over-the-rainbow", "solitreo", "the-girl-next-door", "zhi-mang-xing",
)
# klee-one and nanum-pen-script left calibration (2026-11-27): they are the Debian train faces
# fonts-klee and NanumPen.ttf, so the reader had seen them.
CALIBRATION: tuple[str, ...] = (
    "cause", "dekko", "delicious-handrawn", "mynerve", "yomogi",
)
# Training faces of people printing capitals and digits.
PRINTING: tuple[str, ...] = (
    "amatic-sc", "borel", "chilanka", "covered-by-your-grace", "crafty-girls", "east-sea-dokdo",
    "fondamento", "fuzzy-bubbles", "gamja-flower", "gloria-hallelujah", "handlee", "hi-melody", "itim",
    "just-another-hand", "just-me-again-down-here", "liu-jian-mao-cao", "long-cang", "ma-shan-zheng",
    "merienda", "nanum-gothic-coding", "nerko-one", "neucha", "pangolin", "playpen-sans", "rancho",
    "schoolbell", "sedgwick-ave", "sedgwick-ave-display", "short-stack", "sriracha",
    "sue-ellen-francisco", "swanky-and-moo-moo", "walter-turncoat", "zeyada",
)
SCRIPT: tuple[str, ...] = (
    # Script capitals (chosen 2026-11-27): a looped I read J, a T read J, an F read G were most of the
    # reader's errors on the validation hands. Only faces whose capitals stay legible, none a
    # near-twin of a validation or held-out face (bilbo-swash-caps, delius-swash-caps, princess-sofia
    # and every playwrite-* stay out).
    "allura", "birthstone", "caramel", "cedarville-cursive", "clicker-script", "comforter-brush",
    "eagle-lake", "engagement", "grand-hotel", "great-vibes", "hurricane", "italianno", "kings",
    "lugrasimo", "meow-script", "montez", "norican", "pacifico", "parisienne", "petit-formal-script",
    "quintessential", "rochester", "sacramento", "send-flowers", "smooch", "style-script", "water-brush",
    "yesteryear",
)
TRAIN = PRINTING + SCRIPT  # `fonts.writers("train", script_weight=...)` draws SCRIPT less often
# Chosen the same way (2026-11-27): hands the reader never trains on and the decoder is never
# calibrated on, kept to choose between readers (`--fonts validation` in the benchmarks), so that
# the held-out faces are only ever measured, never chosen on (scanner/README.md, "More hands").
# comic-neue, dancing-script, kaushan-script and kristi left it (2026-11-27): Debian train fonts.
VALIDATION: tuple[str, ...] = (
    "bad-script", "bilbo", "calligraffitti", "cookie", "courgette", "damion",
    "dawning-of-a-new-day", "felipa", "grechen-fuemen", "hachi-maru-pop", "iansui",
    "kolker-brush", "la-belle-aurore", "lakki-reddy", "lxgw-wenkai-tc",
    "marck-script", "niconne", "oooh-baby", "playwrite-at", "playwrite-au-vic", "playwrite-de-grund",
    "playwrite-hr-lijeva", "playwrite-is", "redressed", "romanesco", "satisfy", "sofia", "sunshiney",
    "twinkle-star", "vibur", "vujahday-script", "yellowtail",
)


SPLITS = {"train": TRAIN, "calibration": CALIBRATION, "held_out": HELD_OUT, "validation": VALIDATION}


def chosen() -> list[str]:
    """Every face chosen, split after split."""
    return [f for split in SPLITS.values() for f in split]


def id_hash(face: str) -> str:
    return hashlib.sha256(face.encode()).hexdigest()


def never_used() -> set[str]:
    """sha256 of the ids of faces that must never be trained, calibrated or measured on."""
    lines = NEVER_USED.read_text().splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def face_path(face: str) -> Path:
    return CACHE / f"{face}.woff2"


def paths(split: str) -> list[Path]:
    """The fetched files of a split (an unfetched face is left out; `missing` names them)."""
    return [face_path(f) for f in SPLITS[split] if face_path(f).exists()]


def missing(split: str) -> list[str]:
    return [f for f in SPLITS[split] if not face_path(f).exists()]


def fetch(faces: list[str] | tuple[str, ...]) -> list[str]:
    """Fetch each face's latin 400 woff2 with `npm pack` into CACHE; returns the faces that failed."""
    banned = never_used()
    failed: list[str] = []
    CACHE.mkdir(parents=True, exist_ok=True)
    for face in faces:
        if id_hash(face) in banned:
            raise ValueError(f"{face}: listed in {NEVER_USED.name}, never to be used")
        if face_path(face).exists():
            continue
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run(["npm", "pack", f"@fontsource/{face}@~{VERSION}"], cwd=tmp,
                                  capture_output=True, text=True)
            tgz = next(Path(tmp).glob("*.tgz"), None)
            if done.returncode or tgz is None:
                failed.append(face)
                continue
            with tarfile.open(tgz) as tar:
                member = next((m for m in tar.getmembers()
                               if m.name.endswith(f"/{face}-latin-400-normal.woff2")), None)
                if member is None:
                    failed.append(face)
                    continue
                tar.extract(member, tmp, filter="data")
                shutil.copy(Path(tmp) / member.name, face_path(face))
    return failed


if __name__ == "__main__":
    bad = fetch(chosen())
    print(f"fetched into {CACHE}; failed: {bad or 'none'}")
