"""What the store keeps as codes, said in the arbiter's words (Romanian first, English on request).
Every page, the sheets' notes and `fluturas review` read codes through here, so no upper-case code,
`RULES.md` or Python value reaches a person: `rulings` (decisions, articles), `reasons` (why a slip
waits for an arbiter), `audit` (the audit trail and one-line reports), `refusals` (the library's
refusals on a web page)."""
from __future__ import annotations

from .audit import action, appeal_filed, audit_reason, corrected, entity, record, summary, value
from .reasons import field, kind, review_reason, scan_problem
from .refusals import refusal
from .rulings import (EN, RO, appeal_kind, articles, explanation, flag, full, marked_word, penalty, round_state,
                      ruling, scrub, status, status_class, warning)

__all__ = ["EN", "RO", "action", "scan_problem", "appeal_filed", "appeal_kind", "articles", "audit_reason", "corrected", "entity",
           "explanation", "field", "flag", "full", "kind", "marked_word", "penalty", "record", "refusal", "review_reason",
           "round_state", "ruling", "scrub", "status", "status_class", "summary", "value", "warning"]
