"""The library's refusals in the arbiter's words. The workflow raises one English line for the
CLI (`round 3: continuation 'Z99 FOO' is not legal ...`, with its `--flags` and commands);
a web page shows the same refusal in Romanian (or English on request) without flags, commands,
file names or Python values. Each refusal is matched by its stable shape, once, here: the
library keeps its messages and its exit codes, and the pages read them through `refusal`.

Groups of a pattern are shown as found, except `t_…` (a nested refusal, translated in turn),
`f_…` (a field or option: `--deadline`, `score`, `review item 3: table`) and `a_…` (an
action: `an appeal`, `a review`). A refusal no pattern knows is shown under a sentence in the
page's language, and the app logs it so that it gets its words."""
from __future__ import annotations

import re
from dataclasses import dataclass

LANGS = ("ro", "en")

FIELDS: dict[str, tuple[str, str]] = {
    "deadline": ("termenul pentru contestații", "the appeal deadline"),
    "reason": ("motivul", "the reason"),
    "score": ("punctajul", "the score"),
    "cap": ("plafonul", "the cap"),
    "position": ("poziția", "the position"),
    "word": ("cuvântul", "the word"),
    "jokers": ("jokerii", "the jokers"),
    "table": ("masa", "table"),
    "round": ("runda", "round"),
    "tournament": ("turneul", "the tournament"),
    "name": ("numele", "the name"),
    "venue": ("locul", "the venue"),
    "category": ("categoria", "the category"),
    "arbitru": ("numele arbitrului", "the arbiter's name"),
    "kind": ("tipul contestației", "the kind of appeal"),
    "threshold": ("pragul de încredere", "the confidence threshold"),
    "club": ("clubul", "the club"),
    "the pile's round": ("runda teancului", "the pile's round"),
}
ACTIONS: dict[str, tuple[str, str]] = {
    "a sanction": ("o sancțiune", "a sanction"),
    "an appeal": ("o contestație", "an appeal"),
    "a review": ("o revizuire", "a review"),
    "a correction": ("o corectare", "a correction"),
    "filing slips": ("depunerea fluturașilor", "filing slips"),
    "changing a group": ("schimbarea grupei", "changing a group"),
    "changing the continuation": ("schimbarea depunerii reținute", "changing the retained move"),
    "changing the seating": ("schimbarea listei de jucători", "changing the seating"),
    "closing a round": ("închiderea rundei", "closing a round"),
    "discarding a slip": ("eliminarea unui fluturaș", "discarding a slip"),
    "moving a slip": ("mutarea unui fluturaș", "moving a slip"),
    "publishing provisional results": ("publicarea rezultatelor provizorii", "publishing the provisional results"),
    "publishing final results": ("publicarea rezultatelor finale", "publishing the final results"),
    "reopening a review item": ("redeschiderea unui fluturaș", "reopening a slip"),
    "withdrawing a sanction": ("retragerea unei sancțiuni", "withdrawing a sanction"),
    "withdrawing a appeal": ("retragerea unei contestații", "withdrawing an appeal"),
    "round correct": ("corectarea rundei", "correcting the round"),
    "round close": ("închiderea rundei", "closing the round"),
    "results provisional": ("publicarea rezultatelor provizorii", "publishing the provisional results"),
    "results final": ("publicarea rezultatelor finale", "publishing the final results"),
    "appeal": ("contestația", "the appeal"),
    "sanction": ("sancțiunea", "the sanction"),
}
STATES: dict[str, tuple[str, str]] = {
    "resolved": ("rezolvat", "resolved"), "discarded": ("eliminat", "discarded"), "open": ("deschis", "open"),
    "running": ("în desfășurare", "running"), "provisional": ("provizorii", "provisional"),
    "reopened": ("redeschise", "reopened"), "final": ("finale", "final"),
}


@dataclass(frozen=True)
class Refusal:
    pattern: re.Pattern[str]
    ro: str
    en: str
    join: str = ""  # refusals the library joined with this: split where every part has its words


def _r(pattern: str, ro: str, en: str) -> Refusal:
    return Refusal(re.compile(pattern, re.S), ro, en)


N = r"(?P<{}>\d+)"
ANY = r"(?P<{}>.+?)"


ONE = r"(?:(?!; slip \d|; review item \d).)*"  # inside one of the blockers the library joins with "; "


def n(name: str) -> str:
    return N.format(name)


def anything(name: str) -> str:
    return ANY.format(name)


# First match wins: the more particular shapes come first. The CLI's hints in parentheses or
# backticks are left out of the page's words; the page has its own buttons.
# A letter the tile set lacks, whether the word field is named before the tile set's refusal or not.
NOT_IN_TILE_SET = ("Cuvântul {value}: litera {letter} (a {i}-a) nu este în setul de piese.",
                   "The word {value}: the letter {letter} (number {i}) is not in the tile set.")


