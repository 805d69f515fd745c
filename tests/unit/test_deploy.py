"""docker-compose.yml and the Kubernetes manifests name real entry points, ports and health checks.

Each game's part of them is rendered from the registry (``tabula deploy``): the committed files are
what it renders now, and every check below runs twice, on the committed files and on the files
rendered with a fourth game (Nim, ``tests/support/nim``) registered by its one line and nothing else.
"""

from __future__ import annotations

import importlib
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from services.cli.deploy import COMPOSE, PROCFILE, rendered, stale_files
from services.cli.main import ENTRY_POINTS
from services.cli.run import processes
from services.games import EXTRA_GAMES, game_names, service_ports
from shared.serving.addresses import service_address
from tests.support.nim.manifest import MANIFEST as NIM

ROOT = Path(__file__).resolve().parents[2]
NIM_LINE = "tests.support.nim.manifest:MANIFEST"  # the registry line, as tests give it


def render_into(folder: Path) -> Path:
    """A copy of the deploy files in ``folder``, rendered for the games registered now."""
    shutil.copy(ROOT / COMPOSE, folder / COMPOSE)
    shutil.copytree(ROOT / "deploy", folder / "deploy")
    for path, text in rendered(folder).items():
        (folder / path).write_text(text)
    return folder


@pytest.fixture(params=["committed", "with a fourth game"])
def root(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the deploy files are read: the repository's, or a copy rendered with Nim registered."""
    monkeypatch.delenv(EXTRA_GAMES, raising=False)
    if request.param == "committed":
        return ROOT
    monkeypatch.setenv(EXTRA_GAMES, NIM_LINE)
    return render_into(tmp_path)


def test_the_committed_deploy_files_are_what_the_registry_renders(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(EXTRA_GAMES, raising=False)
    assert stale_files(ROOT) == [], "stale: run `make deploy-update` and commit"


def test_a_fourth_game_adds_its_service_to_each_deploy_file_and_changes_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(EXTRA_GAMES, NIM_LINE)
    folder = render_into(tmp_path)
    assert stale_files(folder) == []
    assert set(stale_files(ROOT)) == {COMPOSE, PROCFILE, Path("deploy/k8s/nim.yaml")}  # for the repository
    before, after = (ROOT / PROCFILE).read_text().splitlines(), (folder / PROCFILE).read_text().splitlines()
    assert [line for line in after if line not in before] == ["nim: tabula serve nim"]
    assert set(before) < set(after)
    new_compose = yaml.safe_load((folder / COMPOSE).read_text())["services"]
    assert new_compose.pop("nim")["ports"] == [f"{NIM.default_port}:{NIM.default_port}"]
    assert new_compose == yaml.safe_load((ROOT / COMPOSE).read_text())["services"]
    k8s = {p.name: p.read_text() for p in sorted((folder / "deploy" / "k8s").glob("*.yaml"))}
    assert "name: nim" in k8s.pop("nim.yaml")
    assert k8s == {p.name: p.read_text() for p in sorted((ROOT / "deploy" / "k8s").glob("*.yaml"))}


def compose(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((root / "docker-compose.yml").read_text())
    services: dict[str, Any] = data["services"]
    return services


def test_every_tabula_service_runs_a_real_entry_point_from_the_one_image(root: Path) -> None:
    for name, svc in compose(root).items():
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


def test_grpc_services_publish_their_port_and_health_check_it(root: Path) -> None:
    for name, svc in compose(root).items():
        if name == "redis":
            continue
        check = svc["healthcheck"]["test"]
        assert check[0] == "CMD" and len(check) > 1, name
        if "ports" in svc:
            port = service_ports()[svc["command"][1]]
            assert svc["ports"] == [f"{port}:{port}"], name
            assert check[-2:] == ["health", f"127.0.0.1:{port}"], name


def test_compose_runs_every_process_that_make_run_starts(root: Path) -> None:
    services = compose(root)
    assert services["redis"]["healthcheck"]["test"][-1] == "ping"
    assert "redis.conf" in " ".join(services["redis"]["volumes"])
    assert "appendonly yes" in (root / "deploy" / "redis.conf").read_text()
    started = {p.name for p in processes()}
    assert started <= {svc["command"][1] for name, svc in compose(root).items() if name != "redis"}


def test_kubernetes_manifests_run_real_entry_points_and_probe_them(root: Path) -> None:
    seen = set()
    for path in k8s_files(root):
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


def test_the_procfile_lists_every_process(root: Path) -> None:
    lines = (root / "deploy" / "Procfile").read_text().splitlines()
    entries = dict(line.split(": ", 1) for line in lines if line.strip())
    assert {p.name for p in processes()} == set(entries)
    assert all(command == f"tabula serve {name}" for name, command in entries.items())


# ---------------------------------------------------------------- Kubernetes: valid and deployable

KUBERNETES = "1.30.0"  # the oldest version the manifests promise to fit (grpc probes are GA since 1.27)


def k8s_files(root: Path) -> list[Path]:
    return sorted((root / "deploy" / "k8s").glob("*.yaml"))


def k8s_docs(root: Path) -> list[dict[str, Any]]:
    return [doc for path in k8s_files(root) for doc in yaml.safe_load_all(path.read_text()) if doc]


def of_kind(root: Path, kind: str) -> dict[str, dict[str, Any]]:
    return {doc["metadata"]["name"]: doc for doc in k8s_docs(root) if doc["kind"] == kind}


def workloads(root: Path) -> dict[str, dict[str, Any]]:
    return {**of_kind(root, "Deployment"), **of_kind(root, "StatefulSet")}


def containers(doc: dict[str, Any]) -> list[dict[str, Any]]:
    spec = doc["spec"]["template"]["spec"]
    found: list[dict[str, Any]] = spec["containers"] + spec.get("initContainers", [])
    return found


def env_of(container: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e for e in container.get("env", [])}


def test_every_manifest_validates_strictly_against_the_kubernetes_schemas(root: Path) -> None:
    import kubernetes_validate

    for path in k8s_files(root):
        for doc in yaml.safe_load_all(path.read_text()):
            kubernetes_validate.validate(doc, KUBERNETES, strict=True)  # raises ValidationError


def test_a_manifest_with_a_misspelt_field_is_refused(root: Path) -> None:
    """The check above can fail: strict validation refuses a field Kubernetes does not know."""
    import kubernetes_validate

    broken = of_kind(root, "Deployment")["lobby"]
    broken["spec"]["template"]["spec"]["containers"][0]["resource"] = {"limits": {"cpu": "1"}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES, strict=True)


def test_every_container_requests_and_limits_cpu_and_memory(root: Path) -> None:
    for name, doc in workloads(root).items():
        for container in containers(doc):
            resources = container.get("resources", {})
            for part in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(resources.get(part, {})), f"{name}: {part}"


def test_grpc_services_are_headless_and_probed_on_grpc_health_and_the_gateway_on_http(root: Path) -> None:
    services, ports = of_kind(root, "Service"), service_ports()
    for name, port in ports.items():
        (container,) = containers(workloads(root)[name])
        for probe in ("readinessProbe", "livenessProbe"):
            if name == "gateway":
                assert container[probe]["httpGet"] == {"path": "/healthz", "port": port}, name
            else:
                assert container[probe]["grpc"] == {"port": port}, name
        service = services[name]["spec"]
        assert service["selector"] == {"app": name}
        if name != "gateway":  # client-side balancing: the clients resolve every pod
            assert service.get("clusterIP") == "None", name
            assert service["ports"][0]["port"] == port


def test_rule_services_and_workers_scale_with_a_horizontal_pod_autoscaler(root: Path) -> None:
    scaled = {
        hpa["spec"]["scaleTargetRef"]["name"]: hpa
        for hpa in of_kind(root, "HorizontalPodAutoscaler").values()
    }
    assert {*game_names(), "worker"} <= set(scaled)
    deployments = of_kind(root, "Deployment")
    for name, hpa in scaled.items():
        assert hpa["apiVersion"] == "autoscaling/v2"
        assert hpa["spec"]["scaleTargetRef"]["kind"] == "Deployment" and name in deployments
        assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]


def test_the_reactor_has_no_shard_count_to_keep_in_step_and_a_consumer_name_per_pod(root: Path) -> None:
    reactor = workloads(root)["reactor"]
    (container,) = containers(reactor)
    env = env_of(container)
    assert "TABULA_REACTOR_COUNT" not in env and "TABULA_REACTOR_INDEX" not in env
    assert env["TABULA_REACTOR_CONSUMER"]["valueFrom"] == {"fieldRef": {"fieldPath": "metadata.name"}}
    assert of_kind(root, "Service")[reactor["spec"]["serviceName"]]["spec"]["clusterIP"] == "None"


def test_the_token_secret_comes_only_from_the_required_secret(root: Path) -> None:
    for name, doc in workloads(root).items():
        for container in containers(doc):
            secret = env_of(container).get("TABULA_SECRET")
            if name in {*game_names(), "lobby", "gateway"}:
                assert secret is not None, f"{name} checks tokens or signs the client address"
            if secret is not None:
                ref = secret["valueFrom"]["secretKeyRef"]
                assert ref["name"] == "tabula" and not ref.get("optional", False), name
    for doc in k8s_docs(root):
        assert doc["kind"] != "Secret", "no secret value is committed"
        assert "TABULA_SECRET" not in doc.get("data", {}), doc["metadata"]["name"]


def test_the_archive_is_shared_by_the_reactors_and_the_rule_services(root: Path) -> None:
    config = of_kind(root, "ConfigMap")["tabula"]["data"]
    claim = of_kind(root, "PersistentVolumeClaim")["tabula-archive"]
    assert "ReadWriteMany" in claim["spec"]["accessModes"]
    for name in ("reactor", *game_names()):
        spec = workloads(root)[name]["spec"]["template"]["spec"]
        volume = {v["name"]: v for v in spec["volumes"]}["archive"]
        assert volume["persistentVolumeClaim"]["claimName"] == "tabula-archive", name
        (container,) = spec["containers"]
        mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
        assert mounts["archive"] == config["TABULA_ARCHIVE_DIR"], name


# ---------------------------------------------------------------- who may reach whom

PART_OF = {"app.kubernetes.io/part-of": "tabula"}


def ingress(root: Path, target: dict[str, str], port: int) -> list[list[dict[str, Any]]] | None:
    """The ``from`` of every ingress rule that lets something reach ``port`` of the pods labelled
    ``target`` (``[]``: a rule from anywhere), or None when no NetworkPolicy isolates those pods."""
    isolated, found = False, []
    for policy in of_kind(root, "NetworkPolicy").values():
        spec = policy["spec"]
        assert "matchExpressions" not in spec["podSelector"], policy["metadata"]["name"]
        selected = spec["podSelector"].get("matchLabels", {})
        if "Ingress" not in spec.get("policyTypes", ["Ingress"]) or not selected.items() <= target.items():
            continue
        isolated = True
        for rule in spec.get("ingress", []):
            ports = [p["port"] for p in rule.get("ports", [])]
            if not ports or port in ports or any(isinstance(p, str) for p in ports):  # a named port: maybe
                found.append(rule.get("from", []))
    return found if isolated else None


def sources(rules: list[list[dict[str, Any]]] | None) -> list[dict[str, str]]:
    """The pod labels the rules admit; fails for pods no policy isolates, and for a rule from
    anywhere, from other namespaces or from addresses."""
    assert rules is not None, "no NetworkPolicy isolates these pods"
    admitted = []
    for peers in rules:
        assert peers, "a rule lets anything in"
        for peer in peers:
            assert set(peer) == {"podSelector"}, f"{peer}: only pods of the app's namespace may be named"
            assert "matchExpressions" not in peer["podSelector"], peer
            admitted.append(peer["podSelector"]["matchLabels"])
    return admitted


def pod_labels(root: Path, name: str) -> dict[str, str]:
    labels: dict[str, str] = workloads(root)[name]["spec"]["template"]["metadata"]["labels"]
    return labels


def test_only_the_gateway_reaches_the_lobby_and_only_it_and_the_lobby_the_rule_services(root: Path) -> None:
    """A client inside the cluster cannot call the lobby or a rule service around the gateway (the
    metrics port stays open); the callers that must get in do."""
    ports = service_ports()
    callers = {"lobby": {"gateway"}, **{game: {"gateway", "lobby"} for game in game_names()}}
    for name, allowed in callers.items():
        admitted = sources(ingress(root, pod_labels(root, name), ports[name]))
        assert all(labels.get("app") in allowed for labels in admitted), (name, admitted)
        for caller in allowed:  # each caller's pods match one of the rules
            assert any(labels.items() <= pod_labels(root, caller).items() for labels in admitted), (
                name,
                caller,
            )
        assert ingress(root, pod_labels(root, name), 9100) == [[]], (
            f"{name}: the metrics port is open to scrapers"
        )


def test_only_the_apps_own_pods_reach_redis(root: Path) -> None:
    assert sources(ingress(root, pod_labels(root, "redis"), 6379)) == [PART_OF]
    for name in workloads(root):
        if name != "redis":
            assert PART_OF.items() <= pod_labels(root, name).items(), f"{name} must reach Redis"


def test_a_policy_from_anywhere_or_another_namespace_is_caught(root: Path) -> None:
    """The checks above can fail: no policy, a rule without ``from``, or one naming namespaces or
    addresses."""
    for loose in (None, [[]], [[{"namespaceSelector": {}}]], [[{"ipBlock": {"cidr": "0.0.0.0/0"}}]]):
        with pytest.raises(AssertionError):
            sources(loose)
    assert ingress(root, {"app": "nobody"}, 50051) is None
    assert sources(ingress(root, pod_labels(root, "lobby"), service_ports()["lobby"])) == [{"app": "gateway"}]


# ---------------------------------------------------------------- every registered game is deployed


def test_every_registered_game_has_its_compose_service_manifests_and_procfile_line(root: Path) -> None:
    procfile = (root / "deploy" / "Procfile").read_text().splitlines()
    config = of_kind(root, "ConfigMap")["tabula"]["data"]
    for game in game_names():
        port = service_ports()[game]
        assert compose(root)[game]["command"] == ["serve", game]
        assert f"{game}: tabula serve {game}" in procfile
        assert game in of_kind(root, "Deployment") and game in of_kind(root, "HorizontalPodAutoscaler")
        assert of_kind(root, "Service")[game]["spec"]["ports"][0]["port"] == port
        # the lobby and the gateway reach it by its Service's and its compose service's name
        assert service_address(game, port, config) == f"dns:///{game}:{port}"
        for client in ("lobby", "gateway"):
            assert service_address(game, port, compose(root)[client]["environment"]) == f"{game}:{port}"
    assert service_address("lobby", service_ports()["lobby"], config) == "dns:///lobby:50051"
    assert service_address("lobby", 50051, compose(root)["gateway"]["environment"]) == "lobby:50051"


# ---------------------------------------------------------------- compose: no default secret

_VARIABLE = re.compile(r"\$\{(?P<name>\w+)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's variable substitution (${X}, ${X:-default}, ${X-default}, ${X:?error}, ${X?error})."""

    def one(found: re.Match[str]) -> str:
        name, op, arg = found["name"], found["op"] or "", found["arg"] or ""
        value = env.get(name)
        missing = value is None or (op.startswith(":") and value == "")
        if op.endswith("?") and missing:
            raise ValueError(f"{name}: {arg}")
        return (arg if op.endswith("-") and missing else value) or ""

    return _VARIABLE.sub(one, text)


def test_compose_refuses_to_start_without_a_secret_and_names_no_default(root: Path) -> None:
    text = (root / "docker-compose.yml").read_text()
    with pytest.raises(ValueError, match="TABULA_SECRET"):
        interpolate(text, {})
    chosen = "0123456789abcdef" * 4
    services = yaml.safe_load(interpolate(text, {"TABULA_SECRET": chosen}))["services"]
    for name, svc in services.items():
        if name != "redis":
            assert svc["environment"]["TABULA_SECRET"] == chosen, name
    values = re.findall(r"^\s*TABULA_SECRET:\s*(.*)$", text, re.MULTILINE)
    assert values and all(value.startswith("${TABULA_SECRET:?") for value in values)
    assert "TABULA_SECRET" not in (root / "deploy" / "Dockerfile").read_text()
