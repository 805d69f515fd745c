"""Florenza's web module (services/florenza/web/florenza.js) words everything through ``ctx.t``: run by
Node.js on the events of a real playout (as protobuf JSON, as the page hands them) with the game's
words in each language, as GET /texts/florenza serves them (English under the translation)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from services.florenza.content import load_content, tables
from services.florenza.texts import TEXTS
from shared.core.codec import wrap_union

from .test_presentation import GAME, NAMES, STEPS

MODULE = Path(__file__).resolve().parents[3] / "services" / "florenza" / "web" / "florenza.js"
# Node: the module's describeEvent for every event and its legend, with a ctx as the page builds it
SCRIPT = """
import { readFileSync } from "node:fs";
const { describeEvent, legend, stepTitle, optionText } = await import(process.argv[1]);
const input = JSON.parse(readFileSync(0, "utf8"));
const fill = (s, v = {}) =>
  s.replace(/\\{([A-Za-z_][A-Za-z0-9_]*)\\}/g, (w, k) => (k in v ? String(v[k]) : w));
const t = (key, values) => (key in input.texts ? fill(input.texts[key], values) : key);
const text = (node) =>
  typeof node === "string" ? node : [node.attrs.text || "", ...node.children.map(text)].join("");
const el = (tag, attrs = {}, ...children) => ({ tag, attrs, children: children.filter((c) => c !== "") });
const ctx = { content: input.content, texts: null, locale: input.locale, t, el, tip: (n) => n,
  chip: (s) => input.names[s], seatName: (s) => input.names[s] ?? `seat ${s}` };
console.log(JSON.stringify({
  events: input.events.map((e) => describeEvent({ event: e }, ctx)),
  legend: legend(ctx).map(([symbol, meaning]) => [text(symbol), meaning]),
  title: stepTitle("hireArtist", "artist", {}, ctx),
  option: optionText("makeOffering", "duomo", { duomo: true }, ctx),
}));
"""


def words_of(locale: str) -> dict[str, str]:
    """What GET /texts/florenza?lang=<locale> answers: every key, English where none is translated."""
    return {**TEXTS.english, **TEXTS.translations(locale)}


def run(locale: str) -> dict[str, Any]:
    events = [
        json_format.MessageToDict(wrap_union(GAME.modules.pb2.Event(), GAME.codec.to_message(e)))
        for step in STEPS
        for e in step.events
    ]
    given = {
        "locale": locale,
        "texts": words_of(locale),
        "content": json.loads(json.dumps(tables(load_content()), default=str)),
        "names": list(NAMES),
        "events": events,
    }
    done = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT, str(MODULE)],
        input=json.dumps(given),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    said: dict[str, Any] = json.loads(done.stdout)
    return said


needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH (Debian nodejs)")


@needs_node
def test_the_modules_english_is_the_terminals_for_the_same_event() -> None:
    said = run("en")
    events = said["events"]
    assert all(events) and all("{" not in e and "event." not in e for e in events)
    assert events[0].startswith("The game starts with 4 families; turn order ")
    assert said["title"] == "Which artist?" and said["option"] == "the Duomo's pulpit (two dice, keep one)"
    assert any(
        meaning.startswith("the talents an art work needs: P painting") for _, meaning in said["legend"]
    )


@needs_node
@pytest.mark.parametrize(
    ("locale", "started", "title", "painting"),
    [
        ("zh-CN", "游戏开始，共 4 个家族；玩家顺序 ", "雇佣哪位艺术家？", "绘"),
        ("pt-BR", "O jogo começa com 4 famílias; ordem de turno ", "Qual artista?", "P"),
    ],
)
def test_the_module_words_events_the_legend_and_the_picker_in_the_locale(
    locale: str, started: str, title: str, painting: str
) -> None:
    said, english = run(locale), run("en")
    events = said["events"]
    assert len(events) == len(english["events"]) and all(events)
    assert events[0].startswith(started)
    assert all(a != b for a, b in zip(events, english["events"], strict=True))  # no event left in English
    assert all("{" not in e and "event." not in e and "enum." not in e for e in events)
    assert said["title"] == title and said["legend"][0][0].startswith(painting)
    assert [m for _, m in said["legend"]] != [m for _, m in english["legend"]]
    if locale == "zh-CN":
        assert any(e.startswith("下一回合：人民领袖 ") for e in events)
