"""Slip scanner: images in, readings out. Knows the printed form, nothing of Scrabble rules.

Public API: scan_paths / scan_file / ScanOptions (pipeline), Reading (record), load_template,
and scanner.synth.slip.render_slip / render_page for synthetic slips.
"""
from scanner.errors import ImageReadError, ModelError, ScannerError, TemplateError, TrainingError
from scanner.pipeline import ScanOptions, scan_file, scan_paths
from scanner.reading import CharReading, FieldReading, Reading
from scanner.template import Template, builtin_templates, load_template

__all__ = [
    "CharReading", "FieldReading", "ImageReadError", "ModelError", "Reading", "ScanOptions", "ScannerError",
    "Template", "TemplateError", "TrainingError", "builtin_templates", "load_template", "scan_file", "scan_paths",
]
