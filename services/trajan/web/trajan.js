// Trajan on the spectator page: the whole table (quarter, round and phase, the time track, the people's
// demands, the provinces with legionnaires and leaders, the construction area, the senate, the forum, the
// Trajan stacks, the ships and the commodity piles), every player's mat (the action circle's six bowls with
// their markers and the Trajan tile beside each, the arch, figures, cards and tiles), the final scoring,
// and the events in words. An ES module loaded by the page's shell (services/gateway/static/spectator.js)
// from /games/trajan/trajan.js; the shell calls
//   render(root, reply, ctx)      for every view it shows,
//   describeEvent(item, ctx)      for every event of the list (a MatchEvent as protobuf JSON), and
//   legend(ctx)                   once per match: [symbol, meaning] rows for the page's legend;
// and the play app (clients/ts/src/play/) also calls stepTitle(kind, field), optionText(kind, field,
// member, ctx) and optionHint(kind, field, member, ctx) for the questions, values and what each value
// leads to in its step-by-step picker of legal commands (null: generic), and plans(commands, ctx): the
// sowing as one choice of the markers' order. A node the picker may offer carries the command field's
// name (data-bowl, data-stack, data-site, data-province, data-ship, data-pile, data-commodity, data-tile,
// data-action, data-slot), with data-commands when the field names other things in other commands.
//   reply: GetView or Replay as protobuf JSON ({version, view, seatsToAct, systemToAct, outcome})
//   ctx:   {content: GET /content/trajan or null, texts: GetContent's content (every tile, province, site,
//          ship and bowl with its English text) or null, el(tag, attrs, ...children), seatName(seat),
//          chip(seat), tip(node, text): the text shown on hover or tap}
// Every Trajan, forum, construction and bonus tile, province, ship and bowl carries its GetContent text as
// its hover text.

const ACTIONS = ["seaport", "forum", "military", "senate", "trajan", "construction"];  // bowl I..VI
const NUMERALS = ["", "I", "II", "III", "IV", "V", "VI"];
const SENATE = [0, 2, 3, 4, 5, 6, 7, 8];  // votes and VP per space, 0 = start (used without content tables)
const FINAL = [["before", "VP before"], ["hand", "hand"], ["workArea", "work area"], ["camp", "camp"],
  ["trajanTiles", "Trajan tiles"], ["constructionSets", "sets"], ["bonusTiles", "bonus tiles"], ["total", "total"]];
const EFFECT_WORDS = { draw_cards: "cards", workers: "worker", legionnaires: "legionnaire", plus_two: "[+2]",
  demand: "demand", victory_points: "" };
const EFFECT_SHORT = { draw_cards: "cards", workers: "wkr", legionnaires: "leg", plus_two: "[+2]", victory_points: "" };

const num = (v) => Number(v || 0);
const list = (v) => (Array.isArray(v) ? v : []);
const enumName = (value, prefix) => String(value || "").replace(prefix, "").toLowerCase();
const words = (value, prefix) => enumName(value, prefix).replace(/_/g, " ");
const article = (word) => `${/^[aeiou]/.test(word) ? "an" : "a"} ${word}`;
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const actionWord = (a) => (a === "trajan" ? "Trajan" : a);

function table(ctx, file, key, id = "id") {
  const rows = ctx.content && ctx.content[file] && ctx.content[file][key];
  return new Map(list(rows).map((r) => [String(r[id]), r]));
}
// GetContent's text of one component: said(ctx, "trajanTiles", 12), said(ctx, "forumTiles", "FORUM_TILE_BREAD", "tile").
function said(ctx, key, value, field = "id") {
  const row = ((ctx.texts && ctx.texts[key]) || []).find((r) => String(r[field]) === String(value));
  return (row && row.text) || "";
}
// A forum tile; `commands`: the command kinds a tap on it answers (its `tile` field), "" for none.
function forumTip(ctx, node, tile, commands = "") {
  node.dataset.forum = tile;
  if (commands) Object.assign(node.dataset, { tile, commands });
  return ctx.tip(node, said(ctx, "forumTiles", tile, "tile"));
}
const trajanTile = (ctx, id) => table(ctx, "trajan_tiles", "tiles").get(String(id));
const province = (ctx, id) => table(ctx, "provinces", "provinces").get(String(id));
const provinceName = (ctx, id) => (num(id) ? (province(ctx, id) || {}).name || `province ${id}` : "the military camp");
const constructionTile = (ctx, id) => table(ctx, "construction", "tiles").get(String(id));
const bonusTile = (ctx, id) => table(ctx, "bonus_tiles", "tiles").get(String(id));
const shipRecord = (ctx, id) => table(ctx, "ships", "ships").get(String(id));

// "FORUM_TILE_SENATE_3" -> "senate 3 votes", "FORUM_TILE_EXTRA_SEAPORT" -> "extra seaport"
function forumWord(tile) {
  const key = enumName(tile, "FORUM_TILE_");
  if (key.startsWith("senate_")) return `senate ${key.slice(7)} votes`;
  if (key.startsWith("extra_")) return `extra ${actionWord(key.slice(6))}`;
  return key.replace(/_/g, " ");
}
const forumKind = (tile) => {
  const key = enumName(tile, "FORUM_TILE_");
  if (key.startsWith("senate")) return "senate";
  if (key.startsWith("extra")) return "extra";
  if (key.startsWith("wild")) return "wild";
  return key;  // bread, games, religion
};

