"""Trajan's drawing module words the play app's picker (services/trajan/web/trajan.js, run by Node.js):
a bowl is offered with where its sowing ends and that bowl's action, and what that action and the Trajan
tile beside it do; a Trajan stack with its top tile, a province, a site and a ship by name and text."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from services.trajan.texts import TEXTS

MODULE = Path(__file__).resolve().parents[3] / "services" / "trajan" / "web" / "trajan.js"
pytestmark = pytest.mark.skipif(
    shutil.which("node") is None, reason="node is not on PATH (Debian package nodejs)"
)

MARKERS = [
    ["COLOUR_ORANGE", "COLOUR_BLUE"],
    [],
    ["COLOUR_ORANGE", "COLOUR_LIGHT_GREEN", "COLOUR_PINK"],
    [],
    [],
    ["COLOUR_BLUE"],
]
CTX = {
    "reply": {
        "view": {
            "activeSeat": 1,
            "players": [
                {"bowls": [{"markers": ["COLOUR_ORANGE"]}] * 6},
                {"seat": 1, "bowls": [{"markers": m} for m in MARKERS], "slots": [0, 0, 0, 0, 0, 12]},
            ],
            "trajanStacks": [{"top": 12, "beneath": 3}],
            "sites": [{"site": 4, "tile": 7}],
        }
    },
    "texts": {
        "bowls": [{"bowl": b, "text": f"Bowl {b}: its action."} for b in range(1, 7)],
        "trajanTiles": [{"id": 12, "text": "Trajan tile 12: 5 VP."}],
        "provinces": [{"id": 3, "text": "Britannia: 6 VP."}],
        "constructionTiles": [{"id": 7, "text": "A temple, 4 VP."}],
        "sites": [{"id": 4, "text": "Site 4, beside the river."}],
    },
    "content": None,
}
CASES = [
    ["optionText", "chooseBowl", "bowl", {"bowl": 1}],  # 2 markers: ends in III
    ["optionText", "chooseBowl", "bowl", {"bowl": 3}],  # 3 markers: ends in VI
    ["optionText", "chooseBowl", "bowl", {"bowl": 6}],  # 1 marker: round to I
    ["optionHint", "chooseBowl", "bowl", {"bowl": 3}],  # VI, with the tile in slot VI
    ["optionHint", "chooseBowl", "bowl", {"bowl": 1}],  # III, no tile
    ["optionHint", "takeTrajanTile", "stack", {"stack": 1}],
    ["optionHint", "moveLeader", "province", {"province": 3}],
    ["optionText", "placeWorker", "site", {"site": 4}],
    ["optionHint", "placeWorker", "site", {"site": 4}],
    ["optionText", "discardCommodity", "pile", {"pile": "PILE_LEFT"}],
    ["optionText", "takeForumTile", "nonsense", {}],
]
# ctx.t as the page gives it (clients/ts/src/i18n.ts translator): the template with {name} filled, the
# key itself when no text has it.
T = """
const fill = (s, v = {}) => s.replace(/\\{(\\w+)\\}/g, (all, k) => (k in v ? String(v[k]) : all));
const withWords = (ctx, texts) => ({ ...ctx, t: (key, v) => (key in texts ? fill(texts[key], v) : key) });
"""


def words(locale: str = "en") -> dict[str, str]:
    """GET /texts/trajan?lang=<locale>: the English merged under the translation."""
    catalog = TEXTS.catalog(locale)
    return {key: catalog.template(key) for key in TEXTS.english}


SCRIPT = (
    T
    + """
