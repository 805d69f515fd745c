"""Option ``hidden_certificates`` (docs/rules/florenza.md, D24): by default a family's certificates are
its own until the final scoring: the Captain banks them in a seat-only event, other seats' and
spectators' views show them as 0 (naming the seats in ``hidden_certificates``), a bot's determinized
state the same; the scoring reveals every total. With "false", and in every match stored before the
option, they are open."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from typer.testing import CliRunner

from services import games
from services.cli import app
from services.florenza.rules.commands import EndRound, ScoreGame
from services.florenza.rules.events import (
    CertificatesKeptHidden,
    CertificatesTaken,
    Event,
    GameScored,
    PrestigeBanked,
    PrestigeBankedHidden,
    PrestigeChanged,
)
from services.florenza.rules.model import Config, Phase, Source, State
from services.games import load_game
from services.workers.bots.base import sample_for_seat
from shared.core.decider import PUBLIC, SPECTATOR, SYSTEM, Actor, Visibility
from shared.core.manifest import OptionType
from shared.core.rng import Rng

from .helpers import RULES, fold, game_events, of_type, when

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "florenza" / "match-v1.jsonl"


def _round_end(hidden: bool, round: int = 3, prestige: tuple[int, ...] = (4, 9, 2)) -> State:
    """Given: step 8 of ``round``, seat 1 alone ahead on prestige."""
    events: list[Event] = game_events(3, phase=Phase.ROUND_END, round=round, hidden_certificates=hidden)
    events += [PrestigeChanged(seat, n, Source.ART_WORK) for seat, n in enumerate(prestige)]
    return fold(events)


def _feed(events: list[Event], seat: int) -> list[Event]:
    """What a seat's watch stream carries of these events."""
    return [e for e in events if RULES.visibility(e).visible_to(Actor.of_seat(seat))]


def _certificates(s: State, viewer: Actor) -> tuple[list[int], tuple[int, ...]]:
    v = RULES.view(s, viewer)
    return [p.certificates for p in v.game.players], v.hidden_certificates


def test_a_hidden_match_records_its_option_in_a_public_setup_event() -> None:
    hidden = list(RULES.setup(RULES.make_config(3, {}), Rng(4)))
    assert of_type(hidden, CertificatesKeptHidden) == [CertificatesKeptHidden()]
    assert RULES.visibility(CertificatesKeptHidden()) == PUBLIC
    assert fold(hidden).config == Config(3, hidden_certificates=True)
    open_ = list(RULES.setup(RULES.make_config(3, {"hidden_certificates": "false"}), Rng(4)))
    assert not of_type(open_, CertificatesKeptHidden)
    assert fold(open_).config == Config(3, hidden_certificates=False)


def test_the_hidden_captain_banks_in_a_seat_only_event_and_the_feed_of_the_others_has_no_amount() -> None:
    s = _round_end(hidden=True)
    events = when(s, -1, EndRound())
    assert not of_type(events, PrestigeBanked)
    assert of_type(events, CertificatesTaken) == [CertificatesTaken(1, 9)]
    assert of_type(events, PrestigeBankedHidden) == [PrestigeBankedHidden(1)]
    assert RULES.visibility(CertificatesTaken(1, 9)) == Visibility.to_seat(1)
    assert all(RULES.visibility(e) == PUBLIC for e in events if not isinstance(e, CertificatesTaken))
    assert CertificatesTaken(1, 9) in _feed(events, 1)
    for seat in (0, 2):
        assert not of_type(_feed(events, seat), CertificatesTaken)
        assert PrestigeBankedHidden(1) in _feed(events, seat)
    after = fold(events, s)
    assert after.captain == 1
    assert (after.players[1].prestige, after.players[1].certificates) == (0, 9)


