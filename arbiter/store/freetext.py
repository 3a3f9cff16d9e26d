"""Free text kept in the store and printed on the sheets (who, why, names): checked once, in one
place, for every change the audit log records."""
from __future__ import annotations

from typing import Any

from ..errors import WorkflowError


# Ş ş Ţ ţ of a Windows-1250 file read as latin-1 (or cp1252): no Romanian name holds them
CP1250_AS_LATIN1 = {"ª": "Ş", "º": "ş", "Þ": "Ţ", "þ": "ţ"}


def misdecoded(value: str) -> str | None:
    """How a name looks misdecoded, or None: Romanian letters of a cp1250 file read as latin-1
    ('ªtefan' for 'Ştefan') → 'cp1250'; UTF-8 bytes read as a one-byte code page ('È™' for 'ș')
    → 'utf-8'. The encoding the file most likely is in."""
    if any(ch in value for ch in CP1250_AS_LATIN1):
        return "cp1250"
    try:
        if value.encode("latin-1").decode("utf-8") != value:
            return "utf-8"
    except (UnicodeEncodeError, UnicodeDecodeError):
        pass
    try:
        if value.encode("cp1252").decode("utf-8") != value:
            return "utf-8"
    except (UnicodeEncodeError, UnicodeDecodeError):
        pass
    return None


def control_character(value: str) -> str | None:
    """The first control character of a text (tab allowed), as U+XXXX, or None."""
    bad = next((ch for ch in value if ord(ch) < 32 and ch not in "\t" or 0x7F <= ord(ch) < 0xA0
                or 0xD800 <= ord(ch) < 0xE000), None)
    return None if bad is None else f"U+{ord(bad):04X}"


def check_text(value: Any, field: str, required: bool = False, longest: int = 2000) -> str:
    """Free text kept in the store and printed on the sheets (a reason, a name): no control
    characters (they cannot go into a spreadsheet or a printed page), not too long."""
    if not isinstance(value, str):
        raise WorkflowError(f"{field}: expected text")
    if required and not value.strip():
        raise WorkflowError(f"{field}: must not be empty")
    bad = control_character(value)
    if bad is not None:
        raise WorkflowError(f"{field}: control character {bad} is not allowed")
    if len(value) > longest:
        raise WorkflowError(f"{field}: {len(value)} characters; at most {longest}")
    return value
