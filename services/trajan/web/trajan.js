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
//          ship and bowl with its text in the page's locale) or null, el(tag, attrs, ...children),
//          seatName(seat), chip(seat), tip(node, text): the text shown on hover or tap, locale, and
//          t(key, values): Trajan's text of `key` in the page's locale (services/trajan/texts.py TEXTS)}
// Every word on the page comes through ctx.t: the keys are the terminal presentation's (commodities,
// colours, actions, the events and the step questions) and the web module's own (`web.*`,
// services/trajan/presentation/web.py).
// Every Trajan, forum, construction and bonus tile, province, ship and bowl carries its GetContent text as
// its hover text.

const ACTIONS = ["seaport", "forum", "military", "senate", "trajan", "construction"];  // bowl I..VI
const NUMERALS = ["", "I", "II", "III", "IV", "V", "VI"];
const SENATE = [0, 2, 3, 4, 5, 6, 7, 8];  // votes and VP per space, 0 = start (used without content tables)
const FINAL = ["before", "hand", "workArea", "camp", "trajanTiles", "constructionSets", "bonusTiles", "total"];

const num = (v) => Number(v || 0);
const list = (v) => (Array.isArray(v) ? v : []);
const enumName = (value, prefix) => String(value || "").replace(prefix, "").toLowerCase();
const t = (ctx, key, values = {}) => ctx.t(key, values);
// "3 markers": a count with its word (keys n.<word>.one / n.<word>.other).
const count = (ctx, word, n) => ctx.t(`n.${word}.${n === 1 ? "one" : "other"}`, { count: n });
// An enum value's word: word(ctx, "commodity", "COMMODITY_WINE", "COMMODITY_") -> "wine".
const word = (ctx, kind, value, prefix = "") => ctx.t(`${kind}.${enumName(value, prefix)}`);
const actionWord = (ctx, a) => ctx.t(`action.${a}`);
const joined = (ctx, items) => items.join(t(ctx, "sep.list"));
// "wine, wine, fish" -> "2 wine, fish" (first-seen order), as the terminal counts.
function counted(ctx, items) {
  const m = new Map();
  for (const x of items) m.set(x, (m.get(x) || 0) + 1);
  return joined(ctx, [...m].map(([k, n]) => (n > 1 ? t(ctx, "count.item", { count: n, item: k }) : k)));
}

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
function provinceName(ctx, id) {
  if (!num(id)) return t(ctx, "province.camp");
  const p = province(ctx, id);
  return p ? t(ctx, `province.${p.key}`) : t(ctx, "province.unknown", { province: num(id) });
}
const constructionTile = (ctx, id) => table(ctx, "construction", "tiles").get(String(id));
const bonusTile = (ctx, id) => table(ctx, "bonus_tiles", "tiles").get(String(id));
const shipRecord = (ctx, id) => table(ctx, "ships", "ships").get(String(id));
const kindWord = (ctx, kind) => t(ctx, `construction.${kind}`);
const constructionWords = (ctx, c) => t(ctx, "construction_tile", { kind: kindWord(ctx, c.kind), vp: c.vp });
const shipWord = (ctx, id) => { const s = shipRecord(ctx, id); return s ? t(ctx, "ship", { kind: t(ctx, `ship_kind.${s.kind}`) }) : t(ctx, "ship.unknown", { ship: num(id) }); };

// "FORUM_TILE_SENATE_3" -> "senate 3 votes", "FORUM_TILE_EXTRA_SEAPORT" -> "extra seaport"
function forumWord(ctx, tile) {
  const key = enumName(tile, "FORUM_TILE_");
  if (key.startsWith("senate_")) return t(ctx, "forum.senate", { votes: key.slice(7) });
  if (key.startsWith("extra_")) return t(ctx, "web.forum.extra", { action: actionWord(ctx, key.slice(6)) });
  return t(ctx, `forum_tile.${key}`);
}
const forumVotes = (tile) => { const key = enumName(tile, "FORUM_TILE_"); return key.startsWith("senate_") ? Number(key.slice(7)) : 0; };
const forumKind = (tile) => {
  const key = enumName(tile, "FORUM_TILE_");
  if (key.startsWith("senate")) return "senate";
  if (key.startsWith("extra")) return "extra";
  if (key.startsWith("wild")) return "wild";
  return key;  // bread, games, religion
};