function tileWords(ctx, id) {
  const t = trajanTile(ctx, id);
  if (!t) return `Trajan tile ${id}`;
  const effect = t.effect === "demand" ? `${t.demand} demand` :
    (t.amount ? `${t.amount} ${EFFECT_WORDS[t.effect]}${t.amount > 1 && t.effect !== "draw_cards" ? "s" : ""}` : EFFECT_WORDS[t.effect]);
  return `${t.vp} VP${effect ? ` + ${effect}` : ""} (${t.colours.map((c) => c.replace("_", " ")).join(" + ")})`;
}

function bonusWords(ctx, id) {
  const t = bonusTile(ctx, id);
  if (!t) return `bonus tile ${id}`;
  const what = t.kind === "demand" ? `${t.demand} demand` : t.kind === "commodities" ? t.commodities.join(" & ") : t.kind.replace("_", " ");
  return `${what} ${t.yellow}/${t.grey}`;
}

// ------------------------------------------------------------------ small pieces

function marker(el, colour, attrs = {}) {
  const c = enumName(colour, "COLOUR_");
  return el("span", { class: `mk mk-${c}`, title: c.replace("_", " "), ...attrs });
}

function chips(ctx, seats) {
  return seats.length ? seats.map((s) => ctx.chip(s)) : [ctx.el("span", { class: "none", text: "-" })];
}

function figure(el, seat, title) {
  return el("span", { class: `fig seat-${num(seat) % 5}`, title });
}

function tileCard(ctx, id, extra = "") {
  const { el } = ctx;
  const t = trajanTile(ctx, id);
  if (!num(id)) return el("div", { class: `ttile empty ${extra}`, text: extra === "arch" ? "⌂ arch" : "no tile" });
  const colours = t ? t.colours : [];
  const effect = t ? (t.effect === "demand" ? t.demand : (t.amount ? `+${t.amount} ${EFFECT_SHORT[t.effect]}` : EFFECT_SHORT[t.effect])) : "";
  return ctx.tip(el("div", { class: `ttile ${t ? `fx-${t.effect}` : ""} ${extra}`, "data-trajan-tile": String(id) },
    el("span", { class: "tvp", text: t ? `${t.vp}` : "?" }),
    el("span", { class: "tcol" }, ...colours.map((c) => marker(el, `COLOUR_${c.toUpperCase()}`))),
    el("span", { class: "tfx", text: effect })), said(ctx, "trajanTiles", id) || `Trajan tile ${id}: ${tileWords(ctx, id)}`);
}

// ------------------------------------------------------------------ drawing

function skeleton(root, el) {
  root.replaceChildren(
    el("section", { id: "tj-summary", class: "tj-summary" }),
    el("section", { id: "tj-time", class: "tj-time" }),
    el("section", { class: "tj-board" },
      el("div", { id: "tj-provinces", class: "tj-provinces" }),
      el("div", { class: "tj-column" },
        el("div", { id: "tj-construction", class: "tj-construction" }),
        el("div", { id: "tj-forum", class: "tj-forum" })),
      el("div", { class: "tj-row" },
        el("div", { id: "tj-senate", class: "tj-senate" }),
        el("div", { id: "tj-stacks", class: "tj-stacks" }),
        el("div", { id: "tj-port", class: "tj-port" }))),
    el("section", {}, el("h2", { text: "Players" }), el("div", { id: "tj-players", class: "tj-players" })),
    el("section", { id: "tj-final", class: "final-scoring", hidden: "" }));
}

function renderSummary(root, reply, view, ctx) {
  const { el } = ctx;
  const toAct = (reply.seatsToAct || []).map((s) => ctx.chip(s));
  const item = (id, label, ...value) => el("div", {}, el("span", { class: "k", text: label }), el("b", { id }, ...value));
  const demands = list(view.demands).map((d) => el("span", { class: `demand d-${enumName(d, "DEMAND_")}`, text: words(d, "DEMAND_") }));
  root.querySelector("#tj-summary").replaceChildren(
    item("tj-quarter", "Quarter", `${num(view.quarter)} of 4`),
    item("tj-round", "Round", `${num(view.round)} of 16`),
    item("tj-phase", "Phase", words(view.phase, "PHASE_")),
    item("tj-turn", "Turn", ...(num(view.activeSeat) >= 0 ? [ctx.chip(num(view.activeSeat))] : ["-"])),
    item("tj-to-act", "To act", ...(toAct.length ? toAct : [reply.systemToAct ? "the board (round or quarter end)" : "-"])),
    item("tj-demands", "Demands", ...(demands.length ? demands : ["none yet"]),
      el("span", { class: "k", text: ` ${num(view.demandPoolSize)} face down` })));
}

function renderTime(root, view, ctx) {
  const { el } = ctx;
  const lap = num(view.lap);
  const at = num(view.timeSpace);
  const cells = Array.from({ length: lap }, (_, i) => el("span", { class: `cell${i === 0 ? " start" : ""}${i === at ? " here" : ""}`,
    text: i === 0 ? "S" : String(i) }));
  root.querySelector("#tj-time").replaceChildren(el("span", { class: "k", text: "Time track" }), el("div", { class: "track" }, ...cells),
    el("span", { class: "k", text: `space ${at} of ${lap}` }));
}

