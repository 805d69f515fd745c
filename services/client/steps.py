"""Choosing one of many legal commands in small steps, built from the commands' own fields.

A first turn of a rich game offers a hundred legal commands; a flat numbered list of them is
unreadable. So the client asks in steps: first the kind of command (the member of the game's
``Command`` oneof), then, among the commands of that kind that are left, the first field whose
value differs (in a worker-placement game: the worker, then the space, then what is paid), until
one command is left. A field every remaining command agrees on is never asked.

What the player has chosen so far is a list of :class:`Choice` (``field = value``), not positions in
a list, so it survives a refresh: when the match moves while the player is choosing, the steps are
rebuilt from the new legal commands and the choices that still match some command are kept
(:func:`keep_legal`). "Back" drops the last choice.

The wording is the game's: a presentation may name the steps and the values of its fields
(:class:`StepWording`); without it, steps are the field names in words and values are described
by :class:`shared.core.describe.Describer`. Pure functions over protobuf messages: tested without a server.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from google.protobuf.descriptor import FieldDescriptor

from services.client.texts import t
from shared.core.describe import Describer, words

Msg = Any
KIND = ""  # the Choice key of the first step: which kind of command (the oneof member)


@runtime_checkable
class StepWording(Protocol):
    """Optional part of a game's presentation: its own names for steps and for field values."""

    def step_title(
        self, command: str, field: str, member: Msg | None = None, view: Msg | None = None
    ) -> str | None:
        """The question of the step that picks ``field`` of ``command`` (a message name); ``command``
        and ``field`` are "" for the first step (which kind of command). ``member`` is one of the
        commands left (what they agree on may name the question: the bowl being filled), ``view``
        the view shown. None: the default."""
        ...

    def option_text(self, member: Msg, field: str, view: Msg | None, names: Sequence[str]) -> str | None:
        """``member``'s value of ``field`` in words (e.g. a space with the card on it). None: the default."""
        ...


Plan = tuple[str, Sequence[Msg]]  # a label and the commands it sends, one after the other


@runtime_checkable
class Planner(Protocol):
    """Optional part of a game's presentation: one choice that stands for several commands in a row
    (sowing markers one by one is one choice of their order)."""

    def plans(
        self, view: Msg, commands: Sequence[Msg], names: Sequence[str]
    ) -> tuple[str, Sequence[Plan]] | None:
        """The question and its plans when every command of ``commands`` (the legal ones) starts one;
        each plan's commands are legal one after the other. None: ask in steps as usual."""
        ...


@dataclass(frozen=True)
class Choice:
    """One answer: the command kind (``key`` KIND, ``value`` the oneof member's name) or a field's value."""

    key: str
    value: Hashable


@dataclass(frozen=True)
class Option:
    label: str
    choice: Choice
    commands: tuple[Msg, ...]  # the Command wrappers this option leaves
    then: tuple[Msg, ...] = ()  # a plan's commands sent after the chosen one


@dataclass(frozen=True)
class Step:
    title: str
    options: tuple[Option, ...]


def distinct(options: Sequence[Option]) -> tuple[Option, ...]:
    """Options worded alike read as one to the player (two copies of one card): the first is kept."""
    first: dict[str, Option] = {}
    for option in options:
        first.setdefault(option.label, option)
    return tuple(first.values())


def kind_of(command: Msg) -> str:
    """The set member of a ``Command`` wrapper (``place_family_member``)."""
    return str(command.WhichOneof(command.DESCRIPTOR.oneofs[0].name) or "")


def member_of(command: Msg) -> Msg:
    return getattr(command, kind_of(command))


def field_key(member: Msg, fd: FieldDescriptor) -> Hashable:
    """A hashable value of one field: lists as tuples, messages as bytes, an absent optional as None."""
    raw = getattr(member, fd.name)
    if fd.is_repeated:
        if fd.type == FieldDescriptor.TYPE_MESSAGE:
            return tuple(item.SerializeToString(deterministic=True) for item in raw)
        return tuple(raw)
    if fd.has_presence and not member.HasField(fd.name):
        return None
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        return bytes(raw.SerializeToString(deterministic=True))
    return raw  # type: ignore[no-any-return]