// A Trajan tile in the terminal's words: "5 VP + 1 worker (yellow + orange)".
function tileWords(ctx, id) {
  const tile = trajanTile(ctx, id);
  if (!tile) return t(ctx, "web.trajan_tile.unknown", { tile: num(id) });
  const colours = tile.colours.map((c) => t(ctx, `colour.${c}`)).join(t(ctx, "sep.colours"));
  let effect = "";
  if (tile.effect === "demand") effect = tile.demand ? t(ctx, "effect.demand", { demand: t(ctx, `demand.${tile.demand}`) }) : t(ctx, "effect.demand.any");
  else if (tile.effect === "draw_cards") effect = t(ctx, "effect.draw_cards", { amount: num(tile.amount) });
  else if (tile.effect === "workers" || tile.effect === "legionnaires") effect = t(ctx, `effect.${tile.effect}.${num(tile.amount) === 1 ? "one" : "other"}`, { count: num(tile.amount) });
  else if (tile.effect === "plus_two") effect = t(ctx, "effect.plus_two");
  return effect ? t(ctx, "trajan_tile.effect", { vp: tile.vp, effect, colours }) : t(ctx, "trajan_tile", { vp: tile.vp, colours });
}

function bonusWords(ctx, id) {
  const b = bonusTile(ctx, id);
  if (!b) return t(ctx, "web.bonus_tile.unknown", { tile: num(id) });
  const what = b.kind === "demand" ? t(ctx, "bonus_short.demand", { demand: t(ctx, `demand.${b.demand}`) }) :
    b.kind === "commodities" ? b.commodities.map((c) => t(ctx, `commodity.${c}`)).join(t(ctx, "sep.and")) : t(ctx, `bonus_kind.${b.kind}`);
  return t(ctx, "web.bonus", { what, yellow: b.yellow, grey: b.grey });
}

// ------------------------------------------------------------------ small pieces

function marker(ctx, colour, attrs = {}) {
  const c = enumName(colour, "COLOUR_");
  return ctx.el("span", { class: `mk mk-${c}`, title: t(ctx, `colour.${c}`), ...attrs });
}

function figure(el, seat, title) {
  return el("span", { class: `fig seat-${num(seat) % 5}`, title });
}

function tileCard(ctx, id, extra = "") {
  const { el } = ctx;
  const tile = trajanTile(ctx, id);
  if (!num(id)) return el("div", { class: `ttile empty ${extra}`, text: extra === "arch" ? t(ctx, "web.arch") : t(ctx, "web.no_tile") });
  const colours = tile ? tile.colours : [];
  const effect = !tile || tile.effect === "victory_points" ? "" : tile.effect === "demand" ? t(ctx, `demand.${tile.demand}`) :
    t(ctx, `web.effect.${tile.effect}`, { amount: num(tile.amount) });
  return ctx.tip(el("div", { class: `ttile ${tile ? `fx-${tile.effect}` : ""} ${extra}`, "data-trajan-tile": String(id) },
    el("span", { class: "tvp", text: tile ? `${tile.vp}` : "?" }),
    el("span", { class: "tcol" }, ...colours.map((c) => marker(ctx, `COLOUR_${c.toUpperCase()}`))),
    el("span", { class: "tfx", text: effect })), said(ctx, "trajanTiles", id) || t(ctx, "web.trajan_tile.tip", { tile: num(id), label: tileWords(ctx, id) }));
}

// ------------------------------------------------------------------ drawing

function skeleton(root, ctx) {
  const { el } = ctx;
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
    el("section", {}, el("h2", { text: t(ctx, "board.players") }), el("div", { id: "tj-players", class: "tj-players" })),
    el("section", { id: "tj-final", class: "final-scoring", hidden: "" }));
}

function renderSummary(root, reply, view, ctx) {
  const { el } = ctx;
  const toAct = (reply.seatsToAct || []).map((s) => ctx.chip(s));
  const item = (id, label, ...value) => el("div", {}, el("span", { class: "k", text: t(ctx, `web.summary.${label}`) }), el("b", { id }, ...value));
  const demands = list(view.demands).map((d) => el("span", { class: `demand d-${enumName(d, "DEMAND_")}`, text: word(ctx, "demand", d, "DEMAND_") }));
  root.querySelector("#tj-summary").replaceChildren(
    item("tj-quarter", "quarter", t(ctx, "web.of", { n: num(view.quarter), total: 4 })),
    item("tj-round", "round", t(ctx, "web.of", { n: num(view.round), total: 16 })),
    item("tj-phase", "phase", word(ctx, "phase", view.phase, "PHASE_")),
    item("tj-turn", "turn", ...(num(view.activeSeat) >= 0 ? [ctx.chip(num(view.activeSeat))] : ["-"])),
    item("tj-to-act", "to_act", ...(toAct.length ? toAct : [reply.systemToAct ? t(ctx, "web.summary.system") : "-"])),
    item("tj-demands", "demands", ...(demands.length ? demands : [t(ctx, "board.demands.none")]),
      el("span", { class: "k", text: t(ctx, "web.summary.face_down", { count: num(view.demandPoolSize) }) })));
}

