"""Handwriting-like fonts from Debian packages, split once into train / calibration / held-out sets.

The split is fixed here so the model, its calibrated threshold and the benchmark always agree on
which fonts the reader has never seen. install.sh installs their packages.
"""
from __future__ import annotations

import glob
import sys
from dataclasses import dataclass
from pathlib import Path

FONT_ROOT = Path("/usr/share/fonts")
# Copies of the held-out faces (OFL) in the same layout, for an installed wheel on a machine without
# the packages.
BUNDLED = Path(__file__).resolve().parent / "bundled"

# (Debian package, glob under /usr/share/fonts). Held-out fonts are only used by the benchmark.
# Outline-only fonts (e.g. fonts-femkeklaver) are left out: no pen writes hollow letters.
HELD_OUT: tuple[tuple[str, str], ...] = (
    ("fonts-humor-sans", "truetype/humor-sans/*.ttf"),
    ("fonts-breip", "truetype/breip/*.ttf"),
    ("fonts-bwht", "opentype/bwht/BecauseWeLearn-Regular.otf"),
)
# Calibration fonts: unseen by training, used to fit temperature and the acceptance threshold. Only
# faces a person could write: a square display face (dustin's It_wasn_t_me) would set the threshold
# by glyphs no pen makes.
CALIBRATION: tuple[tuple[str, str], ...] = (
    ("fonts-dkg-handwriting", "truetype/fifthhorseman/dkg.ttf"),
    ("fonts-sjfonts", "truetype/sjfonts/SteveHand.ttf"),
    ("fonts-bwht", "opentype/bwht/BecauseWeMentor-Regular.otf"),
)
TRAIN: tuple[tuple[str, str], ...] = (
    ("fonts-bwht", "opentype/bwht/BecauseWeBuild-Regular.otf"),
    ("fonts-bwht", "opentype/bwht/BecauseWeConnect-Regular.otf"),
    ("fonts-bwht", "opentype/bwht/BecauseWeCreate-Regular.otf"),
    ("fonts-bwht", "opentype/bwht/BecauseWeOrganize-Regular.otf"),
    ("fonts-dkg-handwriting", "truetype/fifthhorseman/dkgBd.ttf"),
    ("fonts-dkg-handwriting", "truetype/fifthhorseman/dkgIt.ttf"),
    ("fonts-comic-neue", "opentype/comic-neue/ComicNeue-*.otf"),
    ("fonts-kaushanscript", "opentype/kaushanscript/*.otf"),
    ("fonts-kristi", "truetype/kristi/*.ttf"),
    ("fonts-ecolier-court", "truetype/ecolier-court/*.ttf"),
    ("fonts-rufscript", "truetype/rufscript/*.ttf"),
    ("fonts-tomsontalks", "truetype/tomsontalks/*.ttf"),
    ("fonts-sjfonts", "truetype/sjfonts/Delphine.ttf"),
    ("fonts-cabinsketch", "truetype/cabinsketch/*.ttf"),
    ("fonts-averia-gwf", "truetype/averia-gwf/*.ttf"),
    ("fonts-fantasque-sans", "truetype/fantasque-sans/Normal/TTF/*.ttf"),
    ("fonts-opendyslexic", "opentype/opendyslexic/*.otf"),
    ("fonts-sil-andika", "truetype/andika/*.ttf"),
    ("fonts-quicksand", "truetype/quicksand/*.ttf"),
    ("fonts-comfortaa", "truetype/comfortaa/*.ttf"),
    ("fonts-dejavu-core", "truetype/dejavu/DejaVuSans*.ttf"),
    ("fonts-liberation", "truetype/liberation/Liberation*.ttf"),
    ("fonts-freefont-ttf", "truetype/freefont/*.ttf"),
    ("fonts-urw-base35", "opentype/urw-base35/[CNPU]*.otf"),
    ("fonts-osifont", "truetype/osifont/*.ttf"),
    ("fonts-routed-gothic", "truetype/routed-gothic/*.ttf"),
    ("fonts-cherrybomb", "opentype/cherrybomb/*.otf"),
    ("fonts-yusei-magic", "truetype/yusei-magic/*.ttf"),
    ("fonts-klee", "truetype/klee/*.ttf"),
    ("fonts-lato", "truetype/lato/Lato-*.ttf"),
    ("fonts-cantarell", "opentype/cantarell/*.otf"),
    ("fonts-karla", "truetype/karla/*.otf"),
    ("fonts-dosis", "opentype/dosis/*.otf"),
    ("fonts-jura", "opentype/jura/*.otf"),
    ("fonts-play", "truetype/play/*.ttf"),
    ("fonts-league-spartan", "opentype/league-spartan/*.otf"),
    ("fonts-isabella", "truetype/isabella/*.ttf"),
    ("fonts-eurofurence", "truetype/eurofurence/*.ttf"),
    ("fonts-dustin", "truetype/dustin/[BDMS]*.ttf"),
    ("fonts-dustin", "truetype/dustin/dustismo*.ttf"),
    ("fonts-junction", "opentype/junction/*.otf"),
    ("fonts-rocknroll", "truetype/rocknroll/*.ttf"),
    ("fonts-dancingscript", "opentype/dancingscript/*.otf"),
    ("fonts-seto", "truetype/seto/setofont.ttf"),
    ("fonts-kiloji", "truetype/kiloji/kiloji*.ttf"),
    ("fonts-nanum-extra", "truetype/nanum/NanumPen.ttf"),
    ("fonts-nanum-extra", "truetype/nanum/NanumBrush.ttf"),
    ("fonts-nanum-extra", "truetype/nanum/NanumBarunpen*.ttf"),
    ("fonts-yozvox-yozfont", "truetype/yozvox-yozfont/YOz[RB]NF.ttf"),
    ("fonts-leckerli-one", "truetype/leckerli-one/*.ttf"),
)


