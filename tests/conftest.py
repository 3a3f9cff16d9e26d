"""Shared fixtures: rule packs, boards built from text, the shared reference folder."""
from __future__ import annotations

from pathlib import Path

import pytest

from corrector.rulepack import RulePack, load_pack

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def ro() -> RulePack:
    return load_pack("ro")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    assert SHARED.is_dir(), f"the shared reference folder is expected beside the checkout: {SHARED}"
    return SHARED