def test_the_open_captain_banks_in_public() -> None:
    events = when(_round_end(hidden=False), -1, EndRound())
    assert of_type(events, PrestigeBanked) == [PrestigeBanked(1, 9)]
    assert not of_type(events, CertificatesTaken) and not of_type(events, PrestigeBankedHidden)
    assert all(RULES.visibility(e) == PUBLIC for e in events)


def test_views_show_a_seats_certificates_to_that_seat_alone_until_the_scoring_reveals_all() -> None:
    s = _round_end(hidden=True, round=8)
    s = fold(when(s, -1, EndRound()), s)
    assert s.phase is Phase.GAME_END
    assert _certificates(s, Actor.of_seat(0)) == ([0, 0, 0], (1, 2))
    assert _certificates(s, Actor.of_seat(1)) == ([0, 9, 0], (0, 2))
    assert _certificates(s, SPECTATOR) == ([0, 0, 0], (0, 1, 2))
    assert _certificates(s, SYSTEM) == ([0, 9, 0], ())
    scoring = when(s, -1, ScoreGame())
    assert all(RULES.visibility(e) == PUBLIC for e in scoring)
    assert [f.certificates for f in of_type(scoring, GameScored)[0].scores] == [0, 9, 0]
    s = fold(scoring, s)
    for viewer in (Actor.of_seat(0), Actor.of_seat(2), SPECTATOR):
        assert _certificates(s, viewer) == ([0, 9, 0], ())


def test_open_certificates_are_in_every_view() -> None:
    s = _round_end(hidden=False)
    s = fold(when(s, -1, EndRound()), s)
    for viewer in (Actor.of_seat(0), Actor.of_seat(2), SPECTATOR):
        assert _certificates(s, viewer) == ([0, 9, 0], ())


def test_a_bot_never_sees_the_hidden_certificates_of_another_seat() -> None:
    s = _round_end(hidden=True)
    s = fold(when(s, -1, EndRound()), s)
    for seat in (0, 2):
        sampled = sample_for_seat(RULES, s, seat, Rng(3))
        assert [p.certificates for p in sampled.players] == [0, 0, 0]
        assert RULES.view(sampled, Actor.of_seat(seat)) == RULES.view(s, Actor.of_seat(seat))
    assert sample_for_seat(RULES, s, 1, Rng(3)).players[1].certificates == 9
    opened = _round_end(hidden=False)
    opened = fold(when(opened, -1, EndRound()), opened)
    assert sample_for_seat(RULES, opened, 0, Rng(3)) == opened


def test_a_match_stored_before_the_option_keeps_its_open_certificates() -> None:
    """The committed log (tests/fixtures/florenza) has no option event: its Captains banked in public."""
    florenza = load_game("florenza")
    _, *lines = FIXTURE.read_text().splitlines()
    s = RULES.initial_state()
    for line in map(json.loads, lines):
        event = florenza.codec.decode(line["type"], base64.b64decode(line["payload"]), line["schema_version"])
        s = RULES.evolve(s, event)
        if isinstance(event, PrestigeBanked):
            break
    assert s.config is not None and s.config.hidden_certificates is False
    assert s.phase is not Phase.FINISHED and any(p.certificates for p in s.players)
    truth = [p.certificates for p in s.players]
    assert _certificates(s, Actor.of_seat(0)) == (truth, ())
    assert _certificates(s, SPECTATOR) == (truth, ())


def test_the_option_is_in_the_manifest_and_tabula_games() -> None:
    (option,) = games.manifest("florenza").options
    assert (option.name, option.type, option.default) == ("hidden_certificates", OptionType.BOOL, "true")
    assert games.manifest("florenza").parse_options({}) == {"hidden_certificates": "true"}
    listed = {g["name"]: g for g in json.loads(CliRunner().invoke(app, ["games", "--json"]).output)}
    assert [o["name"] for o in listed["florenza"]["options"]] == [
        "hidden_certificates",
        "undo",
    ]  # then every game's
    text = CliRunner().invoke(app, ["games"]).output
    assert "--option hidden_certificates=true|false (default true)" in text
