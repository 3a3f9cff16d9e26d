"""Shared fixtures: rule packs, boards built from text."""
from __future__ import annotations

from pathlib import Path

import pytest

from corrector.rulepack import RulePack, load_pack

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def ro() -> RulePack:
    return load_pack("ro")
