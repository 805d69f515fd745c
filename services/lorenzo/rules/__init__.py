"""Pure rules of Lorenzo il Magnifico: content types, commands, events, state and ``LorenzoRules``.

The names other packages import from here are re-exported by name (``X as X``)."""

from services.lorenzo.rules.commands import *  # noqa: F403
from services.lorenzo.rules.commands import COMMAND_TYPES as COMMAND_TYPES
from services.lorenzo.rules.commands import Command as Command
from services.lorenzo.rules.content_types import Content as Content
from services.lorenzo.rules.content_types import content_counts as content_counts
from services.lorenzo.rules.events import *  # noqa: F403
from services.lorenzo.rules.events import EVENT_TYPES as EVENT_TYPES
from services.lorenzo.rules.events import Event as Event
from services.lorenzo.rules.goods import Goods as Goods
from services.lorenzo.rules.model import (
    Config as Config,
)
from services.lorenzo.rules.model import (
    Member as Member,
)
from services.lorenzo.rules.model import (
    Phase as Phase,
)
from services.lorenzo.rules.model import (
    Privilege as Privilege,
)
from services.lorenzo.rules.model import (
    State as State,
)
from services.lorenzo.rules.rules import LorenzoRules as LorenzoRules
from services.lorenzo.rules.view import LorenzoView as LorenzoView
from services.lorenzo.rules.view import determinize as determinize
