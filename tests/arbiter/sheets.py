"""Reading exported files back as a person would see them: the .xlsx recalculated by LibreOffice
(headless), so formula cells hold the values Excel or Calc would show."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from openpyxl import load_workbook

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


def recalculated(path: Path) -> Path:
    """A copy of the workbook saved by LibreOffice after recalculating every formula."""
    if SOFFICE is None:
        pytest.skip("LibreOffice (soffice) is not installed: install.sh adds libreoffice-calc-nogui")
    out = path.parent / f"{path.stem}-recalculated"
    out.mkdir(exist_ok=True)
    profile = path.parent / ".lo-profile"  # its own profile: tests never share LibreOffice's lock
    env = {**os.environ, "HOME": str(path.parent)}
    subprocess.run([SOFFICE, f"-env:UserInstallation=file://{profile.resolve()}", "--headless", "--calc",
                    "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", str(out), str(path)],
                   check=True, capture_output=True, timeout=180, env=env)
    return out / path.name


def sheet_values(path: Path, sheet: str = "Arbitraj") -> list[tuple]:
    """The sheet's rows as LibreOffice computed them."""
    return list(load_workbook(recalculated(path), data_only=True)[sheet].iter_rows(values_only=True))


def sheet_totals(path: Path, sheet: str = "Arbitraj") -> dict[int, int]:
    """Table → the Total column's computed value (header on row 3, players from row 5)."""
    rows = sheet_values(path, sheet)
    header = list(rows[2])
    return {r[0]: r[header.index("Total")] for r in rows[4:] if isinstance(r[0], int)}
