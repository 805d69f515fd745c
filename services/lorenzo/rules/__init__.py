"""Pure rules of Lorenzo il Magnifico: content types, commands, events, state and ``LorenzoRules``."""

from services.lorenzo.rules.commands import *  # noqa: F403
from services.lorenzo.rules.commands import COMMAND_TYPES, Command
from services.lorenzo.rules.content_types import Content, content_counts
from services.lorenzo.rules.events import *  # noqa: F403
from services.lorenzo.rules.events import EVENT_TYPES, Event
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import Config, Member, Phase, Privilege, State
from services.lorenzo.rules.rules import LorenzoRules
from services.lorenzo.rules.view import LorenzoView, determinize

__all__ = [
    "COMMAND_TYPES",
    "EVENT_TYPES",
    "Command",
    "Config",
    "Content",
    "Event",
    "Goods",
    "LorenzoRules",
    "LorenzoView",
    "Member",
    "Phase",
    "Privilege",
    "State",
    "content_counts",
    "determinize",
]
