"""Why a slip waits in the review queue, in the arbiter's words: the reason the store keeps (the
scanner's and the decoder's sentences) said again, the decoder's figures as a percentage and the
slip's boxes by name ("sigur 71 %: căsuțele punctajului sunt neclare")."""
from __future__ import annotations

import re
from typing import Any

from .refusals import known, refusal
from .rulings import EN, RO, _pick, _plain, flag

# The slip's fields as printed on it (D 5.3.5), with the genitive for "the boxes of ...".
_FIELD: dict[str, tuple[str, str, str]] = {  # field: (Romanian, Romanian genitive, English)
    "round": ("tur", "turului", "round"),
    "table": ("masă", "mesei", "table"),
    "score": ("punctaj", "punctajului", "score"),
    "total": ("total", "totalului", "total"),
    "position": ("poziție", "poziției", "position"),
    "word": ("depunere", "cuvântului", "word"),
    "jokers": ("joker", "jokerului", "joker"),
}
_KIND = {"reading": ("citire nesigură", "unsure reading"), "decision": ("decizie de verificat", "ruling to check")}
def kind(code: Any, lang: str = RO) -> str:
    return _pick(_KIND[code], lang) if code in _KIND else _plain(code)


def field(name: str, lang: str = RO) -> str:
    entry = _FIELD.get(name)
    return (entry[2] if lang == EN else entry[0]) if entry else _plain(name)


def genitive(name: str) -> str:
    """"the boxes of the word" in Romanian: "cuvântului"."""
    entry = _FIELD.get(name)
    return entry[1] if entry else _plain(name)


def _boxes_of(fields: list[str], lang: str) -> str:
    if lang == EN:
        return "the " + " and ".join(_FIELD.get(f, (f, f, f))[2] for f in fields) + " boxes are unclear"
    return "căsuțele " + " și ale ".join(_FIELD.get(f, (f, f, f))[1] for f in fields) + " sunt neclare"


def _letters(text: str, lang: str) -> str:
    """"M read N, C read G" → "M citit ca N, C citit ca G"."""
    return text if lang == EN else text.replace(" read ", " citit ca ")


def _digits(text: str, lang: str) -> str:
    """"1 0.862 sure, 6 0.700 sure" → "cifra 1 sigură 86 %, cifra 6 sigură 70 %"."""
    parts = [piece.rsplit(" ", 2) for piece in text.split(", ")]
    word, sure = ("digit", "sure") if lang == EN else ("cifra", "sigură")
    return ", ".join(f"{word} {ch} {sure} {_percent(p)}" for ch, p, _ in parts)


def _percent(p: str | float) -> str:
    return f"{round(100 * float(p))} %"


