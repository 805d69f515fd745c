"""A game package's manifest hooks by convention: each loads its module on first use, by name.

A game package ``pkg`` of the game ``Title``, laid out as the seed games are (``pkg.content`` with
``load_content`` and ``tables``; ``pkg.rules`` with ``TitleRules`` and ``content_counts``;
``pkg.bots`` with ``evaluate``, ``evaluate_all`` and ``prune``; ``pkg.presentation.load``;
``pkg.texts`` with ``TitleContent``, ``packaged_content_message`` and ``TEXTS``; the spectator files in
``pkg/web``) gets every hook of its ``GameManifest`` from :func:`conventional_hooks`. Nothing is
imported until a hook is called, so listing games stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from pathlib import Path
from typing import Any

from shared.core.manifest import BotHooks, ContentHook


def lazy(module: str, name: str) -> Callable[..., Any]:
    """A loader that imports ``module`` when called and returns what its ``name`` returns (given
    the loader's arguments: ``build(locale)``, the presentation's locale)."""

    def load(*args: Any) -> Any:
        return getattr(import_module(module), name)(*args)

    return load


def lazy_attribute(module: str, name: str) -> Callable[[], Any]:
    """A loader that imports ``module`` when called and returns its ``name`` itself."""

    def load() -> Any:
        return getattr(import_module(module), name)

    return load


def conventional_bots(package: str, **settings: Any) -> Callable[[], BotHooks]:
    """``BotHooks`` over ``<package>.bots``: its ``evaluate``, ``evaluate_all``, ``prune`` (and
    ``horizon`` when it has one), with the search ``settings`` given."""

    def load() -> BotHooks:
        bots = import_module(f"{package}.bots")
        return BotHooks(
            evaluate=bots.evaluate,
            evaluate_all=bots.evaluate_all,
            prune=bots.prune,
            horizon=getattr(bots, "horizon", None),
            **settings,
        )

    return load


def conventional_hooks(
    package: str, title: str, bots: Callable[[], BotHooks] | None = None
) -> dict[str, Any]:
    """The ``GameManifest`` fields of the package ``package`` (e.g. ``services.chess``, title
    ``Chess``): rules over the packaged content, bots, presentation, content counts and tables, typed
    content, the spectator folder and the rules' source path."""
    content = lazy(f"{package}.content", "load_content")

    def rules() -> Any:
        return getattr(import_module(f"{package}.rules"), f"{title}Rules")(content())

    def counts() -> Mapping[str, int]:
        counted: Mapping[str, int] = import_module(f"{package}.rules").content_counts(content())
        return counted

    def tables() -> Mapping[str, Any]:
        tabled: Mapping[str, Any] = import_module(f"{package}.content").tables(content())
        return tabled

    return {
        "rules": rules,
        "bots": bots or conventional_bots(package),
        "presentation": lazy(f"{package}.presentation", "load"),
        "content_counts": counts,
        "content_tables": tables,
        "content": ContentHook(
            lazy_attribute(f"{package}.texts", f"{title}Content"),
            lazy(f"{package}.texts", "packaged_content_message"),
        ),
        "texts": lazy_attribute(f"{package}.texts", "TEXTS"),  # English keys and locales/ beside it
        "web": Path(str(import_module(package).__file__)).parent / "web",
        "source": package.replace(".", "/") + "/rules",
    }