REFUSALS: tuple[Refusal, ...] = (
    # validation.py
    _r(rf"game {n('g')}: the results are final; {anything('a_action')} is refused.*",
       "Rezultatele sunt finale: {a_action} nu mai este primită (doar redeschiderea rezultatelor, cu motiv, o mai permite).",
       "The results are final: {a_action} is refused (only reopening the results, with a reason, allows it)."),
    _r(rf"{anything('f_field')} (?P<value>\S+): expected a round number ≥ 1",
       "{f_field} {value}: se așteaptă un număr de rundă de la 1 în sus.",
       "{f_field} {value}: expected a round number from 1 up."),
    _r(rf"{anything('f_field')} (?P<value>\S+): expected a table number ≥ 1",
       "{f_field} {value}: se așteaptă un număr de masă de la 1 în sus.",
       "{f_field} {value}: expected a table number from 1 up."),
    _r(rf"{anything('f_field')} (?P<value>\S+): expected a whole number of points ≥ 0",
       "{f_field} {value}: se așteaptă un număr întreg de puncte, de la 0 în sus.",
       "{f_field} {value}: expected a whole number of points, from 0 up."),
    _r(rf"{anything('f_field')} (?P<value>\S+): game {n('g')} has no such round \((?:rounds {n('lo')}–{n('hi')}|no round yet)\)",
       "{f_field} {value}: partida nu are această rundă.", "{f_field} {value}: the game has no such round."),
    _r(rf"{anything('f_field')} (?P<value>\S+): table (?P<t>\S+) is not seated in game {n('g')}",
       "{f_field} {value}: la masa {t} nu stă niciun jucător.", "{f_field} {value}: no player is seated at table {t}."),
    _r(rf"{anything('f_field')} {n('value')}: more than one round of this game can give \(at most {n('most')} points.*",
       "{f_field} {value}: mai mult decât poate da o rundă (cel mult {most} de puncte).",
       "{f_field} {value}: more than one round can give (at most {most} points)."),
    _r(r"--deadline (?P<value>.*?): expected HH:MM today.*",
       "Termenul pentru contestații {value}: se așteaptă ora de azi (18:30 sau 18.30) sau data și ora (2026-05-17 18:30).",
       "Appeal deadline {value}: expected a time today (18:30 or 18.30) or a date and time (2026-05-17 18:30)."),
    _r(r"(?:.*?)word (?P<value>'.*?'|\S+): letter (?P<letter>'.*?') \(position (?P<i>\d+) of .*", *NOT_IN_TILE_SET),
    _r(r"letter (?P<letter>'.*?') \(position (?P<i>\d+) of (?P<value>'.*?')\) is not in this tile set",
       *NOT_IN_TILE_SET),  # the tile set's own words, no field named before them
    _r(r"(?:.*?)word (?P<value>'.*?'|\S+): the word is empty", "Cuvântul lipsește.", "The word is missing."),
    _r(r"(?:.*?)position (?P<value>'.*?'|\S+): .*",
       "Poziția {value} nu este o poziție de pe tablă (de exemplu H4 sau 8D).",
       "The position {value} is not a position on the board (for example H4 or 8D)."),
    _r(rf"(?:.*?)jokers {anything('value')}: expected tile indices 0–{n('last')} of {anything('word')}",
       "Jokerii {value}: se așteaptă poziții de litere 0–{last} din {word}.",
       "jokers {value}: expected letter places 0–{last} of {word}."),
    _r(rf"{anything('action')} refused: {anything('t_why')} \(`fluturas review`.*",
       "Nu se poate: {t_why}. Rezolvați întâi coada de revizuire.",
       "Not possible: {t_why}. Clear the review queue first."),
    _r(rf"slip {n('s')} of round {n('r')} \({ONE}\) has no table",
       "un fluturaș din runda {r} nu are masă", "a slip of round {r} has no table"),
    _r(rf"review item {n('i')} of round {n('r')} is open \({ONE}\)",
       "un fluturaș din runda {r} așteaptă în coada de revizuire", "a slip of round {r} waits in the review queue"),
    _r(r"--threshold (?P<value>\S+): expected a confidence between 0 and 1",
       "Pragul {value}: se așteaptă o încredere între 0 și 1.", "Threshold {value}: expected a confidence between 0 and 1."),
    # freetext.py
    _r(rf"{anything('f_field')}: expected text", "{f_field}: se așteaptă un text.", "{f_field}: expected text."),
    _r(rf"{anything('f_field')}: must not be empty", "{f_field}: nu poate fi gol.", "{f_field}: cannot be empty."),
    _r(rf"{anything('f_field')}: control character .* is not allowed",
       "{f_field}: conține un caracter de control (nepermis).", "{f_field}: holds a control character (not allowed)."),
    _r(rf"{anything('f_field')}: {n('count')} characters; at most {n('most')}",
       "{f_field}: {count} de caractere; cel mult {most}.", "{f_field}: {count} characters; at most {most}."),
    # games.py, rack.py, draw.py, tops.py
    _r(r"the store holds no game yet.*", "Nu există încă nicio partidă: creați una (Partidă nouă).",
       "There is no game yet: create one (New game)."),
    _r(rf"game {n('g')} is not in the store", "Partida {g} nu există.", "Game {g} does not exist."),
    _r(rf"game {n('g')}: no round (?:yet|\d+).*", "Partida nu are încă această rundă: introduceți întâi grupa de litere.",
       "The game has no such round yet: enter the group of letters first."),
    _r(rf"game {n('g')} has no round {n('r')}", "Partida nu are runda {r}.", "The game has no round {r}."),
    _r(r"type '(?P<value>.*?)': expected one of .*", "Tipul partidei {value} nu există.", "No game type {value}."),
    _r(r"(?P<kind>\w+) variant '(?P<value>.*?)': expected one of .*", "Varianta {value} nu există.", "No variant {value}."),
    _r(r"category '(?P<value>.*?)': expected senior or youth", "Categoria {value}: se așteaptă seniori sau juniori.",
       "Category {value}: expected seniors or youth."),
    _r(r"--rules .*: the path is longer.*", "Regulamentul: calea fișierului este prea lungă.", "Rules: the file's path is too long."),
    _r(r"(?P<file>.+?): word list not found", "Lista de cuvinte „{file}” nu există.", "The word list “{file}” does not exist."),
    _r(r".*: the word list is empty", "Lista de cuvinte este goală.", "The word list is empty."),
    _r(r".*: not a word list \(binary data\).*", "Fișierul dat nu este o listă de cuvinte (conținut binar).",
       "The file given is not a word list (binary data)."),
    _r(r".*: the word list holds no word of 2 to 15 letters", "Lista de cuvinte nu are niciun cuvânt de 2–15 litere.",
       "The word list holds no word of 2 to 15 letters."),
    _r(r"word list .*: not found \(game .*", "Lista de cuvinte a partidei nu mai este la locul ei.",
       "The game's word list is no longer where it was."),
    _r(r"word list .*: changed since .*", "Lista de cuvinte a partidei a fost schimbată de la crearea partidei: puneți la loc fișierul original.",
       "The game's word list changed since the game was created: restore the original file."),
    _r(r"word list .*", "Lista de cuvinte nu poate fi citită.", "The word list cannot be read."),
    _r(r"rule pack .*: changed since .*", "Regulamentul partidei a fost schimbat de la crearea ei: puneți la loc fișierul original.",
       "The game's rules changed since the game was created: restore the original file."),
    _r(rf"game {n('g')} has no word list.*", "Partida nu are listă de cuvinte.", "The game has no word list."),
    _r(rf"game {n('g')} is of type (?P<kind>\w+): .*", "Pasul acesta nu ține de o partidă de acest tip.",
       "This step is not for a game of this type."),
    _r(rf".*: row {n('row')}: table {n('t')} is already seated \((?P<name>.*)\); pass --replace.*",
       "Rândul {row}: la masa {t} stă deja {name}; bifați „înlocuiește mesele deja așezate”.",
       "Row {row}: {name} is already seated at table {t}; tick “replace tables already seated”."),
    _r(r"group '(?P<value>.*?)': a (?P<v>\w+) round has (?P<k>\d+) group\(s\)",
       "Grupa {value}: o rundă a acestei variante are {k} grupă/grupe.", "Group {value}: a round of this variant has {k} group(s)."),
    _r(r"group '(?P<value>.*?)': letter '(?P<letter>.*?)' of the group .* has no tile in this set",
       "Grupa {value}: litera {letter} nu este în setul de piese.", "Group {value}: the letter {letter} is not in the tile set."),
    _r(r"group '(?P<value>.*?)': (?P<count>\d+) letters; the \w+ variant takes 1 to (?P<most>\d+)",
       "Grupa {value}: {count} litere; varianta ia 1–{most}.", "Group {value}: {count} letters; the variant takes 1 to {most}."),
    _r(r"group '(?P<value>.*?)': (?P<count>\d+) × (?P<letter>.), the set has (?P<have>\d+)",
       "Grupa {value}: {count} × {letter}, setul are {have}.", "Group {value}: {count} × {letter}, the set has {have}."),
    _r(r"group '(?P<value>.*?)': .*", "Grupa {value} nu poate fi citită.", "Group {value} cannot be read."),
    _r(rf"round {n('r')} is closed; its group can only change on appeal",
       "Runda {r} este închisă: grupa ei se mai schimbă doar prin contestație.",
       "Round {r} is closed: its group changes only on appeal."),
    _r(rf"round {n('r')}: round {n('p')} is not closed yet", "Runda {r}: runda {p} nu este încă închisă.",
       "Round {r}: round {p} is not closed yet."),
    _r(rf"round {n('r')} is corrected and .*", "Runda {r} este corectată și un fluturaș așteaptă în coada de revizuire: revizuiți-l, apoi schimbați grupa.",
       "Round {r} is corrected and a slip waits in the review queue: review it, then change the group."),
    _r(rf"game {n('g')} has no draw seed.*", "Partida nu are sămânță de tragere: introduceți grupele de mână.",
       "The game has no draw seed: enter the groups by hand."),
    _r(rf"round {n('r')}'s group was entered by hand.*", "Grupa rundei {r} a fost introdusă de mână: continuați tot de mână.",
       "Round {r}'s group was entered by hand: go on by hand."),
    _r(rf"round {n('r')}: the stored group .* is not the one the seed draws",
       "Runda {r}: grupa păstrată nu este cea trasă din sămânță.", "Round {r}: the stored group is not the one the seed draws."),
    _r(rf"round {n('r')} has no continuation (?:move )?yet.*", "Runda {r} nu are încă depunerea reținută (topul).",
       "Round {r} has no retained move (the top) yet."),
    _r(r"the game is over .*", "Partida s-a încheiat (art. D 5.3.8).", "The game is over (D 5.3.8)."),
    _r(rf"round {n('r')}: continuation {anything('value')} is not legal: .*",
       "Runda {r}: mutarea {value} nu se poate așeza pe tablă.", "Round {r}: the move {value} cannot be laid on the board."),
    _r(rf"round {n('r')}: continuation {anything('value')}: (?P<words>.+) not in the word list .*",
       "Runda {r}: {words} nu este în lista de cuvinte.", "Round {r}: {words} is not in the word list."),
    _r(rf"round {n('r')}: continuation {anything('value')}: .*",
       "Runda {r}: mutarea {value} nu poate fi citită (poziție și cuvânt, de exemplu H4 MODEL).",
       "Round {r}: the move {value} cannot be read (a position and a word, for example H4 MODEL)."),
    _r(rf"round {n('r')}: no legal move with the group (?P<rack>.+)", "Runda {r}: nicio mutare posibilă cu grupa {rack}.",
       "Round {r}: no legal move with the group {rack}."),
    _r(rf"round {n('r')}: '(?P<value>.*?)': expected a position and a word.*",
       "Runda {r}: {value} nu este o mutare (poziție și cuvânt, de exemplu H4 MODEL).",
       "Round {r}: {value} is not a move (a position and a word, for example H4 MODEL)."),
    # players.py
    _r(rf"{anything('f_field')} (?P<value>.*?): expected a table number 1–{n('most')}",
       "{f_field} {value}: se așteaptă un număr de masă 1–{most}.", "{f_field} {value}: expected a table number 1–{most}."),
    _r(r"--category '(?P<value>.*?)': expected one of .*", "Categoria {value}: se așteaptă seniori sau juniori.",
       "Category {value}: expected seniors or youth."),
    _r(rf"--table {n('t')}: already seated \((?P<name>.*)\).*", "Masa {t}: stă deja {name}; corectați acel loc.",
       "Table {t}: {name} is already seated there; edit that seat."),
    _r(rf"table {n('t')} \((?P<name>.*)\) already has {n('count')} slip\(s\) filed.*",
       "Masa {t} ({name}) are deja fluturași depuși ({count}): locul rămâne; corectați numele.",
       "Table {t} ({name}) already has {count} slip(s) filed: the seat stays; correct the name instead."),
    # seating.py
    _r(r"(?P<file>.+?): row 1, column (?P<col>\d+) \((?P<header>.*?)\): unknown column.*",
       "Lista de jucători „{file}”: coloana {col} ({header}) nu este cunoscută; se așteaptă masa, nume, prenume, club, categorie.",
       "The seating list “{file}”: column {col} ({header}) is unknown; expected masa, nume, prenume, club, categorie."),
    _r(r"(?P<file>.+?): row 1, column (?P<col>\d+) \((?P<header>.*?)\): column repeated",
       "Lista de jucători „{file}”: coloana {col} ({header}) se repetă.", "The seating list “{file}”: column {col} ({header}) is repeated."),
    _r(r"(?P<file>.+?): row 1: the column '(?P<label>.*?)' is missing", "Lista de jucători „{file}”: lipsește coloana {label}.",
       "The seating list “{file}”: the column {label} is missing."),
    _r(r"(?P<file>.+?): the file is empty.*", "Lista de jucători „{file}” este goală (se așteaptă un rând de antet: masa, nume, ...).",
       "The seating list “{file}” is empty (expected a header row: masa, nume, ...)."),
    _r(r"(?P<file>.+?): row (?P<row>\d+), column (?P<col>\d+) \((?P<h>.*?)\): '(?P<value>.*?)' is not a table number 1–(?P<most>\d+)",
       "Lista de jucători „{file}”, rândul {row}: {value} nu este un număr de masă 1–{most}.",
       "The seating list “{file}”, row {row}: {value} is not a table number 1–{most}."),
    _r(r"(?P<file>.+?): row (?P<row>\d+), column (?P<col>\d+) \((?P<h>.*?)\): table (?P<t>\d+) is already seated at row (?P<first>\d+)",
       "Lista de jucători „{file}”, rândul {row}: masa {t} apare deja la rândul {first}.",
       "The seating list “{file}”, row {row}: table {t} already appears at row {first}."),
    _r(r"(?P<file>.+?): row (?P<row>\d+), column (?P<col>\d+) \((?P<h>.*?)\): the name is empty",
       "Lista de jucători „{file}”, rândul {row}: numele lipsește.", "The seating list “{file}”, row {row}: the name is missing."),
    _r(r"(?P<file>.+?): row (?P<row>\d+).*?: .* is not one of .*", "Lista de jucători „{file}”, rândul {row}: categoria se scrie seniori sau juniori.",
       "The seating list “{file}”, row {row}: the category is senior or youth."),
    _r(r"(?P<file>.+?): row (?P<row>\d+).*?: .*looks like .*encoding.*",
       "Lista de jucători „{file}”, rândul {row}: literele românești par citite în altă codare; salvați fișierul ca UTF-8.",
       "The seating list “{file}”, row {row}: the Romanian letters look read in another encoding; save the file as UTF-8."),
    _r(r"(?P<file>.+?): row (?P<row>\d+), column (?P<col>\d+): byte .* is not UTF-8.*",
       "Lista de jucători „{file}”, rândul {row}: fișierul nu este UTF-8; salvați-l ca UTF-8.",
       "The seating list “{file}”, row {row}: the file is not UTF-8; save it as UTF-8."),
    _r(r"(?P<file>.+?): row (?P<row>\d+).*?: control character .*", "Lista de jucători „{file}”, rândul {row}: un caracter de control (nepermis).",
       "The seating list “{file}”, row {row}: a control character (not allowed)."),
    _r(r"(?P<file>.+?): row (?P<row>\d+).*?: (?P<count>\d+) characters; at most (?P<most>\d+)",
       "Lista de jucători „{file}”, rândul {row}: {count} de caractere; cel mult {most}.",
       "The seating list “{file}”, row {row}: {count} characters; at most {most}."),
    _r(r"(?P<file>.+?): not a readable \.xlsx workbook.*", "Lista de jucători „{file}” nu este un fișier Excel care se poate citi.",
       "The seating list “{file}” is not an Excel file that can be read."),
    _r(r"(?P<file>.+?): cannot decode as .*", "Lista de jucători „{file}” nu poate fi citită în codarea aleasă.",
       "The seating list “{file}” cannot be read in the encoding chosen."),
    # a scanned pile's files (slips/scanchecks.py, slips/ingest.py): the file's name kept
    _r(r"(?P<file>[^:]+?): not a readable PDF.*", "„{file}” nu este un PDF care se poate citi.",
       "“{file}” is not a PDF that can be read."),
    _r(r"(?P<file>[^:]+?): not a readable image.*", "„{file}” nu este o imagine care se poate citi.",
       "“{file}” is not an image that can be read."),
    _r(r"(?P<file>[^:]+?): (?:page (?P<page>\d+): )?(?P<count>\d+) million pixels.*",
       "„{file}”: pagina este prea mare ({count} milioane de pixeli); scanați-o la o rezoluție mai mică.",
       "“{file}”: the page is too large ({count} million pixels); scan it at a lower resolution."),
    _r(r"(?P<file>[^:]+?): \d+×\d+ pixels \((?P<count>\d+) million\).*",
       "„{file}”: imaginea este prea mare ({count} milioane de pixeli); fotografiați sau scanați la o rezoluție mai mică.",
       "“{file}”: the image is too large ({count} million pixels); take it at a lower resolution."),
    _r(r"(?P<file>[^:]+?): (?P<count>\d+) pages; at most (?P<most>\d+) a file",
       "„{file}” are {count} de pagini; cel mult {most} într-un fișier.", "“{file}” has {count} pages; at most {most} a file."),
    _r(r"(?P<file>[^:]+?): no such file", "Fișierul „{file}” nu există.", "There is no file “{file}”."),
    # round/correction.py
    _r(r"round correct: slips of game \d+ were filed while the correction read them.*",
       "Se depuneau fluturași chiar în timp ce runda era corectată: corectați runda din nou după ce teancul a fost citit.",
       "Slips were being filed while the round was corrected: correct the round again once the pile has been read."),
    # results.py
    _r(r"sanction '(?P<value>.*?)': expected one of .*", "Sancțiunea {value} nu există.", "No sanction {value}."),
    _r(r"--reason: a sanction needs its reason.*", "Sancțiunea cere motivul ei (art. D 5.5.h).",
       "A sanction needs its reason (D 5.5.h)."),
    _r(r"--kind '(?P<value>.*?)': expected one of .*", "Tipul contestației {value} nu există.", "No kind of appeal {value}."),
    _r(r"--reason: an appeal needs its reason", "Contestația cere motivul ei.", "An appeal needs its reason."),
    _r(r"the appeal deadline \((?P<at>.*?)\) has passed.*", "Termenul pentru contestații ({at}) a trecut (art. D 6.5).",
       "The appeal deadline ({at}) has passed (D 6.5)."),
    _r(r"the appeal deadline \((?P<at>.*?)\) has not passed.*",
       "Termenul pentru contestații ({at}) nu a trecut: scrieți motivul publicării mai devreme.",
       "The appeal deadline ({at}) has not passed: give the reason for publishing earlier."),
    _r(r"an anticipation game takes appeals of kind .*", "O partidă de anticipație primește doar contestații de citire sau de punctaj (art. A 6.5).",
       "An anticipation game takes only reading or score appeals (A 6.5)."),
    _r(r"an anticipation appeal names its round.*", "O contestație la anticipație numește runda.",
       "An anticipation appeal names its round."),
    _r(r"--score: an appeal of kind (?P<k>\w+) gives the points.*", "Contestația de acest tip dă punctajul de acordat.",
       "An appeal of this kind gives the points to credit."),
    _r(r"--set: a reading appeal gives what the slip really says.*",
       "Contestația de citire spune ce scrie de fapt pe fluturaș (câmpurile).",
       "A reading appeal gives what the slip really says (the fields)."),
    _r(rf"--set round {n('r')}: the appeal is of round {n('a')}.*",
       "Runda {r}: contestația este a rundei {a}; un fluturaș depus în altă rundă se mută din coada de revizuire.",
       "Round {r}: the appeal is of round {a}; a slip filed in another round is moved from the review queue."),
    _r(rf"game {n('g')}: {n('count')} slips or review items wait: {anything('t_why')} \(`.*",
       "Încă așteaptă {count}: {t_why}.", "Still waiting ({count}): {t_why}."),
    _r(r"results (?P<stage>\w+) refused: (?P<t_why>.+); run `fluturas round correct` first",
       "Publicarea este refuzată: {t_why}; corectați runda din nou.", "Publishing is refused: {t_why}; correct the round again."),
    _r(rf"round {n('r')}: tables (?P<tables>[\d, ]+) filed or changed since the last correction",
       "runda {r}: mesele {tables} au fluturași depuși sau schimbați de la ultima corectare",
       "round {r}: tables {tables} filed or changed since the last correction"),
    _r(rf"game {n('g')}: tables \[(?P<tables>[\d, ]+)\] have no total yet.*",
       "Mesele {tables} nu au încă total: corectați runda.", "Tables {tables} have no total yet: correct the round."),
    _r(r"provisional results need the appeal deadline.*", "Rezultatele provizorii cer termenul pentru contestații (de exemplu 18:30).",
       "Provisional results need the appeal deadline (for example 18:30)."),
    _r(rf"game {n('g')}: publish the provisional results first.*", "Publicați întâi rezultatele provizorii (art. D 6.5).",
       "Publish the provisional results first (D 6.5)."),
    _r(r"--reason: say why the (?P<a_what>\w+) is withdrawn", "Spuneți de ce se retrage {a_what}.",
       "Say why {a_what} is withdrawn."),
    _r(rf"(?P<a_what>appeal|sanction) {n('i')} is not in game {n('g')}", "{a_what} {i} nu ține de această partidă.",
       "{a_what} {i} is not of this game."),
    _r(rf"(?P<a_what>appeal|sanction) {n('i')} is already withdrawn", "{a_what} {i} este deja retrasă.",
       "{a_what} {i} is already withdrawn."),
    _r(r"results final refused: the game cannot be corrected again \((?P<t_why>.*)\).*",
       "Rezultatele finale sunt refuzate: partida nu poate fi corectată din nou ({t_why}).",
       "Final results refused: the game cannot be corrected again ({t_why})."),
    # judging.py, correction.py
    _r(r"(?P<what>.+?) refused: the judge cannot apply it \((?P<t_why>.*)\); nothing was stored",
       "Refuzat: corectorul nu îl poate aplica ({t_why}); nu s-a salvat nimic.",
       "Refused: the judge cannot apply it ({t_why}); nothing was stored."),
    _r(r"(?P<what>.+?) refused: the totals it gives cannot be stored.*",
       "Refuzat: totalurile nu pot fi păstrate; nu s-a salvat nimic.", "Refused: the totals cannot be stored; nothing was stored."),
    # review.py, claims.py, web/queue.py
    _r(rf"review item {n('i')} was already resolved by (?P<who>.+?) at (?P<at>.+?); your correction was not applied.*",
       "Fluturașul a fost deja rezolvat de {who} la {at}; corectarea dumneavoastră nu s-a aplicat (rămâne în jurnal).",
       "The slip was already resolved by {who} at {at}; your correction was not applied (it stays in the audit trail)."),
    _r(rf"review item {n('i')} was already (?P<state>\w+) by (?P<who>.+)", "Fluturașul a fost deja {state} de {who}.",
       "The slip was already {state} by {who}."),
    _r(rf"review item {n('i')}(?::| is) (?:no longer open|does not exist|not in game \d+)",
       "Fluturașul nu mai așteaptă în coadă.", "The slip no longer waits in the queue."),
    _r(rf"review item {n('i')} is already open", "Fluturașul așteaptă deja în coadă.", "The slip already waits in the queue."),
    _r(rf"review item {n('i')} changed since it was shown.*", "Fluturașul s-a schimbat de când a fost afișat: priviți-l din nou.",
       "The slip changed since it was shown: look at it again."),
    _r(rf"review item {n('i')} is held by (?P<who>.+?) until (?P<at>.+)", "Fluturașul este preluat de {who} până la {at}.",
       "The slip is claimed by {who} until {at}."),
    _r(rf"review item {n('i')} has no slip to correct", "Nu există fluturaș de corectat.", "There is no slip to correct."),
    _r(rf"review item {n('i')}: table {n('t')} already has a filed slip.*",
       "Masa {t} are deja un fluturaș depus în acea rundă: eliminați unul dintre ei întâi.",
       "Table {t} already has a filed slip in that round: discard one of them first."),
    _r(rf"review item {n('i')}: the slip is filed under no table.*",
       "Fluturașul nu are masă: corectați masa (masa=N) sau eliminați-l.",
       "The slip has no table: correct its table (masa=N) or discard it."),
    _r(rf"review item {n('i')}: the slip says round {n('w')}, filed in round {n('r')}.*",
       "Fluturașul spune runda {w}, dar e depus în runda {r}: mutați-l sau confirmați runda.",
       "The slip says round {w} but is filed in round {r}: move it or confirm the round."),
    _r(rf"review item {n('i')}: round {n('r')} is not laid out.*", "Runda {r} nu există încă.", "Round {r} does not exist yet."),
    _r(rf"review item {n('i')}: (?P<t_why>.+)", "{t_why}", "{t_why}"),
    _r(r"correction field '(?P<key>.*?)': expected one of .*",
       "Câmpul {key} nu se poate corecta (poz, cuvant, puncte, jokeri, masa, tur).",
       "The field {key} cannot be corrected (position, word, score, jokers, table, round)."),
    _r(r"correction field (?P<key>\S+): expected a whole number", "Câmpul {key}: se așteaptă un număr întreg.",
       "The field {key}: expected a whole number."),
    _r(r"correction .*", "Corectarea nu poate fi citită: scrieți câmp=valoare (de exemplu poz=H4 cuvant=MODEL puncte=26).",
       "The correction cannot be read: write field=value (for example position=H4 word=MODEL score=26)."),
    _r(rf"slip {n('s')} is not in game {n('g')}", "Fluturașul nu ține de această partidă.", "The slip is not of this game."),
    _r(rf"slip {n('s')} is already discarded", "Fluturașul este deja eliminat.", "The slip is already discarded."),
    _r(rf"slip {n('s')} is discarded; bring it back first.*", "Fluturașul este eliminat: readuceți-l întâi.",
       "The slip is discarded: bring it back first."),
    _r(rf"slip {n('s')} is already in round {n('r')}", "Fluturașul este deja în runda {r}.", "The slip is already in round {r}."),
    _r(rf"round {n('r')}: table {n('t')} already has a filed slip.*", "Runda {r}: masa {t} are deja un fluturaș depus.",
       "Round {r}: table {t} already has a filed slip."),
    _r(r"--as '(?P<value>.*?)': expected one of .*", "Nu se poate elimina astfel: {value}.", "Cannot discard as {value}."),
    # web/grid.py
    _r(rf"table {n('t')}: a slip that reads table {n('r')} waits in the review queue.*",
       "Masa {t}: un fluturaș care citește masa {t} așteaptă în coada de revizuire; rezolvați-l acolo întâi.",
       "Table {t}: a slip that reads table {t} waits in the review queue; clear it there first."),
    _r(rf"change {n('c')}: not a change of the round grid", "Schimbarea nu a fost făcută pe grila rundei.",
       "That change was not made on the round grid."),
    # web/security.py
    _r(r"(?P<f_name>\w+)='(?P<value>.*?)': expected a whole number from (?P<lo>\d+) to (?P<hi>\d+)",
       "{f_name}: „{value}” nu este un număr întreg de la {lo} în sus.", "{f_name}: “{value}” is not a whole number from {lo} up."),
    _r(r"CSRF token missing or wrong", "Formularul a expirat: reîncărcați pagina și trimiteți din nou.",
       "The form has expired: reload the page and send it again."),
    # refusals joined by the library: each part in its words
    Refusal(re.compile(r".+; .+", re.S), "{t_first}; {t_rest}", "{t_first}; {t_rest}", join="; "),
    _r(rf"{anything('t_first')} and {n('more')} more", "{t_first} și încă {more}", "{t_first} and {more} more"),
    # store.py
    _r(r"database .*", "Baza de date a turneului nu poate fi folosită.", "The tournament's store cannot be used."),
)

