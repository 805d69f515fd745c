"""Pure rules of Florenza: content types, commands, events, state and ``FlorenzaRules``.

The names other packages import from here are re-exported by name (``X as X``)."""

from services.florenza.rules.commands import *  # noqa: F403
from services.florenza.rules.commands import COMMAND_TYPES as COMMAND_TYPES
from services.florenza.rules.commands import Command as Command
from services.florenza.rules.content_types import Content as Content
from services.florenza.rules.content_types import content_counts as content_counts
from services.florenza.rules.events import *  # noqa: F403
from services.florenza.rules.events import EVENT_TYPES as EVENT_TYPES
from services.florenza.rules.events import Event as Event
from services.florenza.rules.goods import Goods as Goods
from services.florenza.rules.goods import Resource as Resource
from services.florenza.rules.model import Config as Config
from services.florenza.rules.model import Phase as Phase
from services.florenza.rules.model import State as State
from services.florenza.rules.rules import FlorenzaRules as FlorenzaRules
from services.florenza.rules.view import FlorenzaView as FlorenzaView
from services.florenza.rules.view import determinize as determinize