_PIECES: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(r"^decoder: table unreadable or not seated$"),
     lambda m, lang: "table unreadable or not seated" if lang == EN else "masa nu se citește sau nu are jucător"),
    (re.compile(r"^(?:decoder: )?table number unreadable$"),
     lambda m, lang: "the table number is unreadable" if lang == EN else "numărul mesei nu se citește"),
    (re.compile(r"^table (\d+) is not seated$"),
     lambda m, lang: f"table {m[1]} has no player" if lang == EN else f"la masa {m[1]} nu stă niciun jucător"),
    (re.compile(r"^(?:decoder: )?the (?:slip|QR) says round (\d+), (?:this is|filed in) round (\d+)$"),
     lambda m, lang: (f"the slip says round {m[1]}, filed in round {m[2]}" if lang == EN
                      else f"fluturașul spune turul {m[1]}, depus în turul {m[2]}")),
    (re.compile(r"^unsure: (.+)$"),
     lambda m, lang: ("unsure: " if lang == EN else "nesigur: ") + ", ".join(field(f.strip(), lang) for f in m[1].split(","))),
    (re.compile(r"^judge flagged: (.+)$"),
     lambda m, lang: "; ".join(flag(f.strip(), lang) for f in m[1].split(","))),  # the item's kind says "to check"
    (re.compile(r"^(?:decoder: )?another slip of this round also claims table (\d+)$"),
     lambda m, lang: (f"another slip of this round also claims table {m[1]}" if lang == EN
                      else f"alt fluturaș din acest tur are tot masa {m[1]}")),
    (re.compile(r"^(?:decoder: )?ruled incorrect on a word read unclearly: its letters ([\d.]+) sure"),
     lambda m, lang: (f"the word does not read clearly (its letters {_percent(m[1])} sure): check it before ruling it "
                      "incorrect" if lang == EN else f"cuvântul nu se citește clar (literele sigure {_percent(m[1])}): "
                      "verificați-l înainte de a-l declara incorect")),
    (re.compile(r"^(?:decoder: )?ruled incorrect on a position read through a look-alike: (.+) \((.+)\)$"),
     lambda m, lang: (f"ruled incorrect on a position that reads as a square only by taking a letter for a digit "
                      f"({_letters(m[1], lang)}): check the position box before giving 0 points" if lang == EN
                      else f"decizie de depunere incorectă pe o poziție care devine pătrat doar luând o literă drept "
                      f"cifră ({_letters(m[1], lang)}): verificați căsuța poziției înainte de a acorda 0 puncte")),
    (re.compile(r"^(?:decoder: )?ruled against the ink's own reading on a position read through a look-alike: (.+) \((.+)\)$"),
     lambda m, lang: (f"the position reads as a square only by taking a letter for a digit ({_letters(m[1], lang)}), "
                      "and the ink alone gives another ruling: check the position box" if lang == EN
                      else f"poziția devine pătrat doar luând o literă drept cifră ({_letters(m[1], lang)}), iar "
                      "cerneala singură dă altă decizie: verificați căsuța poziției")),
    (re.compile(r"^(?:decoder: )?ruled against the ink's own reading on a position whose (\S) is a stroke read (\S), "
                r"where the reader saw (\S) more than \S \((.+)\)$"),
     lambda m, lang: (f"the position's {m[1]} is a bare stroke the reader took for {m[2]}, and it saw {m[3]} there "
                      f"more than {m[1]}: check the position box before crediting the move" if lang == EN
                      else f"{m[1]} din poziție e o linie simplă citită ca {m[2]}, iar cititorul a văzut acolo mai "
                      f"degrabă {m[3]} decât {m[1]}: verificați căsuța poziției înainte de a acorda punctele")),
    (re.compile(r"^(?:decoder: )?ruled incorrect two (?:signs|letters) from the legal (\S+) (\S+): (.+)$"),
     lambda m, lang: (f"ruled incorrect, but two signs away from the legal move {m[1]} {m[2]} "
                      f"({_letters(m[3], lang)}): check those boxes before giving 0 points" if lang == EN
                      else f"decizie de depunere incorectă, dar la două semne de mutarea legală {m[1]} {m[2]} "
                      f"({_letters(m[3], lang)}): verificați acele căsuțe înainte de a acorda 0 puncte")),
    (re.compile(r"^(?:decoder: )?ruled incorrect at (\S+), one sign from (\S+) where (\S+) scores: (.+)$"),
     lambda m, lang: (f"ruled incorrect at {m[1]}, but one sign from {m[2]}, where {m[3]} scores "
                      f"({_letters(m[4], lang)}): check the position box before giving 0 points" if lang == EN
                      else f"decizie de depunere incorectă la {m[1]}, dar la un semn de {m[2]}, unde {m[3]} "
                      f"punctează ({_letters(m[4], lang)}): verificați căsuța poziției înainte de a acorda 0 puncte")),
    (re.compile(r"^(?:decoder: )?declared (\d+), (\d+) points from the move's (\d+): "),
     lambda m, lang: (f"declared {m[1]}, {m[2]} points away from the move's {m[3]}: check the score and position "
                      "boxes before giving the warning" if lang == EN
                      else f"punctaj declarat {m[1]}, la {m[2]} puncte de cel al mutării ({m[3]}): verificați "
                      "căsuțele punctajului și ale poziției înainte de a da avertismentul")),
    (re.compile(r"^(?:decoder: )?score ruled wrong on digits read unclearly: declared (\d+), the move scores (\d+) \((.+)\)$"),
     lambda m, lang: (f"declared {m[1]}, the move scores {m[2]}, but the score does not read clearly "
                      f"({_digits(m[3], lang)}): check the score boxes before giving the warning" if lang == EN
                      else f"punctaj declarat {m[1]}, mutarea face {m[2]}, dar punctajul nu se citește clar "
                      f"({_digits(m[3], lang)}): verificați căsuțele punctajului înainte de a da avertismentul")),
    (re.compile(r"^(?:decoder: )?a slip in review may be table (\d+)'s$"),
     lambda m, lang: (f"a slip still to be checked may be table {m[1]}'s" if lang == EN
                      else f"un fluturaș încă neverificat poate fi al mesei {m[1]}")),
    (re.compile(r"^(?:decoder: )?this slip and table (\d+)'s may have each other's table numbers$"),
     lambda m, lang: (f"this slip and table {m[1]}'s may have each other's table numbers" if lang == EN
                      else f"acest fluturaș și cel al mesei {m[1]} pot avea numerele meselor inversate")),
    (re.compile(r"^(?:decoder: )?table (\d+) has no slip and this one may be its$"),
     lambda m, lang: (f"table {m[1]} has no slip yet, and this one may be its" if lang == EN
                      else f"masa {m[1]} nu are încă fluturaș, iar acesta poate fi al ei")),
    (re.compile(r"^(?:decoder: )?a box left empty between the written boxes of (.+)$"),
     lambda m, lang: (("an empty box between the written boxes: " if lang == EN
                       else "o căsuță goală între căsuțele scrise: ")
                      + ", ".join(field(f.strip(), lang) for f in m[1].split(",")))),
    (re.compile(r"^the slip was printed for game .*$"),
     lambda m, lang: "the slip was printed for another game" if lang == EN else "fluturașul a fost tipărit pentru altă partidă"),
)
_DECODER = re.compile(r"^decoder: ([\d.]+) sure of ")
ASKED = "under the confidence asked for"  # a decided slip less sure than `round scan --threshold` asked
_AGAINST_BOXES = re.compile(r"boxes ([^;]+)")
# What the ink rules out (the decoder's veto, one box a piece): "word[3] reads O, not D",
# "score[2] is written (7) but the reading leaves it out", "round[1] would need 2 where nothing is written"
_VETO = re.compile(r"^(?:.*but the ink rules it out: )?([a-z_]+)\[(\d+)\] (?:reads (.+), not (\S+)"
                   r"|is written \((.*)\) but the reading leaves it out|would need (\S+) where nothing is written)$")