function renderProvinces(root, view, ctx) {
  const { el } = ctx;
  const players = list(view.players);
  const leadersAt = (p) => players.filter((x) => num(x.leader) === p).map((x) => x.seat ?? 0);
  const camp = el("div", { class: "prov camp" },
    el("div", { class: "prov-head" }, el("b", { text: "Military camp" })),
    el("div", { class: "who" }, ...players.map((p) => el("span", { class: "waiting" }, ctx.chip(num(p.seat)), ` ${num(p.camp)}`))),
    el("div", { class: "leaders" }, ...leadersAt(0).map((s) => el("span", { class: "leader", title: "leader" }, "⚑", ctx.chip(s)))));
  const rows = list(view.provinces).map((x) => {
    const id = num(x.province);
    const spec = province(ctx, id) || {};
    return el("div", { class: "prov", "data-province": String(id) },
      el("div", { class: "prov-head" }, el("span", { class: "vp", text: String(spec.vp ?? "?") }),
        ctx.tip(el("b", { text: spec.name || `province ${id}` }), said(ctx, "provinces", id)),
        x.tile ? forumTip(ctx, el("span", { class: `ftile fk-${forumKind(x.tile)}`, text: forumWord(x.tile) }), x.tile) : ""),
      el("div", { class: "who" }, ...list(x.legionnaires).map((s) => figure(el, s, `${ctx.seatName(num(s))}'s legionnaire`)),
        ...leadersAt(id).map((s) => el("span", { class: "leader", title: `${ctx.seatName(num(s))}'s leader` }, "⚑", ctx.chip(s)))));
  });
  root.querySelector("#tj-provinces").replaceChildren(el("h3", { text: "Provinces" }), camp, ...rows);
}

function renderConstruction(root, view, ctx) {
  const { el } = ctx;
  const sites = new Map(list(ctx.content && ctx.content.board && ctx.content.board.sites).map((s) => [num(s.id), s]));
  const cells = list(view.sites).map((x) => {
    const id = num(x.site);
    const place = sites.get(id) || { row: Math.floor((id - 1) / 5) + 1, column: ((id - 1) % 5) + 1 };
    const tile = constructionTile(ctx, x.tile);
    // grid places by class: the page's Content-Security-Policy refuses inline styles
    const text = [num(x.tile) ? said(ctx, "constructionTiles", x.tile) : "", said(ctx, "sites", id)].filter(Boolean).join(" ");
    return ctx.tip(el("div", { class: `site r${place.row} c${place.column}${num(x.tile) ? ` kind-${tile ? tile.kind : "x"}` : " taken"}`,
      "data-site": String(id) },
      el("span", { class: "site-id", text: String(id) }),
      el("span", { class: "site-tile", text: num(x.tile) ? (tile ? `${tile.kind} ${tile.vp}` : `#${x.tile}`) : "" }),
      el("div", { class: "who" }, ...list(x.workers).map((s) => figure(el, s, `${ctx.seatName(num(s))}'s worker`)))), text);
  });
  root.querySelector("#tj-construction").replaceChildren(el("h3", { text: "Construction area" }), el("div", { class: "grid" }, ...cells));
}

function renderForum(root, view, ctx) {
  const { el } = ctx;
  const tiles = list(view.forum).map((t) => forumTip(ctx, el("span", { class: `ftile fk-${forumKind(t)}`, text: forumWord(t) }), t, "takeForumTile"));
  root.querySelector("#tj-forum").replaceChildren(el("h3", { text: "Forum" }),
    el("div", { class: "ftiles" }, ...(tiles.length ? tiles : [el("span", { class: "none", text: "empty" })])),
    el("div", { class: "k", text: `face down: ${num(view.forumStackSize)} forum tiles, ${num(view.extraStackSize)} extra action tiles` }));
}

function renderSenate(root, view, ctx) {
  const { el } = ctx;
  const track = (ctx.content && ctx.content.board && ctx.content.board.senate_track) || SENATE;
  const height = new Map(list(view.senateOrder).map((s, i) => [num(s), i]));
  const spaces = track.map((votes, space) => {
    const here = list(view.players).filter((p) => num(p.senate) === space).map((p) => num(p.seat))
      .sort((a, b) => (height.get(b) ?? 0) - (height.get(a) ?? 0));
    return el("div", { class: `space${here.length ? " occupied" : ""}`, "data-senate": String(space) },
      el("span", { class: `vp${space ? "" : " start"}`, text: space ? String(votes) : "start" }), el("span", { class: "who" }, ...here.map((s) => ctx.chip(s))));
  });
  const offer = list(view.senateOffer).map((t) => ctx.tip(el("div", { class: "bonus yellow", "data-tile": String(num(t)), "data-commands": "chooseBonusTile" },
    bonusWords(ctx, t)), said(ctx, "bonusTiles", t)));
  root.querySelector("#tj-senate").replaceChildren(el("h3", { text: "Senate" }), el("div", { class: "track" }, ...spaces),
    el("div", { class: "k", text: "bonus tiles beside the senate" }), ...(offer.length ? offer : [el("div", { class: "none", text: "none" })]));
}

function renderStacks(root, view, ctx) {
  const { el } = ctx;
  const stacks = list(view.trajanStacks).map((s, i) => el("div", { class: "stack", "data-stack": String(i + 1) },
    tileCard(ctx, s.top), el("span", { class: "k", text: `+${num(s.beneath)}` })));
  root.querySelector("#tj-stacks").replaceChildren(el("h3", { text: "Trajan stacks" }), el("div", { class: "stacks" }, ...stacks));
}

