"""Config options, views and determinization (content validation: test_content_validation.py)."""

from __future__ import annotations

import pytest

from services.lorenzo.content import load_content
from services.lorenzo.manifest import MANIFEST
from services.lorenzo.rules.model import Phase
from shared.core.decider import SPECTATOR, SYSTEM, Actor, RuleViolation
from shared.core.rng import Rng
from tests.support.playout import random_playout

from .helpers import RULES


def test_load_rules_builds_the_decider() -> None:
    assert MANIFEST.load_rules().game == "lorenzo"


def test_advanced_is_the_default_and_bad_options_are_refused() -> None:
    assert RULES.make_config(3, {}).advanced is True
    assert RULES.make_config(2, {"advanced": "false"}).advanced is False
    for options in ({"advanced": "maybe"}, {"colour": "red"}):
        with pytest.raises(RuleViolation) as e:
            RULES.make_config(2, options)
        assert e.value.code == "bad_option"
    with pytest.raises(RuleViolation):
        RULES.make_config(5, {})


def test_setup_gives_coins_by_turn_order_and_base_resources() -> None:
    from .helpers import fold

    s = fold(list(RULES.setup(RULES.make_config(4, {"advanced": "false"}), Rng(3))))
    for position, seat in enumerate(s.turn_order):
        g = s.players[seat].goods
        assert (g.coins, g.wood, g.stone, g.servants) == (5 + position, 2, 2, 3)
    assert [p.bonus_tile for p in s.players] == [1, 1, 1, 1]
    assert s.phase is Phase.ROUND_START and RULES.to_act(s) == (SYSTEM,)
    periods = [RULES_CONTENT.tile[t].period for t in s.excommunication_tiles]
    assert periods == [1, 2, 3]
    for deck in s.decks:
        assert [RULES_CONTENT.card[c].period for c in deck.cards] == [1] * 8 + [2] * 8 + [3] * 8


RULES_CONTENT = load_content()


def test_views_hide_other_hands_and_the_decks() -> None:
    events, _ = random_playout(RULES, RULES.make_config(3, {}), 11)
    from .helpers import fold

    s = fold(events[:80])
    mine = RULES.view(s, Actor.of_seat(0))
    assert mine.players[0].hand == s.players[0].hand
    assert all(p.hand == () and p.draft_hand == () for p in mine.players[1:])
    assert mine.decks == () and RULES.view(s, SYSTEM).decks == s.decks
    assert all(p.hand == () for p in RULES.view(s, SPECTATOR).players)
    hidden = [e for e in events if RULES.visibility(e).kind.name != "PUBLIC"]
    assert {type(e).__name__ for e in hidden} >= {"DecksShuffled", "LeadersDealt", "LeaderDrafted"}


def test_determinize_keeps_what_the_seat_sees_and_resamples_the_rest() -> None:
    events, _ = random_playout(RULES, RULES.make_config(4, {}), 12)
    from .helpers import fold

    s = fold(events[: len(events) // 3])
    d = RULES.determinize(s, 1, Rng(99))
    assert d.players[1] == s.players[1]
    assert [len(p.hand) for p in d.players] == [len(p.hand) for p in s.players]
    assert RULES.view(d, Actor.of_seat(1)) == RULES.view(s, Actor.of_seat(1))
    for a, b in zip(d.decks, s.decks, strict=True):
        assert sorted(a.cards) == sorted(b.cards)
    assert RULES.legal_commands(d, RULES.to_act(d)[0]) is not None