_BOX = re.compile(r"([a-z_]+)\[\d+\]")


def _veto(piece: str, lang: str) -> str | None:
    """One box the ink rules out, in the arbiter's words; None for any other piece."""
    m = _VETO.match(piece)
    if not m:
        return None
    name, box, seen, needed, written, missing = m.groups()
    if lang == EN:
        where = f"box {box} of the {field(name, EN)}"
        if seen is not None:
            return f"{where} reads {seen.replace(', ', ' or ')}, not {needed}"
        return f"{where} is written ({written}) but left out" if written is not None else f"{where} is empty, not {missing}"
    where = f"căsuța {box} a {genitive(name)}"
    if seen is not None:
        return f"{where} se citește {seen.replace(', ', ' sau ')}, nu {needed}"
    return f"{where} e scrisă ({written}), dar citirea o omite" if written is not None else f"{where} e goală, nu {missing}"


def _decoder(text: str, lang: str) -> str:
    """"decoder: 0.712 sure of … boxes score[2]" → "sigur 71 %: căsuțele punctajului sunt neclare"."""
    sure = _DECODER.match(text)
    head = ("{} sure" if lang == EN else "sigur {}").format(_percent(sure[1])) if sure else ""
    fields: list[str] = []
    boxes = _AGAINST_BOXES.search(text)
    for name in _BOX.findall(boxes[1] if boxes else ""):
        if name not in fields:
            fields.append(name)
    parts = [_boxes_of(fields, lang)] if fields else []
    if ASKED in text:
        parts.append("below the confidence asked for at the scan" if lang == EN else "sub pragul de încredere cerut la scanare")
    if "the ink alone reads" in text:
        parts.append("the ink alone gives another ruling" if lang == EN else "cerneala singură dă altă decizie")
    vetoes = [v for v in (_veto(p, lang) for p in text.split("; ")) if v]
    if vetoes:
        parts.append(("the handwriting says otherwise: " if lang == EN else "scrisul arată altceva: ")
                     + ", ".join(vetoes))
    if not parts:
        parts.append("the reading is unsure" if lang == EN else "citirea este nesigură")
    return f"{head}: {'; '.join(parts)}" if head else "; ".join(parts)


def review_reason(reason: str | None, lang: str = RO) -> str:
    """Why a slip waits for an arbiter, from the reason the store keeps: each known sentence in the
    arbiter's words; the decoder's figures as a percentage and the slip's boxes by name."""
    if not reason:
        return ""
    pieces = reason.split("; ")
    out: list[str] = []
    i = 0
    while i < len(pieces):
        piece = pieces[i]
        if _DECODER.match(piece):  # the decoder's doubt runs on over its own "; against …" pieces
            j = i + 1
            while j < len(pieces) and (pieces[j].startswith(("against ", "the ink alone")) or _VETO.match(pieces[j])):
                j += 1
            out.append(_decoder("; ".join(pieces[i:j]), lang))
            i = j
            continue
        for pattern, say in _PIECES:
            m = pattern.match(piece)
            if m:
                out.append(say(m, lang))
                break
        else:
            out.append(piece.removeprefix("decoder: "))
        i += 1
    return "; ".join(out)


def scan_problem(line: str, lang: str = RO) -> str:
    """One line of what a scan did not file ("page.png: unsure: table; …"), the file's name kept
    and the rest in the arbiter's words: a refusal of the library as the pages say it, else the
    reasons a slip waits in review."""
    if known(line):
        return refusal(line, lang)
    source, sep, reason = line.partition(": ")
    return f"{source}: {review_reason(reason, lang)}" if sep else review_reason(line, lang)
