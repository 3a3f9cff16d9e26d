"""Exit codes and the root of the project's errors (the OCRmyPDF model: each exception carries its
exit code, and the one handler in `cli.py` turns it into a line on stderr and that status).

It lives beside `cli.py`, outside the packages, because `scanner` and `corrector` never import each
other and both raise errors of this one family."""
from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """The documented exit statuses of `fluturas` (README, "Exit codes")."""

    OK = 0
    CHECK_FAILED = 1  # the command ran and found a problem (a replay that disagrees, unreadable files in a scan)
    BAD_INPUT = 2  # a file, field or option that cannot be used; the message names it
    CONFLICT = 3  # another arbiter changed the same thing first; nothing was stored, run it again
    FILE_ACCESS = 5  # a file or the store cannot be written: read-only, disk full, no permission (OCRmyPDF's 5)
    INTERNAL = 15  # an unexpected failure: the traceback is in the log file the message names (OCRmyPDF's 15)
    INTERRUPTED = 130  # Ctrl-C: the step in flight was rolled back


class FluturasError(Exception):
    """A failure reported as one line naming the file and field, with its exit code."""

    exit_code: ExitCode = ExitCode.BAD_INPUT
