"""Free text kept in the store and printed on the sheets (who, why, names): checked once, in one
place, for every change the audit log records."""
from __future__ import annotations

from typing import Any

from .errors import WorkflowError


def check_text(value: Any, field: str, required: bool = False, longest: int = 2000) -> str:
    """Free text kept in the store and printed on the sheets (a reason, a name): no control
    characters (they cannot go into a spreadsheet or a printed page), not too long."""
    if not isinstance(value, str):
        raise WorkflowError(f"{field}: expected text")
    if required and not value.strip():
        raise WorkflowError(f"{field}: must not be empty")
    bad = next((ch for ch in value if ord(ch) < 32 and ch not in "\t" or 0x7F <= ord(ch) < 0xA0
                or 0xD800 <= ord(ch) < 0xE000), None)
    if bad is not None:
        raise WorkflowError(f"{field}: control character U+{ord(bad):04X} is not allowed")
    if len(value) > longest:
        raise WorkflowError(f"{field}: {len(value)} characters; at most {longest}")
    return value
