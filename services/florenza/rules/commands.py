"""Commands of Florenza: small, enumerable decisions (imperative names). System steps end the list."""

from __future__ import annotations

import typing

from services.florenza.rules.content_types import Skill
from services.florenza.rules.goods import Resource
from shared.core.wire import message, pb


@message(tag=1)
class ChooseStartingWorkshop:
    """Setup: take one of the set-aside starting workshops, built, into your lowest empty space."""

    workshop: int = pb(1)  # workshop kind id


@message(tag=2)
class WithholdWorker:
    """Captain of the People: put one worker of another family's board on Life in Florenza VI."""

    seat: int = pb(1)


@message(tag=3)
class WithholdArtist:
    """Captain of the People: put a named artist on Life in Florenza VI; nobody may hire him this round."""

    artist: int = pb(1)


@message(tag=4)
class LureWorker:
    """Bishop: one worker of another family goes back to its reserve, one of yours joins your board."""

    seat: int = pb(1)


@message(tag=5)
class ExpelPreacher:
    """Bishop: a named preacher may not receive offerings this round."""

    preacher: int = pb(1)


@message(tag=6)
class DeclinePrivilege:
    """Captain or Bishop: use no privilege this round."""


@message(tag=7)
class WorkWorkshop:
    """Place a worker on a built workshop (``slot`` 1..8 of ``owner``'s district); it works in step 6.

    Another family's workshop costs one prestige, paid to its owner now."""

    owner: int = pb(1)
    slot: int = pb(2)


@message(tag=8)
class PlanWorkshop:
    """Place a workshop tile, unbuilt, in your lowest empty space with a worker on it (built in step 6)."""

    workshop: int = pb(1)  # workshop kind id


@message(tag=9)
class HireArtist:
    """Place a worker on an open art work (your district's or a public one) and hire an artist for it."""

    work: int = pb(1)
    artist: int = pb(2)


@message(tag=10)
class VisitMarket:
    """Send a worker to the market (one per family and round); it trades in step 5."""


@message(tag=11)
class MakeOffering:
    """Place a worker on a free pulpit with a preacher, pay the offering, roll for workers."""

    preacher: int = pb(1)
    duomo: bool = pb(2, default=False)  # the Duomo's pulpit (two dice, keep one) instead of your own


@message(tag=12)
class Pass:
    """Place no more workers this round."""


@message(tag=13)
class ChooseDie:
    """Keep one of the two dice rolled for the Duomo."""

    die: int = pb(1)  # the face kept


@message(tag=14)
class SellResource:
    """Market: sell one resource to the bank."""

    resource: Resource = pb(1)


@message(tag=15)
class BuyResource:
    """Market: buy one resource from the bank."""

    resource: Resource = pb(1)


@message(tag=16)
class ExchangeResources:
    """Market: give two identical resources for one of another kind."""

    give: Resource = pb(1)
    get: Resource = pb(2)


@message(tag=17)
class LeaveMarket:
    """Market: done trading; the worker goes back to the reserve."""


@message(tag=18)
class CompleteArtWork:
    """Step 7: try to complete one of your hired art works with one talent of its artist."""

    work: int = pb(1)
    skill: Skill = pb(2)


@message(tag=19)
class CollectIncome:
    """System, step 1: income for every family (the die is rolled here)."""


@message(tag=20)
class ResolveDistricts:
    """System, step 6: every worker in the districts produces or builds, slot by slot."""


@message(tag=21)
class EndRound:
    """System, steps 8 and 9: titles, next turn order, returns, Life in Florenza."""


@message(tag=22)
class ScoreGame:
    """System: final scoring after round 8."""


Command = (
    ChooseStartingWorkshop
    | WithholdWorker
    | WithholdArtist
    | LureWorker
    | ExpelPreacher
    | DeclinePrivilege
    | WorkWorkshop
    | PlanWorkshop
    | HireArtist
    | VisitMarket
    | MakeOffering
    | Pass
    | ChooseDie
    | SellResource
    | BuyResource
    | ExchangeResources
    | LeaveMarket
    | CompleteArtWork
    | CollectIncome
    | ResolveDistricts
    | EndRound
    | ScoreGame
)

COMMAND_TYPES: tuple[type, ...] = typing.get_args(Command)  # in tag order
