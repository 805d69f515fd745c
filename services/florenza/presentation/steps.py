"""Florenza's wording of the terminal client's steps (``services/client/steps.py``): a question for each
field a command is chosen by, and each value in words with what it costs or gives, in the labels'
locale (``step.<Command>.<field>`` keys of ``services/florenza/texts.py``'s ``TEXTS``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.florenza.presentation.describe import FlorenzaDescriber
from services.florenza.presentation.labels import Labels, catalog

Msg = Any

FIELDS = (
    ("ChooseStartingWorkshop", "workshop"),
    ("WithholdWorker", "seat"),
    ("WithholdArtist", "artist"),
    ("LureWorker", "seat"),
    ("ExpelPreacher", "preacher"),
    ("WorkWorkshop", "owner"),
    ("WorkWorkshop", "slot"),
    ("PlanWorkshop", "workshop"),
    ("HireArtist", "work"),
    ("HireArtist", "artist"),
    ("MakeOffering", "preacher"),
    ("MakeOffering", "duomo"),
    ("ChooseDie", "die"),
    ("SellResource", "resource"),
    ("BuyResource", "resource"),
    ("ExchangeResources", "give"),
    ("ExchangeResources", "get"),
    ("CompleteArtWork", "work"),
    ("CompleteArtWork", "skill"),
)  # the fields a question is asked for (``step.<Command>.<field>``)


class Steps:
    """The step wording in one locale (what ``LabelledPresentation.steps`` asks)."""

    def __init__(self, locale: str = "en") -> None:
        self.t = catalog(locale)

    def step_title(self, command: str, field: str) -> str | None:
        return self.t.text(f"step.{command}.{field}") if (command, field) in FIELDS else None

    def option_text(
        self, labels: Labels, member: Msg, field: str, view: Msg | None, names: Sequence[str]
    ) -> str | None:
        return option_text(labels, member, field, view, names)


def step_title(command: str, field: str) -> str | None:
    """The English question (:class:`Steps` in another locale)."""
    return Steps().step_title(command, field)


def option_text(
    labels: Labels, member: Msg, field: str, view: Msg | None, names: Sequence[str]
) -> str | None:
    """A field's value in words; None leaves the client's default."""
    name = member.DESCRIPTOR.name
    describer = FlorenzaDescriber(labels, names)
    raw: Any = getattr(member, field, None)
    match field:
        case "workshop":
            return labels.workshop_text(raw)
        case "artist":
            return labels.artist_text(raw)
        case "preacher":
            return labels.preacher_text(raw)
        case "work":
            doomed = describer.doomed(view, raw) if name == "CompleteArtWork" else ""
            return labels.work_text(raw) + doomed
        case "seat" | "owner":
            if name == "WorkWorkshop":
                return labels.say("step.district_of", who=describer.who(raw))
            return describer.who(raw)
        case "slot" | "die":
            return _detail(describer.command(member, view))
        case "duomo":
            return labels.say("step.duomo_pulpit") if raw else labels.say("step.own_pulpit")
        case "skill":
            return describer.talent_choice(member, view)
        case "resource" | "give" | "get":
            return describer.enum(member, field)
    return None


def _detail(text: str) -> str:
    """What follows the command's title (``Choose die: 4 (...)`` -> ``4 (...)``)."""
    return text.split(": ", 1)[-1]


def explain(labels: Labels, query: str) -> list[str]:
    """Every workshop, character and art work whose name has ``query`` in it, with its facts (the
    client's ``? NAME``)."""
    c, wanted = labels.content, query.strip().lower()
    if not wanted:
        return []
    found = [labels.workshop_text(w.id) for w in c.workshops if wanted in labels.workshop(w.id).lower()]
    found += [labels.artist_text(a.id) for a in c.artists if wanted in labels.character(a.id).lower()]
    found += [labels.preacher_text(p.id) for p in c.preachers if wanted in labels.character(p.id).lower()]
    found += [labels.work_text(w.id) for w in c.works if wanted in labels.work(w.id).lower()]
    return list(dict.fromkeys(found))