function renderPort(root, view, ctx) {
  const { el } = ctx;
  const ships = list(view.shipsYellow).map((yellow, i) => {
    const s = shipRecord(ctx, i + 1);
    const values = s ? (yellow ? s.yellow : s.grey).join("/") : "";
    return ctx.tip(el("div", { class: `ship ${yellow ? "yellow" : "grey"}`, "data-ship": String(i + 1) },
      el("b", { text: s ? s.kind : `ship ${i + 1}` }), el("span", { class: "k", text: ` ${values} VP` })), said(ctx, "ships", i + 1));
  });
  const top = (pile) => (list(pile).length ? words(pile[pile.length - 1], "COMMODITY_") : "empty");
  root.querySelector("#tj-port").replaceChildren(el("h3", { text: "Seaport" }), ...ships,
    el("div", { class: "piles" },
      el("div", { class: "pile", "data-pile": "PILE_DECK" }, el("span", { class: "card back", text: `${num(view.deckSize)}` }), el("span", { class: "k", text: "draw pile" })),
      el("div", { class: "pile", "data-pile": "PILE_LEFT" }, el("span", { class: "card", text: top(view.leftPile) }), el("span", { class: "k", text: "left discard" })),
      el("div", { class: "pile", "data-pile": "PILE_RIGHT" }, el("span", { class: "card", text: top(view.rightPile) }), el("span", { class: "k", text: "right discard" }))));
}

function circle(ctx, p, view) {
  const { el } = ctx;
  const active = num(view.activeSeat) === num(p.seat);  // proto3 JSON leaves out 0: seat 0, or -1 between turns
  const bowls = list(p.bowls).map((b, i) => {
    const bowl = i + 1;
    const target = active && num(view.target) === bowl && !list(view.inHand).length;
    const slot = num(list(p.slots)[i]);
    return el("div", { class: `bowl-box b${bowl}${target ? " target" : ""}`, "data-bowl": String(bowl),
      "data-action": `ACTION_${ACTIONS[i].toUpperCase()}`, "data-slot": String(bowl) },
      el("span", { class: "bowl-name", text: actionWord(ACTIONS[i]) }),
      ctx.tip(el("div", { class: "bowl" },
        el("span", { class: "numeral", text: NUMERALS[bowl] }),
        el("span", { class: "markers" }, ...list(b.markers).map((m) => marker(el, m)))),
      said(ctx, "bowls", bowl, "bowl") || `bowl ${NUMERALS[bowl]}: ${actionWord(ACTIONS[i])}`),
      tileCard(ctx, slot, num(p.arch) === bowl ? "arch" : ""));
  });
  const hand = active && list(view.inHand).length ?
    el("div", { class: "sowing" }, "sowing ", ...list(view.inHand).map((m) => marker(el, m, { "data-colour": m })), ` → ${NUMERALS[num(view.nextBowl)]}`) : "";
  return el("div", { class: "circle" }, ...bowls, el("div", { class: "hub" }, num(p.arch) ? "" : el("span", { class: "arch-off", text: "arch off the mat" }), hand));
}

function renderPlayer(p, view, toAct, ctx) {
  const { el } = ctx;
  const track = (ctx.content && ctx.content.board && ctx.content.board.senate_track) || SENATE;
  const votes = num(track[num(p.senate)]) + list(p.forumTiles).map(forumWord)
    .filter((w) => w.startsWith("senate")).reduce((n, w) => n + Number(w.split(" ")[1]), 0);
  const stat = (label, value) => el("div", { class: "stat", "data-stat": label.replace(" ", "-") },
    el("div", { class: "k", text: label }), el("div", { class: "v", text: String(value) }));
  const row = (label, ...value) => el("div", { class: "row" }, el("span", { class: "k", text: `${label}:` }), ...(value.length ? value : ["-"]));
  const counts = (items) => {
    const m = new Map();
    for (const x of items) m.set(x, (m.get(x) || 0) + 1);
    return [...m].map(([k, n]) => (n > 1 ? `${n} ${k}` : k)).join(", ");
  };
  return el("div", { class: `player${toAct ? " to-act" : ""}`, "data-seat": String(num(p.seat)) },
    el("h3", {}, ctx.chip(num(p.seat)), el("span", { class: "pvp", text: `${num(p.vp)} VP` }), toAct ? el("span", { class: "acting", text: "to act" }) : ""),
    circle(ctx, p, view),
    el("div", { class: "stats" }, stat("senate votes", votes), stat("supply", num(p.supply)), stat("work area", num(p.workArea)),
      stat("camp", num(p.camp)), stat("cards", num(p.handSize))),
    el("div", { class: "mat" },
      row("leader", provinceName(ctx, p.leader)),
      list(p.hand).length ? row("hand", ...list(p.hand).map((c) => el("span", { class: "card", "data-commodity": c, text: words(c, "COMMODITY_") }))) : "",
      row("display", counts(list(p.display).map((c) => words(c, "COMMODITY_")))),
      row("forum tiles", ...list(p.forumTiles).map((t) => forumTip(ctx, el("span", { class: `ftile fk-${forumKind(t)}`, text: forumWord(t) }), t, "useExtraAction"))),
      row("kept demand tiles", ...list(p.demandTiles).map((t) => tileCard(ctx, t, "small"))),
      row("construction", ...list(p.construction).map((t) => {
        const c = constructionTile(ctx, t);
        return ctx.tip(el("span", { class: "ctile", text: c ? `${c.kind} ${c.vp}` : `#${t}` }), said(ctx, "constructionTiles", t));
      })),
      row("[+2]", list(p.plusTwo).map((a) => actionWord(enumName(a, "ACTION_"))).join(", ")),
      row("bonus tiles", ...list(p.bonusTiles).map((b) => ctx.tip(el("span", { class: `bonus ${b.yellow ? "yellow" : "grey"}`, text: bonusWords(ctx, b.tile) }),
        said(ctx, "bonusTiles", b.tile))))));
}