@dataclass(frozen=True)
class FontSet:
    """Resolved font files of one split; `missing` lists packages whose files are not installed.

    `groups` keeps the files of each entry together: a family of 18 weights (Lato) is one way of
    writing, not 18, so training draws a family first and a file within it second.
    """

    groups: tuple[tuple[Path, ...], ...]
    missing: tuple[str, ...]
    scale: tuple[float, ...] = ()  # each group's weight against a plain family's (1.0 when empty)

    @property
    def paths(self) -> tuple[Path, ...]:
        return tuple(p for group in self.groups for p in group)

    def weights(self) -> list[float]:
        """Sampling weight of each file in `paths`: every family equally likely, times its `scale`."""
        scale = self.scale or (1.0,) * len(self.groups)
        return [w / len(group) for group, w in zip(self.groups, scale) for _ in group]


def resolve(split: tuple[tuple[str, str], ...]) -> FontSet:
    seen: set[Path] = set()
    missing: list[str] = []
    groups: list[tuple[Path, ...]] = []
    for package, pattern in split:
        found = sorted(Path(p) for p in glob.glob(str(FONT_ROOT / pattern)))
        if not found:
            found = sorted(Path(p) for p in glob.glob(str(BUNDLED / pattern)))
        if not found:
            missing.append(package)
        new = tuple(p for p in found if p not in seen)  # a file matched by two entries counts once
        if new:
            groups.append(new)
        seen.update(new)
    return FontSet(tuple(groups), tuple(dict.fromkeys(missing)))


def writers(split: str, script_weight: float = 1.0) -> FontSet:
    """Every face of a split: the Debian fonts above plus the fetched `@fontsource` handwriting faces
    of the same split (`fontsource.py`), each face a family of its own. `split` is train, calibration,
    held_out or validation (fetched faces only); a face not fetched is simply absent (fetch with `python -m scanner.synth.fontsource`).
    `script_weight`: how often each script face (`fontsource.SCRIPT`) is drawn against a printing
    family; they teach the capitals of script hands and, drawn as often as the rest, a looped I
    that printing hands' I is then read as (J).
    """
    from scanner.synth import fontsource

    debian = resolve({"train": TRAIN, "calibration": CALIBRATION, "held_out": HELD_OUT, "validation": ()}[split])
    scripts = {fontsource.face_path(f) for f in fontsource.SCRIPT}
    extra = tuple((p,) for p in fontsource.paths(split))
    scale = (1.0,) * len(debian.groups) + tuple(script_weight if p in scripts else 1.0 for (p,) in extra)
    return FontSet(debian.groups + extra, debian.missing + tuple(fontsource.missing(split)), scale)


def faces_note(faces: int | None, missing: int | None) -> str:
    """How many faces a benchmark's slips were written in, for its printout: a split measured
    without its unfetched faces is another, smaller set of hands (3 held-out faces instead of 14)."""
    if faces is None:
        return ""
    return f" ({faces} faces)" if not missing else f" ({faces} faces; {missing} of the split missing)"


def warn_unfetched(fs: FontSet, split: str) -> None:
    """One line on stderr when a split lacks faces: figures measured without them are not the
    split's, and a benchmark would otherwise say nothing of it."""
    if fs.missing:
        named = ", ".join(fs.missing[:3]) + (", ..." if len(fs.missing) > 3 else "")
        print(f"fonts {split}: {len(fs.missing)} faces missing ({named}), slips written in the "
              f"{len(fs.groups)} present; fetch them with `python -m scanner.synth.fontsource`", file=sys.stderr)


def split_entries(split: tuple[tuple[str, str], ...]) -> list[str]:
    """A split as `package:glob` lines, exactly as a model's recipe records the fonts it saw."""
    return [f"{package}:{pattern}" for package, pattern in split]


def packages() -> list[str]:
    """All Debian font packages the renderer and the training recipe use."""
    return sorted({p for split in (TRAIN, CALIBRATION, HELD_OUT) for p, _ in split})