function renderTime(root, view, ctx) {
  const { el } = ctx;
  const lap = num(view.lap);
  const at = num(view.timeSpace);
  const cells = Array.from({ length: lap }, (_, i) => el("span", { class: `cell${i === 0 ? " start" : ""}${i === at ? " here" : ""}`,
    text: i === 0 ? "S" : String(i) }));
  root.querySelector("#tj-time").replaceChildren(el("span", { class: "k", text: t(ctx, "web.time_track") }), el("div", { class: "track" }, ...cells),
    el("span", { class: "k", text: t(ctx, "web.space", { space: at, lap }) }));
}

function renderProvinces(root, view, ctx) {
  const { el } = ctx;
  const players = list(view.players);
  const leadersAt = (p) => players.filter((x) => num(x.leader) === p).map((x) => x.seat ?? 0);
  const leader = (s) => el("span", { class: "leader", title: t(ctx, "web.leader_of", { who: ctx.seatName(num(s)) }) }, "⚑", ctx.chip(s));
  const camp = el("div", { class: "prov camp" },
    el("div", { class: "prov-head" }, el("b", { text: t(ctx, "web.camp") })),
    el("div", { class: "who" }, ...players.map((p) => el("span", { class: "waiting" }, ctx.chip(num(p.seat)), ` ${num(p.camp)}`))),
    el("div", { class: "leaders" }, ...leadersAt(0).map(leader)));
  const rows = list(view.provinces).map((x) => {
    const id = num(x.province);
    const spec = province(ctx, id) || {};
    return el("div", { class: "prov", "data-province": String(id) },
      el("div", { class: "prov-head" }, el("span", { class: "vp", text: String(spec.vp ?? "?") }),
        ctx.tip(el("b", { text: provinceName(ctx, id) }), said(ctx, "provinces", id)),
        x.tile ? forumTip(ctx, el("span", { class: `ftile fk-${forumKind(x.tile)}`, text: forumWord(ctx, x.tile) }), x.tile) : ""),
      el("div", { class: "who" }, ...list(x.legionnaires).map((s) => figure(el, s, t(ctx, "web.legionnaire_of", { who: ctx.seatName(num(s)) }))),
        ...leadersAt(id).map(leader)));
  });
  root.querySelector("#tj-provinces").replaceChildren(el("h3", { text: t(ctx, "board.provinces") }), camp, ...rows);
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
      el("span", { class: "site-tile", text: num(x.tile) ? (tile ? t(ctx, "web.construction_tile", { kind: kindWord(ctx, tile.kind), vp: tile.vp }) : `#${x.tile}`) : "" }),
      el("div", { class: "who" }, ...list(x.workers).map((s) => figure(el, s, t(ctx, "web.worker_of", { who: ctx.seatName(num(s)) }))))), text);
  });
  root.querySelector("#tj-construction").replaceChildren(el("h3", { text: t(ctx, "web.construction_area") }), el("div", { class: "grid" }, ...cells));
}

function renderForum(root, view, ctx) {
  const { el } = ctx;
  const tiles = list(view.forum).map((f) => forumTip(ctx, el("span", { class: `ftile fk-${forumKind(f)}`, text: forumWord(ctx, f) }), f, "takeForumTile"));
  root.querySelector("#tj-forum").replaceChildren(el("h3", { text: t(ctx, "board.forum") }),
    el("div", { class: "ftiles" }, ...(tiles.length ? tiles : [el("span", { class: "none", text: t(ctx, "board.pile.empty") })])),
    el("div", { class: "k", text: t(ctx, "web.face_down", { forum: num(view.forumStackSize), extra: num(view.extraStackSize) }) }));
}

function renderSenate(root, view, ctx) {
  const { el } = ctx;
  const track = (ctx.content && ctx.content.board && ctx.content.board.senate_track) || SENATE;
  const height = new Map(list(view.senateOrder).map((s, i) => [num(s), i]));
  const spaces = track.map((votes, space) => {
    const here = list(view.players).filter((p) => num(p.senate) === space).map((p) => num(p.seat))
      .sort((a, b) => (height.get(b) ?? 0) - (height.get(a) ?? 0));
    return el("div", { class: `space${here.length ? " occupied" : ""}`, "data-senate": String(space) },
      el("span", { class: `vp${space ? "" : " start"}`, text: space ? String(votes) : t(ctx, "board.start") }), el("span", { class: "who" }, ...here.map((s) => ctx.chip(s))));
  });
  const offer = list(view.senateOffer).map((b) => ctx.tip(el("div", { class: "bonus yellow", "data-tile": String(num(b)), "data-commands": "chooseBonusTile" },
    bonusWords(ctx, b)), said(ctx, "bonusTiles", b)));
  root.querySelector("#tj-senate").replaceChildren(el("h3", { text: t(ctx, "board.senate") }), el("div", { class: "track" }, ...spaces),
    el("div", { class: "k", text: t(ctx, "web.offer") }), ...(offer.length ? offer : [el("div", { class: "none", text: t(ctx, "none") })]));
}

