"""The documented push-notification hook: `TABULA_PUSH=module:attr` names a zero-argument factory
whose product the lobby hands every stored notice (docs/lobby.md, "Push"); without it, notices are
only logged."""

from __future__ import annotations

import pytest

from services.lobby.adapters.push import PUSH, LogPush, load_push


class Recorder:
    """A provider as a deployment would plug one in (FCM, APNs, Web Push ...)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def send(self, player_id: str, notice_id: str, notice: object) -> None:
        self.sent.append((player_id, notice_id))


def test_without_a_provider_notices_are_logged() -> None:
    assert isinstance(load_push({}), LogPush)
    assert isinstance(load_push({PUSH: "  "}), LogPush)


def test_the_named_factory_builds_the_provider() -> None:
    provider = load_push({PUSH: f"{__name__}:Recorder"})
    assert isinstance(provider, Recorder) and provider.sent == []
    assert load_push({PUSH: f"{__name__}:Recorder"}) is not provider  # built by each call, once per lobby


def test_a_spec_that_is_not_module_attr_is_refused_at_start_up() -> None:
    with pytest.raises(ValueError, match="is not module:attr"):
        load_push({PUSH: "tests.unit.lobby.test_push_hook"})
    with pytest.raises(AttributeError):
        load_push({PUSH: f"{__name__}:NoSuchFactory"})
