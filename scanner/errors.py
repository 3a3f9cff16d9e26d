"""Typed failures of the scanner. Each names the file (and field) at fault; cli.py maps them to exit codes."""
from __future__ import annotations

from exitcodes import FluturasError


class ScannerError(FluturasError):
    """Base for every failure raised by `scanner` (exit code: bad input)."""


class TemplateError(ScannerError):
    """A slip template file is missing, malformed or fails its JSON Schema."""


class ImageReadError(ScannerError):
    """An input file cannot be decoded as an image or a PDF."""


class ModelError(ScannerError):
    """The reader model or its metadata cannot be loaded or does not match the scanner."""


class TrainingError(ScannerError):
    """Training or fine-tuning cannot run (missing optional dependency, no samples...)."""