function renderStacks(root, view, ctx) {
  const { el } = ctx;
  const stacks = list(view.trajanStacks).map((s, i) => el("div", { class: "stack", "data-stack": String(i + 1) },
    tileCard(ctx, s.top), el("span", { class: "k", text: `+${num(s.beneath)}` })));
  root.querySelector("#tj-stacks").replaceChildren(el("h3", { text: t(ctx, "web.stacks") }), el("div", { class: "stacks" }, ...stacks));
}

function renderPort(root, view, ctx) {
  const { el } = ctx;
  const ships = list(view.shipsYellow).map((yellow, i) => {
    const s = shipRecord(ctx, i + 1);
    const values = s ? (yellow ? s.yellow : s.grey).join("/") : "";
    return ctx.tip(el("div", { class: `ship ${yellow ? "yellow" : "grey"}`, "data-ship": String(i + 1) },
      el("b", { text: s ? t(ctx, `ship_kind.${s.kind}`) : t(ctx, "ship.unknown", { ship: i + 1 }) }),
      el("span", { class: "k", text: t(ctx, "web.ship_values", { values }) })), said(ctx, "ships", i + 1));
  });
  const top = (pile) => (list(pile).length ? word(ctx, "commodity", pile[pile.length - 1], "COMMODITY_") : t(ctx, "board.pile.empty"));
  root.querySelector("#tj-port").replaceChildren(el("h3", { text: t(ctx, "web.seaport") }), ...ships,
    el("div", { class: "piles" },
      el("div", { class: "pile", "data-pile": "PILE_DECK" }, el("span", { class: "card back", text: `${num(view.deckSize)}` }), el("span", { class: "k", text: t(ctx, "web.pile.deck") })),
      el("div", { class: "pile", "data-pile": "PILE_LEFT" }, el("span", { class: "card", text: top(view.leftPile) }), el("span", { class: "k", text: t(ctx, "web.pile.left") })),
      el("div", { class: "pile", "data-pile": "PILE_RIGHT" }, el("span", { class: "card", text: top(view.rightPile) }), el("span", { class: "k", text: t(ctx, "web.pile.right") }))));
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
      el("span", { class: "bowl-name", text: actionWord(ctx, ACTIONS[i]) }),
      ctx.tip(el("div", { class: "bowl" },
        el("span", { class: "numeral", text: NUMERALS[bowl] }),
        el("span", { class: "markers" }, ...list(b.markers).map((m) => marker(ctx, m)))),
      said(ctx, "bowls", bowl, "bowl") || bowlWord(ctx, bowl)),
      tileCard(ctx, slot, num(p.arch) === bowl ? "arch" : ""));
  });
  const hand = active && list(view.inHand).length ?
    el("div", { class: "sowing" }, t(ctx, "web.sowing"), ...list(view.inHand).map((m) => marker(ctx, m, { "data-colour": m })), ` → ${NUMERALS[num(view.nextBowl)]}`) : "";
  return el("div", { class: "circle" }, ...bowls, el("div", { class: "hub" }, num(p.arch) ? "" : el("span", { class: "arch-off", text: t(ctx, "web.arch_off") }), hand));
}

