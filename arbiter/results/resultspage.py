"""The static results page for the notice board and the web (D 6.5, D 6.6): the ranking with
every player's points round by round, warnings, penalties, disciplinary warnings and solos, the
total and "% top", and — while the results are provisional — the appeal deadline as published.
It reads on a phone: a viewport, and the wide table scrolls sideways inside its own box."""
from __future__ import annotations

import html
from pathlib import Path

from sqlalchemy.orm import Session

from .. import words
from ..store.models import Decision, Game
from . import sheetkit as kit
from .sheetdata import SheetData, gather

MARKS = {"warning": ("A", "avertisment"), "penalty": ("P", "penalizare tehnică"), "solo": ("S", "solo (+10)"),
         "appeal": ("C", "corectat în urma contestației")}
STYLE = """body{font-family:sans-serif;margin:1em;line-height:1.35}
h1{font-size:1.3em}.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:.95em}td,th{border:1px solid #999;padding:.2em .45em;white-space:nowrap}
th{background:#eee;position:sticky;top:0}.n{text-align:right}.name{white-space:normal;min-width:9em}
.deadline{font-size:1.2em;color:#a00}.zero{background:#ffc7ce}.warning{background:#ffeb9c}
.penalty{background:#f8cbad}.appeal{background:#bdd7ee}.solo{background:#c6efce}sup{font-size:.7em}
@media print{.scroll{overflow:visible}th{position:static}}"""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value))


def _round_cell(d: Decision | None) -> str:
    if d is None:
        return "<td class=n>—</td>"
    kinds = [k for k, on in (("appeal", d.on_appeal), ("penalty", d.penalty), ("warning", d.warning),
                             ("solo", d.solo)) if on]
    css = kinds[0] if kinds else ("zero" if d.credited == 0 else "")
    marks = "".join(MARKS[k][0] for k in kinds)
    title = "; ".join(words.warning(d.warning) if k == "warning" else words.penalty(d.penalty) if k == "penalty"
                      else MARKS[k][1] for k in kinds)
    hover = f' title="{_e(title)}"' if title else ""
    sup = f"<sup>{marks}</sup>" if marks else ""
    return f'<td class="n {css}"{hover}>{_e(d.credited)}{sup}</td>'


def _body(data: SheetData) -> list[str]:
    out = []
    for row in data.rows:
        s = row.standing
        place = "" if s is None else ("elim." if s.eliminated else _e(s.rank))
        pct = "" if s is None or s.percent_of_top is None else f"{s.percent_of_top:.2f}"
        figures = "".join(f"<td class=n>{_e(v)}</td>" for v in
                          ((s.warnings, s.penalties, s.disciplinary, s.solos) if s else ("",) * 4))
        out.append(f"<tr><td class=n>{place}</td><td class=n>{row.player.table_no}</td>"
                   f"<td class=name>{_e(row.player.name)}</td>"
                   f"<td class=n><strong>{_e(s.total if s else '')}</strong></td><td class=n>{pct}</td>"
                   f"<td>{_e(row.player.club)}</td>"
                   + "".join(_round_cell(row.cells.get(r.number)) for r in data.rounds) + figures + "</tr>")
    return out


def deadline_text(game: Game) -> str:
    """The appeal deadline as the arbiter published it (`18.30` or `18:30` → 18:30, D 6.5)."""
    if game.status == "final" or game.appeal_deadline is None:
        return ""
    at = game.appeal_deadline
    return (f"<p class=deadline>Contestațiile se depun până la ora <strong>{at:%H:%M}</strong>"
            f" ({at:%Y-%m-%d}).</p>")


def write_html(session: Session, game: Game, path: Path) -> Path:
    data = gather(session, game)
    final = game.status == "final"
    title = f"{data.tournament.name} — {game.name}: clasament {'final' if final else 'provizoriu'}"
    # total and "% top" next to the name: on a phone they show before any sideways scroll
    heads = (["Loc", "Masa", "Nume", "Total", "% top", "Club"] + [f"T{r.number}" for r in data.rounds]
             + ["Av.", "Pen.", "Disc.", "Solo"])
    legend = " · ".join(f"<sup>{m}</sup> {label}" for m, label in MARKS.values())
    page = f"""<!doctype html>
<html lang="ro"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{STYLE}</style>
</head><body><h1>{_e(title)}</h1>{deadline_text(game)}
<p>{'Cel mai bun total (anticipație: fiecare pe tabla proprie, % din el)' if game.kind == 'anticipation' else 'Top'}: {_e(game.top_total if game.top_total is not None else '-')} puncte · {len(data.rounds)} tururi ·
{_e(kit.state_label(game))}</p>
<div class=scroll><table><thead><tr>{''.join(f'<th>{_e(h)}</th>' for h in heads)}</tr></thead>
<tbody>
{chr(10).join(_body(data))}
</tbody></table></div>
<p>{legend}; Av. = avertismente, Pen. = penalizări tehnice, Disc. = avertismente disciplinare.</p>
</body></html>
"""
    return kit.replace_when_done(path, lambda tmp: tmp.write_text(page, encoding="utf-8"))
