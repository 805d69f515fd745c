"""Pure rules of Trajan: content types, commands, events, state and ``TrajanRules``."""

from services.trajan.rules.commands import *  # noqa: F403
from services.trajan.rules.commands import COMMAND_TYPES, Command
from services.trajan.rules.content_types import Content, content_counts
from services.trajan.rules.events import *  # noqa: F403
from services.trajan.rules.events import EVENT_TYPES, Event
from services.trajan.rules.model import Config, Phase, State
from services.trajan.rules.rules import TrajanRules
from services.trajan.rules.view import TrajanView, determinize

__all__ = [
    "COMMAND_TYPES",
    "EVENT_TYPES",
    "Command",
    "Config",
    "Content",
    "Event",
    "Phase",
    "State",
    "TrajanRules",
    "TrajanView",
    "content_counts",
    "determinize",
]