UNKNOWN = ("Refuzat", "Refused")


def _field(raw: str, lang: str) -> str:
    """`--set table`, `review item 3: table`, `--deadline`, `score` in the page's words."""
    index = LANGS.index(lang)
    name = raw.strip()
    head, sep, tail = name.rpartition(": ")
    if sep and head.startswith("review item"):
        name = tail
    name = name.removeprefix("--set ").removeprefix("--").strip()
    found = FIELDS.get(name)
    word = found[index] if found else name
    return word[:1].upper() + word[1:]


def _action(raw: str, lang: str) -> str:
    found = ACTIONS.get(raw.strip())
    return found[LANGS.index(lang)] if found else raw


def refusal(message: str, lang: str = "ro") -> str:
    """The library's one-line refusal in the page's language (see the module's docstring)."""
    lang = lang if lang in LANGS else LANGS[0]
    found = _translate(message.strip(), lang, 0)
    return found if found is not None else f"{UNKNOWN[LANGS.index(lang)]}: {_plain(message)}"


def known(message: str) -> bool:
    """Whether a refusal has its words here (the app logs those that have not)."""
    return _translate(message.strip(), "ro", 0) is not None


def _translate(message: str, lang: str, depth: int) -> str | None:
    if depth > 6:
        return None
    for rule in REFUSALS:
        match = rule.pattern.fullmatch(message)
        if match is None:
            continue
        if rule.join:
            parts = _split(message, rule.join, lang, depth)
            if parts is None:
                continue
            text = (rule.ro if lang == "ro" else rule.en).format(t_first=parts[0], t_rest=parts[1])
            return text[:1].upper() + text[1:] if depth == 0 else text
        values: dict[str, str] = {}
        for name, value in match.groupdict().items():
            value = value or ""
            if name.startswith("t_"):
                inner = _nested(value, lang, depth)
                if inner is None:
                    break
                values[name] = inner
            elif name.startswith("f_"):
                values[name] = _field(value, lang)
            elif name.startswith("a_"):
                values[name] = _action(value, lang)
            elif name == "state":
                pair = STATES.get(value)
                values[name] = pair[LANGS.index(lang)] if pair else value
            else:
                values[name] = _quoted(value, lang)
        else:
            text = (rule.ro if lang == "ro" else rule.en).format(**values)
            return text[:1].upper() + text[1:] if depth == 0 else text
    return None


