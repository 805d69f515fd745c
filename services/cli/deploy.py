"""``tabula deploy``: the deploy files' part that depends on which games there are, from the registry.

One rule service per game of the registry (``services/games.py``), each from a template under
``deploy/templates/`` with the game's name, title and port: ``deploy/k8s/<game>.yaml`` (Deployment,
Service, HorizontalPodAutoscaler, NetworkPolicy), its service in ``docker-compose.yml`` (between the
markers) and its line in ``deploy/Procfile`` (which lists every process). The lobby and the gateway
find every service by the deployment's address convention (``TABULA_ADDRESS_PATTERN``), so nothing
else names a game. ``--update`` writes the files, ``--check`` fails when one is stale (a test runs it,
as it does for the protos).
"""

from __future__ import annotations

from pathlib import Path
from string import Template

import typer

from services.cli.main import app

COMPOSE = Path("docker-compose.yml")
PROCFILE = Path("deploy/Procfile")
K8S = Path("deploy/k8s")
TEMPLATES = Path("deploy/templates")
BEGIN = "  # BEGIN rule services: written by `tabula deploy --update` from the registry, not by hand\n"
END = "  # END rule services\n"
GENERATED = (
    "# Written by `tabula deploy --update` from deploy/templates/rule-service.k8s.yaml and the game's\n"
    "# manifest: edit the template, not this file.\n"
)


def rendered(root: Path = Path(".")) -> dict[Path, str]:
    """Every file the registry decides, as it should read now (paths relative to ``root``)."""
    from services.cli.run import processes
    from services.games import manifests

    games = [{"game": m.name, "title": m.title, "port": m.default_port} for m in manifests()]
    k8s = Template((root / TEMPLATES / "rule-service.k8s.yaml").read_text())
    compose = Template((root / TEMPLATES / "rule-service.compose.yaml").read_text())
    files = {K8S / f"{g['game']}.yaml": GENERATED + k8s.substitute(g) for g in games}
    files[COMPOSE] = between_markers(
        (root / COMPOSE).read_text(), "".join(compose.substitute(g) for g in games)
    )
    files[PROCFILE] = "".join(f"{p.name}: tabula serve {p.name}\n" for p in processes())
    return files


def between_markers(text: str, body: str) -> str:
    """``text`` with what lies between its BEGIN and END lines replaced by ``body``."""
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"{COMPOSE}: the lines {BEGIN.strip()!r} and {END.strip()!r} are missing")
    return head + BEGIN + body + END + tail


def stale_files(root: Path = Path(".")) -> list[Path]:
    """Files that differ from what the registry renders, and manifests of a game no longer registered."""
    files = rendered(root)
    stale = [
        path
        for path, text in files.items()
        if not (root / path).is_file() or (root / path).read_text() != text
    ]
    written = (
        p.relative_to(root)
        for p in sorted((root / K8S).glob("*.yaml"))
        if p.read_text().startswith(GENERATED)
    )
    return stale + [path for path in written if path not in files]


@app.command()
def deploy(
    check: bool = typer.Option(False, help="only check that the committed deploy files match the registry"),
    update: bool = typer.Option(False, help="write the deploy files from the registry"),
) -> None:
    """Render each game's rule service into docker-compose.yml, deploy/Procfile and deploy/k8s/."""
    if update == check:
        raise typer.BadParameter("say --update or --check")
    if check:
        stale = stale_files()
        for path in stale:
            typer.echo(f"stale: {path} differs from the registry (run make deploy-update, commit)", err=True)
        raise typer.Exit(1 if stale else 0)
    for path, text in rendered().items():
        path.write_text(text)
        typer.echo(f"wrote {path}")
    for path in stale_files():  # only manifests of a game gone from the registry are left
        path.unlink()
        typer.echo(f"removed {path}")