def matches(command: Msg, choice: Choice) -> bool:
    if choice.key == KIND:
        return kind_of(command) == choice.value
    member = member_of(command)
    fd = member.DESCRIPTOR.fields_by_name.get(choice.key)
    return fd is not None and field_key(member, fd) == choice.value


def narrow(commands: Sequence[Msg], choices: Sequence[Choice]) -> list[Msg]:
    return [c for c in commands if all(matches(c, choice) for choice in choices)]


def keep_legal(commands: Sequence[Msg], choices: Sequence[Choice]) -> list[Choice]:
    """The longest prefix of ``choices`` that some command still matches (after the match moved)."""
    kept = list(choices)
    while kept and not narrow(commands, kept):
        kept.pop()
    return kept


def _groups(commands: Sequence[Msg], key: Callable[[Msg], Hashable]) -> dict[Hashable, list[Msg]]:
    groups: dict[Hashable, list[Msg]] = {}
    for command in commands:
        groups.setdefault(key(command), []).append(command)
    if all(isinstance(k, int) for k in groups):  # numbers (and booleans) in their natural order
        return {k: groups[k] for k in sorted(groups, key=lambda k: int(k))}  # type: ignore[call-overload]
    return groups


def _by_field(fd: FieldDescriptor) -> Callable[[Msg], Hashable]:
    return lambda command: field_key(member_of(command), fd)


@dataclass(frozen=True)
class Steps:
    """Builds the next step for the remaining commands, worded by the game's presentation."""

    describe: Callable[[Msg], str]  # a whole Command wrapper in words (the game's presentation)
    describer: Describer  # field values where the game has no words of its own
    wording: StepWording | None = None
    view: Msg | None = None
    names: Sequence[str] = ()
    planner: Planner | None = None

    def plans(self, commands: Sequence[Msg]) -> Step | None:
        """The game's plans for ``commands`` as one step; None when it has none."""
        planned = self.planner.plans(self.view, commands, self.names) if self.planner is not None else None
        if not planned:
            return None
        title, plans = planned
        options = [
            Option(label, Choice(KIND, kind_of(sent[0])), (sent[0],), tuple(sent[1:]))
            for label, sent in plans
            if sent
        ]
        return Step(title, distinct(options)) if options else None

    def next_step(self, commands: Sequence[Msg]) -> Step | None:
        """The question that splits ``commands``; None when one command is left (or none)."""
        if len(commands) < 2:
            return None
        kinds = _groups(commands, kind_of)
        if len(kinds) > 1:
            return Step(
                self.title("", ""),
                tuple(Option(self._kind_label(g), Choice(KIND, k), tuple(g)) for k, g in kinds.items()),
            )
        member = member_of(commands[0])
        for fd in member.DESCRIPTOR.fields:
            values = _groups(commands, _by_field(fd))
            if len(values) > 1:
                options = distinct(
                    [
                        Option(self.value_label(member_of(g[0]), fd), Choice(fd.name, k), tuple(g))
                        for k, g in values.items()
                    ]
                )
                return Step(self.title(member.DESCRIPTOR.name, fd.name, member), options)
        # Commands that agree on every field (not expected of legal commands): one option each.
        return Step(
            self.title(member.DESCRIPTOR.name, ""),
            distinct([Option(self.describe(c), Choice(KIND, kind_of(c)), (c,)) for c in commands]),
        )

    def title(self, command: str, field: str, member: Msg | None = None) -> str:
        wording = self.wording
        named = wording.step_title(command, field, member, self.view) if wording is not None else None
        if named:
            return named
        if not command:
            return t("steps.what")
        if field:
            return t("steps.which_field", command=words(command), field=words(field).lower())
        return t("steps.which_one", command=words(command))

    def _kind_label(self, group: Sequence[Msg]) -> str:
        """``Place family member (48 ways)``; a kind with one command shows that command in full."""
        if len(group) == 1:
            return self.describe(group[0])
        return t("steps.ways", command=words(member_of(group[0]).DESCRIPTOR.name), count=len(group))

    def value_label(self, member: Msg, fd: FieldDescriptor) -> str:
        if self.wording is not None:
            named = self.wording.option_text(member, fd.name, self.view, self.names)
            if named:
                return named
        label = words(fd.name).lower()
        if fd.has_presence and not fd.is_repeated and not member.HasField(fd.name):
            return t("steps.no_value", field=label)
        raw = getattr(member, fd.name)
        context = member.DESCRIPTOR.name
        if fd.is_repeated:
            listed = ", ".join(self.describer.value(fd, item, context) for item in raw)
            return listed or t("steps.no_value", field=label)
        text = self.describer.value(fd, raw, context)
        return text if text.lower().startswith(label) else f"{label} {text}"


