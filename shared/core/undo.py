"""Undo: a platform rule, the same in every game (docs/workers.md, "Undo").

A seat's player may take back its latest command (the rule service's ``Undo``) while that command
revealed nothing hidden to anyone and nobody acted since. The platform records it in the match's log
as its own event (:data:`COMMANDS_UNDONE`, the payload a ``tabula.common.v1.CommandsUndone``), never as a
game's event: the rules neither see nor fold it. It names the version the match returns to, and the
fold (the runner's) makes the state there the state after it, so a replay of the log alone is exact.

What an undo may take back is read from the log (:func:`undo_target`): the command whose events end
the match's history, where an undone command is no longer part of it (the history after an undo is
the history at the version it returned to). That command must be the seat's own (its player's, not a
bot's or its turn clock's), none of its events revealing: of a type its game declares revealing
(``Rules.revealing``: draws, deals, dice, reshuffles) or seen by fewer than everyone. Each call takes
back one command; a seat calls again to take back the one before, as long as it is its own.

A match option, :data:`UNDO_OPTION` (every game has it, default on), turns undo off.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from shared.core.decider import RuleViolation
from shared.core.manifest import GameOption, OptionType

COMMANDS_UNDONE = "tabula.common.v1.CommandsUndone"  # the envelope type of an undo
UNDO = "undo"
UNDO_OPTION = GameOption(
    UNDO,
    OptionType.BOOL,
    "true",
    "A player may take back their latest move while it revealed nothing (no draw, deal or die roll) and "
    "nobody has moved since. false: every move stands.",
)
PLATFORM_OPTIONS = (UNDO_OPTION,)  # match options of the platform, every game's besides its own
SETUP = "create"  # the command id of a match's setup events, which nobody takes back


def undo_allowed(options: Mapping[str, str]) -> bool:
    """Whether a match with these options lets seats undo (the option's default: yes)."""
    return options.get(UNDO, UNDO_OPTION.default) != "false"


def game_options(options: Mapping[str, str]) -> dict[str, str]:
    """``options`` without the platform's: what a game's ``make_config`` is given."""
    platform = {o.name for o in PLATFORM_OPTIONS}
    return {name: value for name, value in options.items() if name not in platform}


def undone_to(payload: bytes) -> int:
    """The version an undo's payload returns the match to."""
    from tabula.common.v1 import common_pb2  # generated code: `tabula proto` imports this module first

    to: int = common_pb2.CommandsUndone.FromString(payload).to_version
    return to


def undo_payload(seat: int, to_version: int) -> bytes:
    from tabula.common.v1 import common_pb2

    payload: bytes = common_pb2.CommandsUndone(seat=seat, to_version=to_version).SerializeToString()
    return payload


class LogShort(LookupError):
    """The events given to :func:`undo_target` do not reach back to ``version``, which it needs."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the log read does not reach back to version {version}")
        self.version = version


def undo_target(
    log: Iterable[Any], seat: int, revealing: Collection[str], platform: Collection[str], low: int = 1
) -> int:
    """The version ``seat``'s Undo returns the match to, from its stored ``log`` (envelopes with
    ``version``, ``type``, ``payload``, ``visibility``, ``command_id`` and ``actor``; every one from
    ``low`` to the head), or a RuleViolation saying why nothing can be taken back; :class:`LogShort`
    when it needs an event before ``low``. ``revealing``: the game's revealing event type names;
    ``platform``: the platform's event types."""
    events = {event.version: event for event in log}

    def at(version: int) -> Any:
        if 1 <= version < low:
            raise LogShort(version)
        return events.get(version)

    version = max(events, default=0)
    while (event := at(version)) is not None and event.type == COMMANDS_UNDONE:
        version = undone_to(event.payload)  # the history goes on from where it returned to
    last = at(version)
    if last is None or last.command_id == SETUP:
        raise RuleViolation("nothing_to_undo", "no command of this match can be taken back")
    if last.actor != f"seat:{seat}" or last.type in platform:
        raise RuleViolation("undo_not_yours", "the latest command is not this seat's own")
    first = version
    while (before := at(first - 1)) is not None and before.command_id == last.command_id:
        first -= 1
    for event in (events[v] for v in range(first, version + 1)):
        if event.type in revealing or event.visibility != "public":
            raise RuleViolation("undo_revealed", "the latest command revealed something hidden")
    return first - 1


def revealing_names(types: Iterable[type]) -> frozenset[str]:
    """The envelope type names of a game's revealing event classes (the codec stores class names)."""
    return frozenset(t.__name__ for t in types)
