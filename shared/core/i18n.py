"""Languages: English, Simplified Chinese and Brazilian Portuguese for what a player reads.

A package that shows text (the platform, the lobby, the terminal client, each game) declares its
English once, in code, as a :class:`Texts`: a mapping of stable keys (``reason.not_your_turn``,
``card.12.name``, ``goods.coins.other``) to English templates, ``{name}`` marking a value filled in
at run time. Its translations are YAML files beside it, ``<folder>/locales/<locale>.yaml``: a flat
mapping of the same keys to templates in that language (a key may be left out: its English is
shown). English needs no file.

A request's locale comes from its ``Accept-Language`` (the gateway passes it on as the gRPC metadata
``accept-language``) or, in the terminal, from ``--lang`` or ``LANG``: :func:`negotiate` turns any of
them into one of :data:`LOCALES`. ``texts.catalog(locale).text(key, **values)`` is the text.

Keys are an API like reason codes: a key keeps its meaning once published (translations are keyed
on it); a changed meaning gets a new key. Every package's texts are listed by :func:`registered`
for ``tabula i18n`` (coverage per locale) and the test that checks every translation has the
placeholders of its English.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LOCALES = ("en", "zh-CN", "pt-BR")
DEFAULT = "en"
METADATA_KEY = "accept-language"  # gRPC metadata a request's locale travels in
_ALIASES = {
    "zh": "zh-CN",
    "zh-hans": "zh-CN",
    "zh-cn": "zh-CN",
    "zh-sg": "zh-CN",
    "pt": "pt-BR",
    "pt-br": "pt-BR",
}


class TextError(ValueError):
    """A translation file that cannot be used (not a mapping of keys to strings, an unknown key)."""


def negotiate(wanted: str | None) -> str:
    """The locale of :data:`LOCALES` that best answers ``wanted``: an ``Accept-Language`` header
    (``pt-BR,pt;q=0.9,en;q=0.8``), a POSIX ``LANG`` (``zh_CN.UTF-8``) or a plain tag. English when
    nothing matches; a weight of 0 refuses a language."""
    if not wanted:
        return DEFAULT
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(wanted.split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        match = re.search(r"q\s*=\s*([^;\s]*)", params)
        if match:
            try:
                weight = float(match.group(1))
            except ValueError:
                weight = 0.0  # a malformed weight counts as a refusal
        tag = tag.split(".")[0].split("@")[0].replace("_", "-").strip().lower()
        if tag and weight > 0:
            ranked.append((-weight, index, tag))
    for _, _, tag in sorted(ranked):
        found = _match(tag)
        if found:
            return found
    return DEFAULT


def _match(tag: str) -> str | None:
    if tag in _ALIASES:
        return _ALIASES[tag]
    for locale in LOCALES:
        if tag == locale.lower():
            return locale
    primary = tag.split("-")[0]
    if primary == "zh" and any(part in ("hant", "tw", "hk", "mo") for part in tag.split("-")[1:]):
        return None  # traditional Chinese is not Simplified Chinese
    return _ALIASES.get(primary) or (DEFAULT if primary == "en" else None)


def locale_of(metadata: Iterable[tuple[str, Any]] | None) -> str:
    """The locale of a gRPC call from its invocation metadata (``accept-language``), English if none."""
    for key, value in metadata or ():
        if key == METADATA_KEY:
            return negotiate(value if isinstance(value, str) else value.decode())
    return DEFAULT


def placeholders(template: str) -> frozenset[str]:
    """The ``{name}`` fields of a template."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