def search(commands: Sequence[Msg], text: str, describe: Callable[[Msg], str]) -> list[Msg]:
    """The commands whose description has every typed word (any case): a number as a whole word
    (``2`` is not ``21``), other words as the start of one (``abb`` finds the Abbess)."""
    wanted = re.findall(r"\w+", text.lower())

    def has(tokens: list[str], word: str) -> bool:
        return any(t == word or (not word.isdigit() and t.startswith(word)) for t in tokens)

    found = []
    for command in commands:
        tokens = re.findall(r"\w+", describe(command).lower())
        if all(has(tokens, w) for w in wanted):
            found.append(command)
    return found


FILTER_LIMIT = 20  # more matches than this: ask for more words rather than print a long list


@dataclass
class Chooser:
    """The player's partial choice over the current legal commands: pick, back, filter, refresh."""

    steps: Steps
    commands: list[Msg]
    choices: list[Choice]
    found: list[Msg] | None = None  # the matches of a typed filter, shown as a step of their own
    query: str = ""
    then: tuple[Msg, ...] = ()  # what the picked plan sends after the command ``pick`` returned

    def remaining(self) -> list[Msg]:
        return narrow(self.commands, self.choices)

    def step(self) -> Step:
        """The question to ask now (one option when a single command is legal)."""
        if self.found is not None:
            title = t("steps.matching", query=repr(self.query))
            return Step(title, distinct([self._single(c) for c in self.found]))
        planned = self.steps.plans(self.commands) if not self.choices else None
        if planned is not None:
            return planned
        left = self.remaining()
        step = self.steps.next_step(left)
        if step is None:
            return Step(t("steps.only"), distinct([self._single(c) for c in left]))
        return step

    def _single(self, command: Msg) -> Option:
        return Option(self.steps.describe(command), Choice(KIND, kind_of(command)), (command,))

    def pick(self, index: int) -> Msg | None:
        """Choose option ``index`` (0-based) of the current step; the command once one is left."""
        option = self.step().options[index]
        self.then = option.then
        if len(option.commands) == 1:
            return option.commands[0]
        self.choices.append(option.choice)
        self.found = None
        left = self.remaining()
        return left[0] if len(left) == 1 else None

    def back(self) -> bool:
        """Undo the filter, else the last choice; False when there is nothing to undo."""
        if self.found is not None:
            self.found = None
            return True
        if not self.choices:
            return False
        self.choices.pop()
        return True

    def search(self, text: str) -> tuple[int, Msg | None]:
        """Filter the legal commands by words: (how many match, the command when exactly one does).
        Up to FILTER_LIMIT matches become the current step."""
        found = search(self.commands, text, self.steps.describe)
        self.then = ()
        if len(found) == 1:
            return 1, found[0]
        if 1 < len(found) <= FILTER_LIMIT:
            self.found, self.query = found, text
        return len(found), None

    def update(self, commands: Sequence[Msg], steps: Steps) -> bool:
        """New legal commands (the match moved): keep what is still possible. True: all choices kept."""
        before = len(self.choices)
        self.commands, self.steps = list(commands), steps
        self.choices = keep_legal(self.commands, self.choices)
        if self.found is not None:
            self.found = [c for c in self.found if c in self.commands] or None
        return len(self.choices) == before

    def path(self) -> str:
        """What is chosen so far, in words (``Place family member > black member (die 5)``)."""
        return " > ".join(self._choice_text(c) for c in self.choices)

    def _choice_text(self, choice: Choice) -> str:
        if choice.key == KIND:
            return words(str(choice.value))
        upto = self.choices[: self.choices.index(choice) + 1]
        member = member_of(narrow(self.commands, upto)[0])
        return self.steps.value_label(member, member.DESCRIPTOR.fields_by_name[choice.key])
