"""Fixtures of the anticipation tests: the Romanian pack and a tiny word list built in the test."""
from __future__ import annotations

import pytest

from corrector.words.lexicon import Lexicon
from corrector.rulepack import RulePack, load_pack

from .helpers import lexicon


@pytest.fixture(scope="session")
def ro() -> RulePack:
    return load_pack("ro")


@pytest.fixture(scope="session")
def words(ro: RulePack) -> Lexicon:
    return lexicon(ro)