class _Values(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"  # a value the caller did not give stays visible, never an error


@dataclass(frozen=True, slots=True)
class Catalog:
    """One package's texts in one locale, English where the locale has no text."""

    locale: str
    english: Mapping[str, str]
    translated: Mapping[str, str]

    def template(self, key: str) -> str:
        """The key's template in this locale (its English if untranslated); KeyError if undeclared."""
        found = self.translated.get(key)
        return found if found is not None else self.english[key]

    def text(self, key: str, **values: Any) -> str:
        """The key's text with ``values`` filled in."""
        return self.template(key).format_map(_Values(values))

    def plural(self, key: str, count: int, **values: Any) -> str:
        """``key.one`` for a count of 1 where declared, else ``key.other``; ``{count}`` is the count."""
        one, other = f"{key}.one", f"{key}.other"
        # a locale without singulars (Chinese) translates only ``.other``, which then serves for 1 too
        has_one = one in self.translated or (other not in self.translated and one in self.english)
        chosen = one if count == 1 and has_one else other
        return self.text(chosen, count=count, **values)

    def get(self, key: str, default: str, **values: Any) -> str:
        """The key's text, or ``default`` when no text is declared under it (names of content that
        may lack a key, such as a card added without one)."""
        if key not in self.translated and key not in self.english:
            return default
        return self.text(key, **values)


@dataclass(eq=False)
class Texts:
    """A package's English (a mapping, or a loader of one for texts built from content) and the
    folder of its translations."""

    name: str  # what ``tabula i18n`` calls it: ``platform``, ``lobby``, ``client``, a game's name
    folder: Path  # holds ``locales/<locale>.yaml``
    english_source: Mapping[str, str] | Callable[[], Mapping[str, str]]
    _catalogs: dict[str, Catalog] = field(default_factory=dict, repr=False)

    @functools.cached_property
    def english(self) -> Mapping[str, str]:
        source = self.english_source
        return dict(source() if callable(source) else source)

    def path(self, locale: str) -> Path:
        return self.folder / "locales" / f"{locale}.yaml"

    def translations(self, locale: str) -> Mapping[str, str]:
        """The locale's file as read (keys it has, not checked against the English)."""
        if locale == DEFAULT:
            return {}
        path = self.path(locale)
        if not path.exists():
            return {}
        import yaml  # here, not at the top: the manifests import this module, `tabula --help` no YAML

        loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if not isinstance(loaded, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in loaded.items()
        ):
            raise TextError(f"{path}: a flat mapping of keys to strings")
        return loaded

    def catalog(self, locale: str) -> Catalog:
        """This package's texts in ``locale`` (any of :data:`LOCALES`; anything else is English)."""
        locale = locale if locale in LOCALES else DEFAULT
        found = self._catalogs.get(locale)
        if found is None:
            found = self._catalogs[locale] = Catalog(locale, self.english, self.translations(locale))
        return found


_REGISTERED: dict[str, Callable[[], Texts]] = {}


def register(name: str, load: Callable[[], Texts]) -> None:
    """Lists a package's texts for ``tabula i18n`` and the coverage test (games register through
    their manifests' ``texts`` hook; the platform's packages call this where they declare theirs)."""
    _REGISTERED[name] = load


def registered() -> Mapping[str, Callable[[], Texts]]:
    return dict(_REGISTERED)


@dataclass(frozen=True, slots=True)
class Coverage:
    """How much of one package one locale translates, and what is wrong in its file."""

    name: str
    locale: str
    translated: int
    total: int
    missing: tuple[str, ...]
    unknown: tuple[str, ...]  # keys the English does not declare
    mismatched: tuple[str, ...]  # keys whose placeholders differ from the English

    @property
    def share(self) -> float:
        return self.translated / self.total if self.total else 1.0


def coverage(texts: Texts, locale: str) -> Coverage:
    english = texts.english
    translated = texts.translations(locale)
    known = [key for key in translated if key in english]
    return Coverage(
        name=texts.name,
        locale=locale,
        translated=len(known) if locale != DEFAULT else len(english),
        total=len(english),
        missing=tuple(sorted(k for k in english if k not in translated)) if locale != DEFAULT else (),
        unknown=tuple(sorted(k for k in translated if k not in english)),
        mismatched=tuple(sorted(k for k in known if placeholders(translated[k]) != placeholders(english[k]))),
    )
