"""Pure rules of Trajan: content types, commands, events, state and ``TrajanRules``.

The names other packages import from here are re-exported by name (``X as X``)."""

from services.trajan.rules.commands import *  # noqa: F403
from services.trajan.rules.commands import COMMAND_TYPES as COMMAND_TYPES
from services.trajan.rules.commands import Command as Command
from services.trajan.rules.content_types import Content as Content
from services.trajan.rules.content_types import content_counts as content_counts
from services.trajan.rules.events import *  # noqa: F403
from services.trajan.rules.events import EVENT_TYPES as EVENT_TYPES
from services.trajan.rules.events import Event as Event
from services.trajan.rules.model import Config as Config
from services.trajan.rules.model import Phase as Phase
from services.trajan.rules.model import State as State
from services.trajan.rules.rules import TrajanRules as TrajanRules
from services.trajan.rules.view import TrajanView as TrajanView
from services.trajan.rules.view import determinize as determinize