const m = await import(process.argv[1]);
const [plain, cases, texts] = JSON.parse(process.argv[2]);
const ctx = withWords(plain, texts);
console.log(JSON.stringify(cases.map(([fn, kind, field, member]) => m[fn](kind, field, member, ctx))));
"""
)


def said_by_the_module(locale: str = "en") -> list[object]:
    done = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            SCRIPT,
            MODULE.as_uri(),
            json.dumps([CTX, CASES, words(locale)]),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    found: list[object] = json.loads(done.stdout)
    return found


def test_the_picker_hears_where_a_sowing_ends_and_what_each_choice_does() -> None:
    said = said_by_the_module()
    assert said[:3] == [
        "bowl I (2 markers): ends in III, the military action",
        "bowl III (3 markers): ends in VI, the construction action",
        "bowl VI (1 marker): ends in I, the seaport action",
    ]
    assert said[3] == "Bowl 6: its action. Beside it: Trajan tile 12: 5 VP."
    assert said[4] == "Bowl 3: its action."
    assert said[5:9] == [
        "Trajan tile 12: 5 VP.",
        "Britannia: 6 VP.",
        "site 4",
        "A temple, 4 VP. Site 4, beside the river.",
    ]
    assert said[9:] == ["the left discard pile", None]  # as the terminal words the pile


def test_the_picker_speaks_the_pages_language() -> None:
    assert said_by_the_module("zh-CN")[:3] == [
        "圆盘 I（2 个行动指示物）：最后放在 III，军事行动",
        "圆盘 III（3 个行动指示物）：最后放在 VI，建筑行动",
        "圆盘 VI（1 个行动指示物）：最后放在 I，海港行动",
    ]
    pt = said_by_the_module("pt-BR")
    assert pt[2] == "tigela VI (1 marcador): termina na I, a ação Porto"
    assert pt[9] == "pilha de descarte da esquerda"


PLANS = (
    T
    + """
const m = await import(process.argv[1]);
const [ctx, commands, texts] = JSON.parse(process.argv[2]);
console.log(JSON.stringify(m.plans(commands, withWords(ctx, texts))));
"""
)


def _plans(in_hand: list[str], commands: list[dict[str, object]]) -> object:
    bowls = [{"markers": ["COLOUR_ORANGE"]}] + [{"markers": []}] * 5  # bowl I holds a red marker
    view = {
        "activeSeat": 0,
        "inHand": in_hand,
        "nextBowl": 5,
        "players": [{"bowls": bowls, "slots": [12] + [0] * 5}],
    }
    ctx = {
        "reply": {"view": view},
        "content": {"trajan_tiles": {"tiles": [{"id": 12, "colours": ["blue", "orange"], "vp": 5}]}},
        "texts": {"trajanTiles": [{"id": 12, "text": "Trajan tile 12: 5 VP."}]},
    }
    done = subprocess.run(
        ["node", "--input-type=module", "-e", PLANS, MODULE.as_uri(), json.dumps([ctx, commands, words()])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def sow(colour: str) -> dict[str, object]:
    return {"sowMarker": {"colour": colour}}


def test_a_sowing_is_one_choice_of_the_markers_order() -> None:
    """Each distinct order of the markers in hand is one plan of SowMarker commands, up to where the
    markers left are of one colour (the rules sow those themselves)."""
    legal = [sow("COLOUR_BLUE"), sow("COLOUR_ORANGE")]
    found = _plans(["COLOUR_ORANGE", "COLOUR_BLUE", "COLOUR_ORANGE"], legal)
    assert isinstance(found, dict)
    assert found["title"] == (
        "In which order do you sow your markers (the last lands in bowl I (seaport))?"  # as the terminal asks
    )
    assert "the Trajan tile beside it is won" in found["help"]
    won = "Wins the Trajan tile beside I: Trajan tile 12: 5 VP."  # the blue one lands beside the orange one
    assert found["plans"] == [
        {"label": "V blue, VI orange, I orange", "hint": "", "commands": [sow("COLOUR_BLUE")]},
        {
            "label": "V orange, VI blue, I orange",
            "hint": "",
            "commands": [sow("COLOUR_ORANGE"), sow("COLOUR_BLUE")],
        },
        {
            "label": "V orange, VI orange, I blue",
            "hint": won,
            "commands": [sow("COLOUR_ORANGE"), sow("COLOUR_ORANGE")],
        },
    ]
    # Not the sowing, one colour only, or too many orders (5 colours: 120): asked marker by marker.
    assert _plans(["COLOUR_ORANGE"], [{"chooseBowl": {"bowl": 1}}, sow("COLOUR_ORANGE")]) is None
    assert _plans(["COLOUR_ORANGE", "COLOUR_ORANGE"], [sow("COLOUR_ORANGE")]) is None
    five = ["COLOUR_ORANGE", "COLOUR_BLUE", "COLOUR_PINK", "COLOUR_WHITE", "COLOUR_ORANGE"]
    assert _plans(five, [sow(c) for c in five]) is None
    many = ["COLOUR_ORANGE", "COLOUR_BLUE"] * 10  # 184756 orders: not counted one by one
    assert _plans(many, [sow("COLOUR_ORANGE"), sow("COLOUR_BLUE")]) is None


# A stand-in for the page's DOM: just what render() uses (el, replaceChildren, querySelector by id,
# dataset, hidden), every node's words gathered with its hover text.
DRAW = (
    T
    + """
