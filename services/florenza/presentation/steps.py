"""Florenza's wording of the terminal client's steps (``services/client/steps.py``): a question for each
field a command is chosen by, and each value in words with what it costs or gives."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.florenza.presentation.describe import FlorenzaDescriber, enum_of
from services.florenza.presentation.labels import Labels, skill_name

Msg = Any

TITLES = {
    ("ChooseStartingWorkshop", "workshop"): "Which starting workshop?",
    ("WithholdWorker", "seat"): "Whose worker do you hold back?",
    ("WithholdArtist", "artist"): "Which artist do you hold back?",
    ("LureWorker", "seat"): "Whose worker do you lure away?",
    ("ExpelPreacher", "preacher"): "Which preacher do you expel?",
    ("WorkWorkshop", "owner"): "Whose workshop?",
    ("WorkWorkshop", "slot"): "Which workshop?",
    ("PlanWorkshop", "workshop"): "Which workshop do you plan?",
    ("HireArtist", "work"): "For which art work?",
    ("HireArtist", "artist"): "Which artist?",
    ("MakeOffering", "preacher"): "To which preacher?",
    ("MakeOffering", "duomo"): "On which pulpit?",
    ("ChooseDie", "die"): "Which die do you keep?",
    ("SellResource", "resource"): "Sell which resource?",
    ("BuyResource", "resource"): "Buy which resource?",
    ("ExchangeResources", "give"): "Give two of which resource?",
    ("ExchangeResources", "get"): "For one of which?",
    ("CompleteArtWork", "work"): "Which art work do you complete?",
    ("CompleteArtWork", "skill"): "With which talent?",
}


def step_title(command: str, field: str) -> str | None:
    return TITLES.get((command, field))


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
            return describer.who(raw) + ("" if name != "WorkWorkshop" else "'s district")
        case "slot":
            return describer.command(member, view).split(": ", 1)[-1]
        case "duomo":
            return "the Duomo's pulpit (two dice, keep one)" if raw else "your own pulpit"
        case "die":
            return describer.command(member, view).split(": ", 1)[-1]
        case "skill":
            text = describer.command(member, view).split(" with ", 1)[-1]
            return text if text else skill_name(raw)
        case "resource" | "give" | "get":
            return enum_of(member, field)
    return None


def explain(labels: Labels, query: str) -> list[str]:
    """Every workshop, character and art work whose name has ``query`` in it, with its facts (the
    client's ``? NAME``)."""
    c, wanted = labels.content, query.strip().lower()
    if not wanted:
        return []
    found = [labels.workshop_text(w.id) for w in c.workshops if wanted in w.name.lower()]
    found += [labels.artist_text(a.id) for a in c.artists if wanted in a.name.lower()]
    found += [labels.preacher_text(p.id) for p in c.preachers if wanted in p.name.lower()]
    found += [labels.work_text(w.id) for w in c.works if wanted in labels.work(w.id).lower()]
    return list(dict.fromkeys(found))