function renderFinal(root, view, ctx) {
  const { el } = ctx;
  const box = root.querySelector("#tj-final");
  const finals = list(view.final);
  box.hidden = !finals.length;
  if (!finals.length) return;
  const placings = list(view.placings);
  const order = [...finals].sort((a, b) => num(placings[num(a.seat)]) - num(placings[num(b.seat)]));
  const head = el("tr", {}, ...["place", "player", ...FINAL.map(([, h]) => h)].map((h) => el("th", { text: h })));
  const rows = order.map((f) => el("tr", { "data-seat": String(num(f.seat)) }, el("td", { text: String(placings[num(f.seat)] ?? "") }),
    el("td", {}, ctx.chip(num(f.seat))), ...FINAL.map(([k]) => el("td", { text: String(num(f[k])) }))));
  box.replaceChildren(el("h2", { text: "Final scoring" }), el("table", {}, head, ...rows));
}

export function render(root, reply, ctx) {
  const view = reply.view || {};
  if (!root.querySelector("#tj-summary")) skeleton(root, ctx.el);
  const toAct = new Set((reply.seatsToAct || []).map(num));
  renderSummary(root, reply, view, ctx);
  renderTime(root, view, ctx);
  renderProvinces(root, view, ctx);
  renderConstruction(root, view, ctx);
  renderForum(root, view, ctx);
  renderSenate(root, view, ctx);
  renderStacks(root, view, ctx);
  renderPort(root, view, ctx);
  root.querySelector("#tj-players").replaceChildren(...list(view.players).map((p) => renderPlayer(p, view, toAct.has(num(p.seat)), ctx)));
  renderFinal(root, view, ctx);
}

// ------------------------------------------------------------------ the legend

export function legend(ctx) {
  const { el } = ctx;
  const sample = (cls, text) => el("span", { class: cls, text });
  return [
    [el("span", { class: "ttile small" }, sample("tvp", "3"), el("span", { class: "tcol" }, marker(el, "COLOUR_ORANGE"), marker(el, "COLOUR_BLUE")),
      sample("tfx", "+2 cards")), "Trajan tile: its VP, the two markers that complete it, what it gives (+2 cards, +1 wkr worker, +1 leg legionnaire, [+2])"],
    [el("span", {}, ...["yellow", "orange", "light_green", "white", "pink", "blue"].map((c) => marker(el, `COLOUR_${c.toUpperCase()}`))),
      "action markers in the bowls"],
    [el("span", {}, figure(el, 0, ""), figure(el, 1, "")), "a legionnaire (provinces) or a worker (construction sites), in its player's colour"],
    [sample("leader", "⚑"), "a player's leader"],
    [el("span", { class: "ttile small arch" }, "⌂ arch"), "the arch: where the player's next Trajan tile goes"],
    [el("span", {}, sample("ftile fk-senate", "senate"), sample("ftile fk-bread", "bread"), sample("ftile fk-extra", "extra"),
      sample("ftile fk-wild", "wild")), "forum tiles: senate votes, a demand, an extra action, wild"],
    [el("span", {}, sample("bonus yellow", "yellow"), sample("bonus grey", "grey")), "bonus tiles and ships: yellow side / grey side (VP)"],
    [sample("vp-key", "6"), "the VP of a province or senate space"],
  ];
}

// ------------------------------------------------------------------ events in words

const PILES = { PILE_LEFT: "the left discard pile", PILE_RIGHT: "the right discard pile", PILE_DECK: "the draw pile" };
const PLACES = { PLACE_SUPPLY: "the supply", PLACE_WORK_AREA: "the work area", PLACE_CAMP: "the military camp" };
const REASONS = { REASON_TRAJAN_TILE: "a Trajan tile", REASON_SHIPMENT: "a shipment", REASON_LEGIONNAIRE: "a legionnaire",
  REASON_SENATE: "the senate", REASON_CONSTRUCTION: "a construction tile", REASON_UNMET_DEMANDS: "unmet demands" };
const PAYMENTS = { PAYMENT_TRAJAN_TILE: "a kept Trajan tile", PAYMENT_FORUM_TILE: "a forum tile",
  PAYMENT_WILD_DEMAND: "a wild demand tile", PAYMENT_UNMET: "unmet" };
const bowlWord = (b) => `bowl ${NUMERALS[num(b)] || num(b)} (${actionWord(ACTIONS[num(b) - 1] || "?")})`;
const colourList = (ms) => list(ms).map((m) => words(m, "COLOUR_")).join(" + ");
const cardList = (cs) => list(cs).map((c) => words(c, "COMMODITY_")).join(", ");
const slotWord = (s) => (num(s) ? `slot ${NUMERALS[num(s)]}` : "the middle of the circle");