def _nested(message: str, lang: str, depth: int) -> str | None:
    """A refusal inside another, worded to sit in the middle of a sentence."""
    inner = _translate(message.strip(), lang, depth + 1)
    if inner is None:
        return None
    inner = inner.rstrip(".")
    return inner[:1].lower() + inner[1:] if inner[:1].isupper() and not inner[:2].isupper() else inner


def _split(message: str, join: str, lang: str, depth: int) -> tuple[str, str] | None:
    """The first place `join` parts the message into two worded refusals: one refusal may hold
    `join` itself (a decoder's reason "…; against 0.012: …"), so the first `join` is not always it."""
    at = message.find(join)
    while at != -1:
        first = _nested(message[:at], lang, depth)
        rest = _nested(message[at + len(join):], lang, depth) if first is not None else None
        if rest is not None:
            return first, rest
        at = message.find(join, at + 1)
    return None


def _quoted(value: str, lang: str) -> str:
    """A value the library quotes as Python does ('18,30') in the page's quotation marks."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        return f"„{inner}”" if lang == "ro" else f"“{inner}”"
    return value


def _plain(message: str) -> str:
    """An unknown refusal without the CLI's hints in backticks."""
    return re.sub(r"\s*\(`[^)]*\)|`[^`]*`", "", message).strip()