import fs from "fs";
const m = await import(process.argv[1]);
const data = JSON.parse(fs.readFileSync(process.argv[2]));
class Node {
  constructor(tag, attrs = {}, kids = []) {
    this.attrs = attrs;
    this.dataset = {};
    this.hidden = false;
    this.replaceChildren(...kids);
  }
  replaceChildren(...kids) { this.kids = kids.filter((k) => k !== "" && k != null); }
  querySelector(sel) {
    const walk = (n) => {
      if (!(n instanceof Node)) return null;
      return n.attrs.id === sel.slice(1) ? n : n.kids.map(walk).find(Boolean) || null;
    };
    return walk(this);
  }
  words() {
    const kids = this.kids.map((k) => (k instanceof Node ? k.words() : String(k)));
    return [this.attrs.text, this.attrs.title, this.dataset.tip, ...kids].filter(Boolean).join(" ");
  }
}
const page = {
  content: data.content, texts: data.texts, seatName: (s) => `P${s}`, chip: (s) => `P${s}`,
  el: (tag, attrs, ...kids) => new Node(tag, attrs, kids),
  tip: (n, text) => { n.dataset.tip = text; return n; },
};
const ctx = withWords(page, data.words);
const root = new Node("div");
for (const view of data.views) m.render(root, { view, seatsToAct: [0] }, ctx);
const legend = m.legend(ctx).map((row) => row[1]);
const events = data.events.map((e) => m.describeEvent(e, ctx));
console.log(JSON.stringify({ page: root.words(), events, legend }));
"""
)


@pytest.mark.parametrize("locale", ["en", "zh-CN", "pt-BR"])
def test_the_module_draws_a_match_and_words_its_events_in_each_locale(locale: str, tmp_path: Path) -> None:
    """A mid-game and a final view drawn, every event type worded, the legend: all through ctx.t in the
    locale, no key shown as itself and no placeholder left (Chinese: no English word at all)."""
    from google.protobuf.json_format import MessageToDict

    from services.games import load_game
    from services.trajan.content import load_content, tables
    from services.trajan.texts import packaged_content_message
    from shared.core.decider import Actor
    from tests.support.playout import random_playout

    game = load_game("trajan")
    rules, codec = game.rules, game.codec
    states: list[object] = []
    events, final = random_playout(rules, rules.make_config(3, {}), 5, on_step=lambda s, *_: states.append(s))
    kinds: dict[str, object] = {}
    for e in events:
        name = type(e).__name__
        kinds.setdefault(name, {"event": {name[0].lower() + name[1:]: MessageToDict(codec.to_message(e))}})
    data = {
        "views": [
            MessageToDict(codec.to_message(rules.view(s, Actor.of_seat(0))))
            for s in (states[len(states) // 2], final)
        ],
        "events": list(kinds.values()),
        "content": tables(load_content()),
        "texts": MessageToDict(codec.to_message(packaged_content_message(locale))),
        "words": words(locale),
    }
    path = tmp_path / "data.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run(
        ["node", "--input-type=module", "-e", DRAW, MODULE.as_uri(), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    drawn = json.loads(done.stdout)
    said = [*drawn["events"], *drawn["legend"], drawn["page"]]
    assert len(drawn["events"]) > 45 and all(said)
    text = "\n".join(said)
    keys = re.findall(r"\b[a-z_]+\.[a-z_][\w.-]*", text)  # a key shown as itself: no text for it
    assert not keys and "{" not in text, keys
    if locale == "zh-CN":
        assert not set(re.findall(r"[A-Za-z]{3,}", text)) - {"III"}, set(re.findall(r"[A-Za-z]{3,}", text))
    first = {
        "en": "The game starts: 3 players",
        "zh-CN": "游戏开始：3 位玩家",
        "pt-BR": "O jogo começa: 3 jogadores",
    }
    assert drawn["events"][0].startswith(first[locale])
