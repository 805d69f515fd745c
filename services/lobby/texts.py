"""The lobby's texts: the English of its refusals, collected from where they are raised.

Keys are ``reason.<code>: <English template>`` (``shared.core.reasons.reason_key``), read from
the lobby's raise sites (``shared.core.reasons.refusal_texts``), so a refusal is worded once; the
translations are ``services/lobby/locales/<locale>.yaml``. The servicer hands :data:`TEXTS` to its
registration: a refusal's ``google.rpc.LocalizedMessage`` is looked up here, then in the
platform's texts (``shared/serving/refusals.py``).
"""

from __future__ import annotations

from pathlib import Path

from services.lobby.adapters.accounts_repo import REFUSALS as ACCOUNT_REFUSALS
from services.lobby.domain.friends import REFUSALS as FRIENDS_REFUSALS
from services.lobby.domain.rooms import RoomStatus
from services.lobby.domain.tournaments import Status as TournamentStatus
from shared.core.i18n import Texts, register
from shared.core.reasons import reason_key, refusal_texts

FOLDER = Path(__file__).resolve().parent

# the codes ``f"room_{status}"`` is raised as: a room that is not open
ROOM_CODES = [f"room_{status.value}" for status in RoomStatus if status is not RoomStatus.OPEN]
# and ``f"tournament_{status}"``: a tournament no longer registering
TOURNAMENT_CODES = [
    f"tournament_{status.value}" for status in TournamentStatus if status is not TournamentStatus.REGISTERING
]


def _english() -> dict[str, str]:
    """The raise sites' refusals, and the friends' and accounts' scripts' (raised from their tables)."""
    found = refusal_texts(FOLDER, ROOM_CODES + TOURNAMENT_CODES)
    found |= {reason_key(code, template): template for code, template, _ in FRIENDS_REFUSALS.values()}
    tables = ACCOUNT_REFUSALS.values()
    return found | {reason_key(code, text): text for table in tables for code, text in table.items()}


TEXTS = Texts("lobby", FOLDER, _english)
register("lobby", lambda: TEXTS)