// Words for Trajan's events; null lets the shell's generic wording speak.
export function describeEvent(item, ctx) {
  const [[kind, e] = []] = Object.entries(item.event || {});
  if (!kind) return null;
  const who = ctx.seatName(num(e.seat));
  switch (kind) {
    case "gameStarted": return `The game starts with ${num(e.seats)} players, a time track of ${num(e.lap)} spaces`;
    case "suppliesPrepared": return "The forum tiles, extra action tiles, commodity cards, bonus tiles, demand tiles and Trajan tiles are laid out face down";
    case "constructionTilesPlaced": return `${list(e.tiles).length} construction tiles are laid on the construction sites`;
    case "provinceTilesPlaced": return `Forum tiles into ${list(e.provinces).map((p) => provinceName(ctx, p)).join(", ")}`;
    case "forumFilled": return `The forum is filled with ${plural(list(e.forumTiles).length + list(e.extraTiles).length, "tile")}`;
    case "tokensMoved": return `${who}: ${plural(num(e.count), "figure")} from ${PLACES[e.source]} to ${PLACES[e.destination]}`;
    case "phaseChanged": return `Phase: ${words(e.phase, "PHASE_")}`;
    case "startMarkersPlaced": return `${who} puts ${colourList(e.markers)} markers into ${bowlWord(e.bowl)}`;
    case "trajanStackTopRevealed": return `Trajan stack ${num(e.stack)} shows ${tileWords(ctx, e.tile)} on top`;
    case "startPlayerChosen": return `${who} is the start player`;
    case "senateRestacked": return `The senate discs are stacked, bottom to top: ${list(e.order).map((s) => ctx.seatName(num(s))).join(", ")}`;
    case "bonusTileDealt": return `${who} draws bonus tile ${bonusWords(ctx, e.tile)}`;
    case "senateOfferDrawn": return `Beside the senate: ${list(e.tiles).map((t) => bonusWords(ctx, t)).join("; ")}`;
    case "commodityFlipped": return `A ${words(e.commodity, "COMMODITY_")} card is turned face up onto ${PILES[e.pile]}`;
    case "commoditiesDrawn": return `${who} draws ${plural(list(e.cards).length, "card")}`;
    case "discardTaken": return `${who} takes ${words(e.commodity, "COMMODITY_")} from ${PILES[e.pile]}`;
    case "trajanTileTaken": return `${who} takes ${tileWords(ctx, e.tile)} onto ${slotWord(e.slot)}`;
    case "archMoved": return `${who}'s arch moves to ${slotWord(e.slot)}`;
    case "roundStarted": return `Round ${num(e.round)} of 16 begins`;
    case "turnStarted": return `${who}'s turn`;
    case "bowlEmptied": return `${who} picks up ${plural(list(e.markers).length, "marker")} from ${bowlWord(e.bowl)}`;
    case "timeAdvanced": return `The time marker moves ${plural(num(e.spaces), "space")}`;
    case "markerSown": return `${who} sows ${article(words(e.colour, "COLOUR_"))} marker into ${bowlWord(e.bowl)}`;
    case "pendingSet": return list(e.steps).length ? `${who} to do: ${list(e.steps).map((s) => words(s.kind, "STEP_KIND_") + (s.action ? ` (${actionWord(enumName(s.action, "ACTION_"))})` : "")).join(", then ")}` : `${who} has nothing more to do this turn`;
    case "trajanTileCompleted": return `${who} completes ${tileWords(ctx, e.tile)} on ${slotWord(e.slot)}`;
    case "trajanTileKept": return `${who} keeps Trajan tile ${num(e.tile)} to meet demands`;
    case "pointsScored": return num(e.points) < 0 ? `${who} loses ${-num(e.points)} VP for ${REASONS[e.reason]}` : `${who} scores ${num(e.points)} VP for ${REASONS[e.reason]}`;
    case "plusTwoPlaced": return `${who} puts a [+2] marker beside the ${actionWord(enumName(e.action, "ACTION_"))} action`;
    case "extraActionTileUsed": return `${who} spends the ${forumWord(e.tile)} tile`;
    case "commodityDiscarded": return `${who} discards ${words(e.commodity, "COMMODITY_")} onto ${PILES[e.pile]}`;
    case "commoditiesDisplayed": return `${who} plays ${cardList(e.cards)} face up`;
    case "discardsReshuffled": return `The draw pile ran out: ${plural(list(e.cards).length, "card")} from the discard piles form a new one`;
    case "commodityLoaded": return `${who} loads ${words(e.commodity, "COMMODITY_")} onto the ship`;
    case "wildCommodityLoaded": return `${who} loads a wild commodity tile onto the ship`;
    case "shipmentDelivered": return `${who} delivers the shipment on the ${(shipRecord(ctx, e.ship) || {}).kind || "?"} ship`;
    case "forumTileTaken": return `${who} takes ${forumWord(e.tile)} from the forum`;
    case "leaderMoved": return `${who}'s leader moves to ${provinceName(ctx, e.province)}`;
    case "provinceTileTaken": return `${who}'s leader takes the ${forumWord(e.tile)} tile in ${provinceName(ctx, e.province)}`;
    case "legionnaireDeployed": return `${who} deploys a legionnaire in ${provinceName(ctx, e.province)}`;
    case "senateAdvanced": return `${who} advances in the senate to space ${num(e.space)}`;
    case "workerPlaced": return `${who} places a worker on site ${num(e.site)}`;
    case "constructionTileTaken": { const t = constructionTile(ctx, e.tile); return `${who} takes the ${t ? `${t.kind} ${t.vp} VP` : `#${num(e.tile)}`} construction tile`; }
    case "turnEnded": return `${who} ends the turn`;
    case "roundEnded": return `Round ${num(e.round)} ends`;
    case "demandRevealed": return `The people demand ${words(e.demand, "DEMAND_")}`;
    case "demandChoicesAsked": return list(e.seats).length ? `${list(e.seats).map((s) => ctx.seatName(num(s))).join(", ")} choose how to meet the demands` : "Every player has one way to meet the demands";
    case "demandsMet": return `${who} meets the demands: ${list(e.payments).map((x) => PAYMENTS[x] || x).join(", ")}`;
    case "senateScored": return `Senate votes: ${list(e.ranking).map((s) => `${ctx.seatName(num(s))} ${num(list(e.votes)[num(s)])}`).join(", ")}`;
    case "bonusTileAwarded": return `${who} takes bonus tile ${bonusWords(ctx, e.tile)}, ${e.yellow ? "yellow" : "grey"} side up`;
    case "matTilesRemoved": return `${who}'s senate tiles leave the game`;
    case "forumCleared": return `The forum is cleared: ${plural(list(e.tiles).length, "tile")} leave the game`;
    case "shipsReset": return "The ships turn back to their yellow sides";
    case "quarterEnded": return `Quarter ${num(e.quarter)} ends`;
    case "quarterStarted": return `Quarter ${num(e.quarter)} of 4 begins`;
    case "finalScored": return `Final scoring: ${list(e.scores).map((f) => `${ctx.seatName(num(f.seat))} ${num(f.total)} VP`).join(", ")}`;
    case "gameEnded": {
      const placings = list(e.placings);
      const order = placings.map((_, s) => s).sort((a, b) => num(placings[a]) - num(placings[b]));
      return `The game ends: ${order.map((s) => `${num(placings[s])}. ${ctx.seatName(s)}`).join(", ")}`;
    }
    default: return null;
  }
}

// ------------------------------------------------------------------ the play app's picker

// The questions, as the terminal client asks them (services/trajan/presentation/steps.py).
const TITLES = {
  "chooseBowl.bowl": "Which bowl do you pick up?", "sowMarker.colour": "Which marker goes into the next bowl?",
  "useTrajanEffect.action": "Beside which action does the [+2] marker go?", "useExtraAction.tile": "Which extra action tile do you spend?",
  "discardCommodity.commodity": "Which card do you discard?", "discardCommodity.pile": "Onto which discard pile?",
  "takeDiscard.pile": "From which discard pile?", "displayCommodities.cards": "Which cards do you play face up?",
  "startShipment.ship": "Which ship do you load?", "loadCommodity.commodity": "Which card do you load?",
  "takeForumTile.tile": "Which forum tile do you take?", "moveLeader.province": "Where does your leader go?",
  "takeTrajanTile.stack": "Which Trajan tile do you take?", "placeWorker.site": "On which site does your worker go?",
  "meetDemands.payments": "How do you meet the demands?", "chooseBonusTile.tile": "Which bonus tile do you take, yellow side up?",
  "placeStartMarkers.first": "The first marker for this bowl?", "placeStartMarkers.second": "The second marker for this bowl?",
  "drawStartCommodity.pile": "Where do you take a starting card from?",
  "takeStartTrajanTile.stack": "From which stack do you take a starting Trajan tile?",
  "takeStartTrajanTile.slot": "Onto which slot does it go?",
};

export function stepTitle(kind, field) {
  return TITLES[`${kind}.${field}`] || null;
}

// The acting player's mat in the view the picker was drawn from.
function actingMat(ctx) {
  const view = (ctx.reply && ctx.reply.view) || {};
  return list(view.players).find((p) => num(p.seat) === num(view.activeSeat)) || null;
}

// Where the sowing of bowl `bowl` ends: its markers go one by one into the next bowls, the last one
// naming the action (and the Trajan tile beside that bowl is won when its colours are there).
function sowingEnd(ctx, bowl) {
  const mat = actingMat(ctx);
  const markers = mat ? list(list(mat.bowls)[bowl - 1] && list(mat.bowls)[bowl - 1].markers).length : 0;
  return { markers, end: markers ? ((bowl - 1 + markers) % 6) + 1 : 0 };
}

const siteViews = (ctx) => new Map(list((ctx.reply && ctx.reply.view && ctx.reply.view.sites) || []).map((s) => [num(s.site), s]));
const stackTop = (ctx, stack) => num(list((ctx.reply && ctx.reply.view && ctx.reply.view.trajanStacks) || [])[num(stack) - 1]?.top);

// A value of a legal command as the player weighs it: a bowl with where its sowing ends, a tile by what
// it shows, a province, site or ship by its name.
export function optionText(kind, field, m, ctx) {
  if (kind === "chooseBowl" && field === "bowl") {
    const bowl = num(m.bowl);
    const { markers, end } = sowingEnd(ctx, bowl);
    return `bowl ${NUMERALS[bowl]} (${plural(markers, "marker")}): ends in ${NUMERALS[end] || "?"}, the ${actionWord(ACTIONS[end - 1] || "?")} action`;
  }
  if (field === "stack") {
    const top = stackTop(ctx, m.stack);
    return top ? `stack ${num(m.stack)}: ${tileWords(ctx, top)}` : `stack ${num(m.stack)}`;
  }
  if (field === "province") return provinceName(ctx, m.province);
  if (field === "site") {
    const tile = num((siteViews(ctx).get(num(m.site)) || {}).tile);
    const t = constructionTile(ctx, tile);
    return `site ${num(m.site)}${t ? `: ${t.kind} ${t.vp} VP` : ""}`;
  }
  if (field === "tile" && (kind === "takeForumTile" || kind === "useExtraAction")) return forumWord(m.tile);
  if (field === "tile" && kind === "chooseBonusTile") return bonusWords(ctx, m.tile);
  if (field === "ship") { const s = shipRecord(ctx, m.ship); return s ? `ship ${num(m.ship)}: ${s.kind}` : `ship ${num(m.ship)}`; }
  if (field === "commodity") return words(m.commodity, "COMMODITY_");
  if (field === "pile") return words(m.pile, "PILE_");
  if (field === "colour") return words(m.colour, "COLOUR_");
  if (kind === "useTrajanEffect" && field === "action") return m.action ? `beside ${actionWord(enumName(m.action, "ACTION_"))}` : "no action";
  return null;
}

// What it costs and does, under its option: the action a bowl's sowing leads to (and the Trajan tile
// there), a component's GetContent text.
export function optionHint(kind, field, m, ctx) {
  if (kind === "chooseBowl" && field === "bowl") {
    const { end } = sowingEnd(ctx, num(m.bowl));
    const mat = actingMat(ctx);
    const tile = mat ? num(list(mat.slots)[end - 1]) : 0;
    const action = said(ctx, "bowls", end, "bowl");
    return [action, tile ? `Beside it: ${said(ctx, "trajanTiles", tile) || tileWords(ctx, tile)}` : ""].filter(Boolean).join(" ") || null;
  }
  if (field === "stack") { const top = stackTop(ctx, m.stack); return top ? said(ctx, "trajanTiles", top) || null : null; }
  if (field === "province") return num(m.province) ? said(ctx, "provinces", num(m.province)) || null : null;
  if (field === "site") {
    const tile = num((siteViews(ctx).get(num(m.site)) || {}).tile);
    return [tile ? said(ctx, "constructionTiles", tile) : "", said(ctx, "sites", num(m.site))].filter(Boolean).join(" ") || null;
  }
  if (field === "tile" && (kind === "takeForumTile" || kind === "useExtraAction")) return said(ctx, "forumTiles", m.tile, "tile") || null;
  if (field === "tile" && kind === "chooseBonusTile") return said(ctx, "bonusTiles", num(m.tile)) || null;
  if (field === "ship") return said(ctx, "ships", num(m.ship)) || null;
  return null;
}

const ORDER_LIMIT = 24;  // more orders of the markers in hand than this: asked marker by marker

// How many distinct orders the markers in `hand` have: n! / (k1! k2! ...) for k of each colour.
function orderCount(hand) {
  const fact = (n) => (n <= 1 ? 1 : n * fact(n - 1));
  const alike = new Map();
  for (const c of hand) alike.set(c, (alike.get(c) || 0) + 1);
  return [...alike.values()].reduce((n, k) => n / fact(k), fact(hand.length));
}

// Every distinct order of the markers in `hand`, each once (services/trajan/presentation/steps.py).
function orders(hand) {
  if (!hand.length) return [[]];
  return [...new Set(hand)].sort().flatMap((first) => {
    const rest = [...hand];
    rest.splice(rest.indexOf(first), 1);
    return orders(rest).map((tail) => [first, ...tail]);
  });
}

// Sowing as one choice, as the terminal client asks it: each order of the markers in hand is a plan of
// SowMarker commands (up to where the rules sow the rest themselves: markers of one colour). null when the
// commands are not the sowing, or there are too many orders (then marker by marker).
export function plans(commands, ctx) {
  const byColour = new Map();
  for (const c of commands) {
    if (!c.sowMarker) return null;
    byColour.set(c.sowMarker.colour, c);
  }
  const view = (ctx.reply && ctx.reply.view) || {};
  const hand = list(view.inHand);
  if (byColour.size < 2 || orderCount(hand) > ORDER_LIMIT) return null;
  const all = orders(hand);
  const bowls = hand.map((_, i) => ((num(view.nextBowl) - 1 + i) % 6) + 1);
  const last = bowls[bowls.length - 1];
  const mat = actingMat(ctx);
  const tile = mat ? num(list(mat.slots)[last - 1]) : 0;
  const need = ((trajanTile(ctx, tile) || {}).colours || []).map((c) => `COLOUR_${c.toUpperCase()}`);
  // Whether the last bowl holds the colours of the Trajan tile beside it once `order` is sown.
  const completes = (order) => {
    if (!need.length) return false;
    const have = list(list(mat.bowls)[last - 1] && list(mat.bowls)[last - 1].markers).slice();
    order.forEach((c, i) => { if (bowls[i] === last) have.push(c); });
    return need.every((c) => { const at = have.indexOf(c); if (at < 0) return false; have.splice(at, 1); return true; });
  };
  return {
    title: `In which order do you sow your markers (the last lands in bowl ${NUMERALS[last]}, the ${actionWord(ACTIONS[last - 1])} action)?`,
    help: `The markers go one by one, clockwise, into the bowls after the one picked up; the bowl the last one lands in names the action, and the Trajan tile beside it is won when that bowl holds the tile's colours.`,
    plans: all.map((order) => {
      let sent = 0;
      while (sent < order.length && new Set(order.slice(sent)).size > 1) sent += 1;
      return {
        label: order.map((c, i) => `${NUMERALS[bowls[i]]} ${words(c, "COLOUR_")}`).join(", "),
        hint: completes(order) ? `Wins the Trajan tile beside ${NUMERALS[last]}: ${said(ctx, "trajanTiles", tile) || tileWords(ctx, tile)}` : "",
        commands: order.slice(0, sent).map((c) => byColour.get(c)),
      };
    }),
  };
}
