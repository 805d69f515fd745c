"""docker-compose.yml and the Kubernetes manifests name real entry points, ports and health checks."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import yaml

from services.cli.main import ENTRY_POINTS
from services.cli.run import processes
from services.games import game_names, service_ports

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data["services"]


def test_every_tabula_service_runs_a_real_entry_point_from_the_one_image() -> None:
    for name, svc in compose().items():
        if name == "redis":
            continue
        assert svc["build"]["dockerfile"] == "deploy/Dockerfile", name
        verb, target = svc["command"][:2]
        assert verb == "serve"
        if target in ENTRY_POINTS:
            module, _, attr = ENTRY_POINTS[target].partition(":")
            assert callable(getattr(importlib.import_module(module), attr)), target
        else:
            assert target in game_names(), f"{name}: {target} is neither a game nor an entry point"


def test_grpc_services_publish_their_port_and_health_check_it() -> None:
    for name, svc in compose().items():
        if name == "redis":
            continue
        check = svc["healthcheck"]["test"]
        assert check[0] == "CMD" and len(check) > 1, name
        if "ports" in svc:
            port = service_ports()[svc["command"][1]]
            assert svc["ports"] == [f"{port}:{port}"], name
            assert check[-2:] == ["health", f"127.0.0.1:{port}"], name


def test_compose_runs_every_process_that_make_run_starts() -> None:
    services = compose()
    assert services["redis"]["healthcheck"]["test"][-1] == "ping"
    assert "redis.conf" in " ".join(services["redis"]["volumes"])
    assert "appendonly yes" in (ROOT / "deploy" / "redis.conf").read_text()
    started = {p.name for p in processes()}
    assert started <= {svc["command"][1] for name, svc in compose().items() if name != "redis"}


def test_kubernetes_manifests_run_real_entry_points_and_probe_them() -> None:
    seen = set()
    for path in (ROOT / "deploy" / "k8s").glob("*.yaml"):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc["kind"] not in ("Deployment", "StatefulSet") or doc["metadata"]["name"] == "redis":
                continue
            (container,) = doc["spec"]["template"]["spec"]["containers"]
            verb, target = container["args"][:2]
            assert verb == "serve" and (target in ENTRY_POINTS or target in game_names()), path
            seen.add(target)
            probe = container.get("readinessProbe") or container["livenessProbe"]
            if target in service_ports():
                probed = probe["grpc"]["port"] if "grpc" in probe else probe["httpGet"]["port"]
                assert probed == service_ports()[target], path
    assert {p.name for p in processes()} <= seen


def test_the_procfile_lists_every_process() -> None:
    lines = (ROOT / "deploy" / "Procfile").read_text().splitlines()
    entries = dict(line.split(": ", 1) for line in lines if line.strip())
    assert {p.name for p in processes()} == set(entries)
    assert all(command == f"tabula serve {name}" for name, command in entries.items())
