"""The project stands on its own (docs/architecture.md, house rules): a clone with nothing beside it
has every file its code, tests and docs use. No file names a folder outside the repository, and
every relative link of the Markdown docs leads to a file of the repository."""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TEXT = {".py", ".md", ".toml", ".json", ".jsonl", ".cfg", ".sh", ".txt", ".html", ".ini", ".yml", ".yaml"}
OUTSIDE = ("../shared", "shared/RULES", "shared/STYLE", "shared/external", "shared/reference", "/work/")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _files() -> list[Path]:
    out = []
    for path in REPO.rglob("*"):
        parts = path.relative_to(REPO).parts
        if any(p.startswith(".") or p.endswith(".egg-info") or p in ("build", "dist", "__pycache__") for p in parts):
            continue
        if path.is_file() and path.suffix in TEXT and path.stat().st_size < 2_000_000:
            out.append(path)
    return out


def test_no_file_names_a_folder_outside_the_repository():
    me = Path(__file__).resolve()
    found = []
    for path in _files():
        if path.resolve() == me:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [f"{path.relative_to(REPO)}: {needle}" for needle in OUTSIDE if needle in text]
    assert found == []


def test_markdown_links_stay_inside_the_repository():
    broken = []
    for path in (p for p in _files() if p.suffix == ".md"):
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:|^#|^mailto:", target):
                continue  # a web address or an anchor of the same page
            resolved = (path.parent / target.split("#")[0]).resolve()
            if not resolved.is_relative_to(REPO) or not resolved.exists():
                broken.append(f"{path.relative_to(REPO)}: {target}")
    assert broken == []


def test_the_rules_the_code_cites_are_in_the_project():
    """`RULES.md §N` citations name the sections of docs/rules.md."""
    rules = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    for section in range(1, 8):
        assert re.search(rf"^## §{section}\. ", rules, re.M), section
    assert "docs/rules.md" in (REPO / "README.md").read_text(encoding="utf-8")


def test_the_licence_the_package_declares_is_the_text_it_ships():
    """A GPL program is given with the licence's text: the wheel carries the files pyproject names,
    and they are the version the SPDX expression says."""
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "GPL-3.0-or-later"
    texts = [(REPO / name).read_text(encoding="utf-8") for name in project["license-files"]]
    assert texts and all("GNU GENERAL PUBLIC LICENSE" in t and "Version 3, 29 June 2007" in t for t in texts)
