"""Pure rules of Florenza: content types, commands, events, state and ``FlorenzaRules``."""

from services.florenza.rules.commands import *  # noqa: F403
from services.florenza.rules.commands import COMMAND_TYPES, Command
from services.florenza.rules.content_types import Content, content_counts
from services.florenza.rules.events import *  # noqa: F403
from services.florenza.rules.events import EVENT_TYPES, Event
from services.florenza.rules.goods import Goods, Resource
from services.florenza.rules.model import Config, Phase, State
from services.florenza.rules.rules import FlorenzaRules
from services.florenza.rules.view import FlorenzaView, determinize

__all__ = [
    "COMMAND_TYPES",
    "EVENT_TYPES",
    "Command",
    "Config",
    "Content",
    "Event",
    "FlorenzaRules",
    "FlorenzaView",
    "Goods",
    "Phase",
    "Resource",
    "State",
    "content_counts",
    "determinize",
]