function renderPlayer(p, view, toAct, ctx) {
  const { el } = ctx;
  const track = (ctx.content && ctx.content.board && ctx.content.board.senate_track) || SENATE;
  const votes = num(track[num(p.senate)]) + list(p.forumTiles).reduce((n, f) => n + forumVotes(f), 0);
  const stat = (id, value) => el("div", { class: "stat", "data-stat": id },
    el("div", { class: "k", text: t(ctx, `web.stat.${id}`) }), el("div", { class: "v", text: String(value) }));
  const row = (label, ...value) => el("div", { class: "row" }, el("span", { class: "k", text: t(ctx, `web.row.${label}`) }), ...(value.length ? value : ["-"]));
  return el("div", { class: `player${toAct ? " to-act" : ""}`, "data-seat": String(num(p.seat)) },
    el("h3", {}, ctx.chip(num(p.seat)), el("span", { class: "pvp", text: t(ctx, "board.vp", { vp: num(p.vp) }) }), toAct ? el("span", { class: "acting", text: t(ctx, "web.acting") }) : ""),
    circle(ctx, p, view),
    el("div", { class: "stats" }, stat("senate-votes", votes), stat("supply", num(p.supply)), stat("work-area", num(p.workArea)),
      stat("camp", num(p.camp)), stat("cards", num(p.handSize))),
    el("div", { class: "mat" },
      row("leader", provinceName(ctx, p.leader)),
      list(p.hand).length ? row("hand", ...list(p.hand).map((c) => el("span", { class: "card", "data-commodity": c, text: word(ctx, "commodity", c, "COMMODITY_") }))) : "",
      row("display", counted(ctx, list(p.display).map((c) => word(ctx, "commodity", c, "COMMODITY_")))),
      row("forum_tiles", ...list(p.forumTiles).map((f) => forumTip(ctx, el("span", { class: `ftile fk-${forumKind(f)}`, text: forumWord(ctx, f) }), f, "useExtraAction"))),
      row("kept", ...list(p.demandTiles).map((k) => tileCard(ctx, k, "small"))),
      row("construction", ...list(p.construction).map((k) => {
        const c = constructionTile(ctx, k);
        return ctx.tip(el("span", { class: "ctile", text: c ? t(ctx, "web.construction_tile", { kind: kindWord(ctx, c.kind), vp: c.vp }) : `#${k}` }), said(ctx, "constructionTiles", k));
      })),
      row("plus_two", joined(ctx, list(p.plusTwo).map((a) => word(ctx, "action", a, "ACTION_")))),
      row("bonus_tiles", ...list(p.bonusTiles).map((b) => ctx.tip(el("span", { class: `bonus ${b.yellow ? "yellow" : "grey"}`, text: bonusWords(ctx, b.tile) }),
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
  const heads = [t(ctx, "board.column.place"), t(ctx, "board.player"), ...FINAL.map((k) => t(ctx, `web.final.${k}`))];
  const head = el("tr", {}, ...heads.map((h) => el("th", { text: h })));
  const rows = order.map((f) => el("tr", { "data-seat": String(num(f.seat)) }, el("td", { text: String(placings[num(f.seat)] ?? "") }),
    el("td", {}, ctx.chip(num(f.seat))), ...FINAL.map((k) => el("td", { text: String(num(f[k])) }))));
  box.replaceChildren(el("h2", { text: t(ctx, "board.final") }), el("table", {}, head, ...rows));
}

export function render(root, reply, ctx) {
  const view = reply.view || {};
  if (!root.querySelector("#tj-summary")) skeleton(root, ctx);
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
    [el("span", { class: "ttile small" }, sample("tvp", "3"), el("span", { class: "tcol" }, marker(ctx, "COLOUR_ORANGE"), marker(ctx, "COLOUR_BLUE")),
      sample("tfx", t(ctx, "web.effect.draw_cards", { amount: 2 }))), t(ctx, "web.legend.trajan_tile")],
    [el("span", {}, ...["yellow", "orange", "light_green", "white", "pink", "blue"].map((c) => marker(ctx, `COLOUR_${c.toUpperCase()}`))),
      t(ctx, "web.legend.markers")],
    [el("span", {}, figure(el, 0, ""), figure(el, 1, "")), t(ctx, "web.legend.figures")],
    [sample("leader", "⚑"), t(ctx, "web.legend.leader")],
    [el("span", { class: "ttile small arch" }, t(ctx, "web.arch")), t(ctx, "web.legend.arch")],
    [el("span", {}, sample("ftile fk-senate", t(ctx, "web.legend.senate")), sample("ftile fk-bread", t(ctx, "demand.bread")),
      sample("ftile fk-extra", t(ctx, "web.legend.extra")), sample("ftile fk-wild", t(ctx, "web.legend.wild"))), t(ctx, "web.legend.forum_tiles")],
    [el("span", {}, sample("bonus yellow", t(ctx, "board.yellow")), sample("bonus grey", t(ctx, "board.grey"))), t(ctx, "web.legend.sides")],
    [sample("vp-key", "6"), t(ctx, "web.legend.vp")],
  ];
}

// ------------------------------------------------------------------ events in words

const bowlWord = (ctx, b) => (NUMERALS[num(b)] && ACTIONS[num(b) - 1] ?
  t(ctx, "bowl", { numeral: NUMERALS[num(b)], action: actionWord(ctx, ACTIONS[num(b) - 1]) }) : t(ctx, "bowl.plain", { bowl: num(b) }));
const colourList = (ctx, ms) => list(ms).map((m) => word(ctx, "colour", m, "COLOUR_")).join(t(ctx, "sep.colours")) || t(ctx, "markers.none");
const cardList = (ctx, cs) => counted(ctx, list(cs).map((c) => word(ctx, "commodity", c, "COMMODITY_"))) || t(ctx, "none");
const forumList = (ctx, fs) => counted(ctx, list(fs).map((f) => forumWord(ctx, f))) || t(ctx, "none");
const slotWord = (ctx, s) => (num(s) >= 1 && num(s) <= 6 ? t(ctx, "slot", { numeral: NUMERALS[num(s)] }) : t(ctx, "slot.off"));
const seatList = (ctx, seats) => joined(ctx, list(seats).map((s) => ctx.seatName(num(s))));
const ordinal = (ctx, n) => { const k = `ordinal.${n}`; const s = t(ctx, k); return s === k ? t(ctx, "ordinal.other", { n }) : s; };
function stepWord(ctx, s) {
  const kind = enumName(s.kind, "STEP_KIND_");
  if (kind === "action" || kind === "extra_action") {
    return s.action ? t(ctx, `step.${kind}`, { action: word(ctx, "action", s.action, "ACTION_") }) : t(ctx, `step.${kind}.any`);
  }
  return t(ctx, `step.${kind}`);
}

// Words for Trajan's events (the terminal's keys, services/trajan/presentation/describe.py); null lets
// the shell's generic wording speak.
export function describeEvent(item, ctx) {
  const [[kind, e] = []] = Object.entries(item.event || {});
  if (!kind) return null;
  const who = ctx.seatName(num(e.seat));
  const ev = (key, values = {}) => t(ctx, `event.${key}`, { who, ...values });
  const pile = (p) => word(ctx, "pile", p, "PILE_");
  const commodity = (c) => word(ctx, "commodity", c, "COMMODITY_");
  switch (kind) {
    case "gameStarted": return ev("game_started", { seats: num(e.seats), tokens: num(e.tokens), lap: num(e.lap) });
    case "suppliesPrepared": return ev("supplies_prepared", { forum: list(e.forumStack).length, extra: list(e.extraStack).length,
      cards: list(e.deck).length, bonus: list(e.bonusBag).length, demands: list(e.demandPool).length,
      trajan: list(e.trajanStacks).reduce((n, s) => n + list(s.rest).length, 0), stacks: list(e.trajanStacks).length });
    case "constructionTilesPlaced": return ev("construction_tiles_placed", { count: list(e.tiles).length });
    case "provinceTilesPlaced": return ev("province_tiles_placed", { laid: joined(ctx, list(e.provinces).map((p, i) =>
      ev("province_tiles_placed.one", { province: provinceName(ctx, p), tile: forumWord(ctx, list(e.tiles)[i]) }))) });
    case "forumFilled": return ev("forum_filled", { forum: forumList(ctx, e.forumTiles), extra: forumList(ctx, e.extraTiles) });
    case "tokensMoved": {
      const role = { PLACE_WORK_AREA: ".workers", PLACE_CAMP: ".legionnaires" }[e.destination] || "";
      return ev(`tokens_moved${role}`, { figures: count(ctx, "figure", num(e.count)), source: word(ctx, "place", e.source || "PLACE_SUPPLY", "PLACE_"),
        destination: word(ctx, "place", e.destination || "PLACE_SUPPLY", "PLACE_") });
    }
    case "phaseChanged": return ev("phase_changed", { phase: word(ctx, "phase", e.phase, "PHASE_") });
    case "startMarkersPlaced": return ev("start_markers_placed", { colours: colourList(ctx, e.markers), bowl: bowlWord(ctx, e.bowl) });
    case "trajanStackTopRevealed": return ev("trajan_stack_top_revealed", { stack: t(ctx, "stack.plain", { stack: num(e.stack) }), tile: num(e.tile), label: tileWords(ctx, e.tile) });
    case "startPlayerChosen": return ev("start_player_chosen");
    case "senateRestacked": return ev("senate_restacked", { order: seatList(ctx, e.order) });
    case "bonusTileDealt": return ev("bonus_tile_dealt", { tile: num(e.tile), label: bonusWords(ctx, e.tile) });
    case "senateOfferDrawn": return ev("senate_offer_drawn", { tiles: list(e.tiles).map((b) => ev("senate_offer_drawn.one", { tile: num(b), label: bonusWords(ctx, b) })).join("; ") });
    case "commodityFlipped": return ev("commodity_flipped", { commodity: commodity(e.commodity), pile: pile(e.pile) });
    case "commoditiesDrawn": return ev("commodities_drawn", { cards: list(e.cards).length ? cardList(ctx, e.cards) : count(ctx, "card", 0) });
    case "discardTaken": return ev("discard_taken", { commodity: commodity(e.commodity), pile: pile(e.pile) });
    case "trajanTileTaken": return ev("trajan_tile_taken", { tile: num(e.tile), label: tileWords(ctx, e.tile), stack: num(e.stack), slot: slotWord(ctx, e.slot) });
    case "archMoved": return num(e.slot) ? ev("arch_moved", { slot: slotWord(ctx, e.slot) }) : ev("arch_moved.middle");
    case "roundStarted": return ev("round_started", { round: num(e.round) });
    case "turnStarted": return ev("turn_started");
    case "bowlEmptied": return ev("bowl_emptied", { markers: count(ctx, "marker", list(e.markers).length), bowl: bowlWord(ctx, e.bowl), colours: colourList(ctx, e.markers) });
    case "timeAdvanced": return ev("time_advanced", { spaces: count(ctx, "space", num(e.spaces)) });
    case "markerSown": return ev("marker_sown", { marker: t(ctx, `marker.${enumName(e.colour, "COLOUR_")}`), bowl: bowlWord(ctx, e.bowl) });
    case "pendingSet": return list(e.steps).length ? ev("pending_set", { steps: list(e.steps).map((s) => stepWord(ctx, s)).join(t(ctx, "sep.then")) }) : ev("pending_set.none");
    case "trajanTileCompleted": return ev("trajan_tile_completed", { tile: num(e.tile), slot: slotWord(ctx, e.slot), label: tileWords(ctx, e.tile) });
    case "trajanTileKept": return ev("trajan_tile_kept", { tile: num(e.tile) });
    case "pointsScored": {
      const reason = word(ctx, "scored_for", e.reason, "REASON_");
      return num(e.points) < 0 ? ev("points_lost", { points: -num(e.points), reason }) : ev("points_scored", { points: num(e.points), reason });
    }
    case "plusTwoPlaced": return ev("plus_two_placed", { action: word(ctx, "action", e.action, "ACTION_") });
    case "extraActionTileUsed": return ev("extra_action_tile_used", { tile: forumWord(ctx, e.tile) });
    case "commodityDiscarded": return ev("commodity_discarded", { commodity: commodity(e.commodity), pile: pile(e.pile) });
    case "commoditiesDisplayed": return ev("commodities_displayed", { cards: cardList(ctx, e.cards) });
    case "discardsReshuffled": return ev("discards_reshuffled", { cards: count(ctx, "card", list(e.cards).length) });
    case "commodityLoaded": return ev("commodity_loaded", { commodity: commodity(e.commodity) });
    case "wildCommodityLoaded": return ev("wild_commodity_loaded");
    case "shipmentDelivered": return ev("shipment_delivered", { ship: shipWord(ctx, e.ship) });
    case "forumTileTaken": return ev("forum_tile_taken", { tile: forumWord(ctx, e.tile) });
    case "leaderMoved": return ev("leader_moved", { province: provinceName(ctx, e.province) });
    case "provinceTileTaken": return ev("province_tile_taken", { tile: forumWord(ctx, e.tile), province: provinceName(ctx, e.province) });
    case "legionnaireDeployed": return ev("legionnaire_deployed", { province: provinceName(ctx, e.province) });
    case "senateAdvanced": {
      const track = (ctx.content && ctx.content.board && ctx.content.board.senate_track) || SENATE;
      return ev("senate_advanced", { votes: num(track[num(e.space)]) });
    }
    case "workerPlaced": return ev("worker_placed", { site: t(ctx, "site.plain", { site: num(e.site) }) });
    case "constructionTileTaken": {
      const c = constructionTile(ctx, e.tile);
      return ev("construction_tile_taken", { tile: c ? constructionWords(ctx, c) : String(num(e.tile)), site: num(e.site) });
    }
    case "turnEnded": return ev("turn_ended");
    case "roundEnded": return ev("round_ended", { round: num(e.round) });
    case "demandRevealed": return ev("demand_revealed", { demand: word(ctx, "demand", e.demand, "DEMAND_") });
    case "demandChoicesAsked": {
      const seats = list(e.seats);
      if (!seats.length) return ev("demand_choices_asked.none");
      return ev(`demand_choices_asked.${seats.length === 1 ? "one" : "other"}`, { seats: seatList(ctx, seats) });
    }
    case "demandsMet": {
      const payments = list(e.payments);
      if (payments.every((x) => x === "PAYMENT_UNMET")) return ev("demands_met.none", { demands: count(ctx, "demand", payments.length) });
      const paid = joined(ctx, payments.map((x) => word(ctx, "payment", x, "PAYMENT_")));
      return list(e.spent).length ? ev("demands_met.spent", { paid, spent: forumList(ctx, e.spent) }) : ev("demands_met", { paid });
    }
    case "senateScored": {
      const ranking = list(e.ranking).map(num);
      const ranks = joined(ctx, ranking.map((s) => ev("senate_scored.rank", { who: ctx.seatName(s), votes: num(list(e.votes)[s]) })));
      if (ranking.length > 1) return ev("senate_scored.proconsul", { ranks, consul: ctx.seatName(ranking[0]), proconsul: ctx.seatName(ranking[1]) });
      return ranking.length ? ev("senate_scored.consul", { ranks, consul: ctx.seatName(ranking[0]) }) : ev("senate_scored", { ranks });
    }
    case "bonusTileAwarded": return ev(`bonus_tile_awarded.${e.yellow ? "yellow" : "grey"}`, { tile: num(e.tile), label: bonusWords(ctx, e.tile) });
    case "matTilesRemoved": return ev("mat_tiles_removed", { tiles: forumList(ctx, e.tiles) });
    case "forumCleared": return ev("forum_cleared", { tiles: count(ctx, "tile", list(e.tiles).length) });
    case "shipsReset": return ev("ships_reset");
    case "quarterEnded": return ev("quarter_ended", { quarter: num(e.quarter) });
    case "quarterStarted": return ev("quarter_started", { quarter: num(e.quarter) });
    case "finalScored": return ev("final_scored", { scores: joined(ctx, list(e.scores).map((f) => ev("final_scored.one", { who: ctx.seatName(num(f.seat)), total: num(f.total) }))) });
    case "gameEnded": {
      const placings = list(e.placings);
      const order = placings.map((_, s) => s).sort((a, b) => num(placings[a]) - num(placings[b]));
      return ev("game_ended", { placings: joined(ctx, order.map((s) => ev("game_ended.one", { place: ordinal(ctx, num(placings[s])), who: ctx.seatName(s) }))) });
    }
    default: return null;
  }
}

// ------------------------------------------------------------------ the play app's picker

// The questions, as the terminal client asks them (services/trajan/presentation/steps.py: title.<kind>.<field>).
export function stepTitle(kind, field, member, ctx) {
  const key = `title.${kind}.${field}`;
  const title = ctx && ctx.t ? ctx.t(key, {}) : key;
  return title === key ? null : title;
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
    return t(ctx, "web.option.bowl", { numeral: NUMERALS[bowl], markers: count(ctx, "marker", markers), end: NUMERALS[end] || "?",
      action: ACTIONS[end - 1] ? actionWord(ctx, ACTIONS[end - 1]) : "?" });
  }
  if (field === "stack") {
    const top = stackTop(ctx, m.stack);
    return top ? t(ctx, "web.option.stack", { stack: num(m.stack), label: tileWords(ctx, top) }) : t(ctx, "stack.plain", { stack: num(m.stack) });
  }
  if (field === "province") return provinceName(ctx, m.province);
  if (field === "site") {
    const tile = num((siteViews(ctx).get(num(m.site)) || {}).tile);
    const c = constructionTile(ctx, tile);
    return c ? t(ctx, "web.option.site", { site: num(m.site), tile: constructionWords(ctx, c) }) : t(ctx, "site.plain", { site: num(m.site) });
  }
  if (field === "tile" && (kind === "takeForumTile" || kind === "useExtraAction")) return forumWord(ctx, m.tile);
  if (field === "tile" && kind === "chooseBonusTile") return bonusWords(ctx, m.tile);
  if (field === "ship") { const s = shipRecord(ctx, m.ship); return s ? t(ctx, "web.option.ship", { ship: num(m.ship), kind: t(ctx, `ship_kind.${s.kind}`) }) : t(ctx, "ship.unknown", { ship: num(m.ship) }); }
  if (field === "commodity") return word(ctx, "commodity", m.commodity, "COMMODITY_");
  if (field === "pile") return word(ctx, "pile", m.pile, "PILE_");
  if (field === "colour") return word(ctx, "colour", m.colour, "COLOUR_");
  if (kind === "useTrajanEffect" && field === "action") return m.action ? t(ctx, "web.option.beside", { action: word(ctx, "action", m.action, "ACTION_") }) : t(ctx, "web.option.no_action");
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
    return [action, tile ? t(ctx, "web.hint.beside", { tile: said(ctx, "trajanTiles", tile) || tileWords(ctx, tile) }) : ""].filter(Boolean).join(" ") || null;
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
    title: t(ctx, "title.sowing", { bowl: bowlWord(ctx, last) }),
    help: t(ctx, "web.sowing.help"),
    plans: all.map((order) => {
      let sent = 0;
      while (sent < order.length && new Set(order.slice(sent)).size > 1) sent += 1;
      return {
        label: joined(ctx, order.map((c, i) => t(ctx, "option.sow", { numeral: NUMERALS[bowls[i]], colour: word(ctx, "colour", c, "COLOUR_") }))),
        hint: completes(order) ? t(ctx, "web.sowing.wins", { numeral: NUMERALS[last], tile: said(ctx, "trajanTiles", tile) || tileWords(ctx, tile) }) : "",
        commands: order.slice(0, sent).map((c) => byColour.get(c)),
      };
    }),
  };
}
