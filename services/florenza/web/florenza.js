// Florenza on the spectator page: the round and its step, the titles, Florence itself (the Duomo and the six
// city buildings with their art works and who works on them), the prestige and church influence tracks, the
// market and the bank's cubes, the seven Life in Florenza cards, every family's board (workshops, Palazzo,
// Chiesa, pulpit, goods, workers), the final scoring, and the events in words. An ES module loaded by the
// page's shell (services/gateway/static/spectator.js) from /games/florenza/florenza.js; the shell calls
//   render(root, reply, ctx)      for every view it shows,
//   describeEvent(item, ctx)      for every event of the list (a MatchEvent as protobuf JSON), and
//   legend(ctx)                   once per match: [symbol, meaning] rows for the page's legend;
// and the play app (clients/ts/src/play/) also calls, for its step-by-step picker of legal commands,
//   stepTitle(kind, field), optionText(kind, field, member, ctx), optionHint(kind, field, member, ctx)
//                                 a step's question, a command's value in words and its text (null: generic).
//   reply: GetView or Replay as protobuf JSON ({version, view, seatsToAct, systemToAct, outcome})
//   ctx:   {content: GET /content/florenza or null, texts: GetContent's content (every workshop, artist,
//          preacher, art work, Life in Florenza card and track with its English text) or null,
//          el(tag, attrs, ...children), seatName(seat), chip(seat), tip(node, text): the text shown on hover or tap}
// Every workshop, art work, character and Life in Florenza card carries its GetContent text as its hover text.
// A node the picker may offer carries the command field's name: a workshop data-workshop, a district slot
// data-slot, an art work data-work, an artist data-artist, a preacher data-preacher, a cube of the bank or a
// family's data-resource (with data-commands: buying from the bank, selling one's own), data-give, data-get.
// The page's CSP allows no inline style attributes: positions are set through element.style (CSSOM).

const CUBES = ["marble", "wood", "metal", "gold", "fabric", "spices"];
const STEPS = {
  CHOOSE_WORKSHOPS: "setup: starting workshops", INCOME: "1 · income", CAPTAIN: "2 · Captain of the People",
  BISHOP: "3 · Bishop", PLACEMENT: "4 · worker placement", MARKET: "5 · market", DISTRICTS: "6 · district actions",
  ART_WORKS: "7 · art works", ROUND_END: "8–9 · titles, end of round", GAME_END: "final scoring", FINISHED: "game over",
};
const FINAL = [["certificates", "certificates"], ["prestige", "prestige"], ["titles", "titles"],
  ["resources", "resources"], ["money", "fiorini"], ["unfinishedWorkshops", "unfinished workshops"],
  ["incompleteWorks", "incomplete works"], ["emptyAreas", "empty Palazzo/Chiesa"], ["total", "total"]];
const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII"];
const NO_SEAT = -1;

const num = (v) => Number(v ?? 0);
const enumName = (value, prefix) => String(value || "").replace(prefix, "").toLowerCase().replace(/_/g, " ");
const phaseKey = (view) => String(view.game && view.game.phase || "").replace("PHASE_", "");
const goodsText = (g) => Object.entries(g || {}).filter(([, n]) => num(n))
  .map(([k, n]) => `${num(n)} ${k === "money" ? "fiorini" : k === "church" ? "church influence" : k}`).join(", ") || "nothing";

// ------------------------------------------------------------------ content lookups (ids fall back to "#id")
function rows(ctx, file, key) {
  const list = ctx.content && ctx.content[file] && ctx.content[file][key];
  return Array.isArray(list) ? list : [];
}
const byId = (ctx, file, key) => new Map(rows(ctx, file, key).map((r) => [num(r.id), r]));

// GetContent's texts by id (or by another key: life cards by number, tracks by name).
function texts(ctx, key, id = "id") {
  const list = (ctx.texts && ctx.texts[key]) || [];
  return new Map(list.map((r) => [String(r[id] ?? 0), r.text || ""]));
}

function lookups(ctx) {
  const works = byId(ctx, "artworks", "works");
  const said = { works: texts(ctx, "works"), workshops: texts(ctx, "workshops"), life: texts(ctx, "life", "number"),
    tracks: texts(ctx, "tracks", "name"), trades: texts(ctx, "trades", "trade"),
    characters: new Map([...texts(ctx, "artists"), ...texts(ctx, "preachers")]) };
  const characters = new Map([...byId(ctx, "artists", "artists"), ...byId(ctx, "preachers", "preachers")]);
  const workshops = byId(ctx, "workshops", "workshops");
  return {
    works,
    workshops,
    character: (id) => (characters.get(num(id)) || {}).name || `character #${id}`,
    isArtist: (id) => rows(ctx, "artists", "artists").some((a) => num(a.id) === num(id)),
    workshop: (id) => (workshops.get(num(id)) || {}).name || `workshop #${id}`,
    said: (kind, key) => said[kind].get(String(key)) || "",
    work: (id) => {
      const w = works.get(num(id));
      if (!w) return `art work #${id}`;
      return `${w.name} (${w.area === "city" ? w.building : w.area[0].toUpperCase() + w.area.slice(1)})`;
    },
  };
}

function effectText(w) {
  if (!w || !w.effect) return "";
  const e = w.effect;
  if (e.kind === "convert") return `${goodsText(e.pay)} → ${goodsText(e.gain)}`;
  if (e.kind === "income") return `income ${goodsText(e.gain)}`;
  return goodsText(e.gain);
}

// ------------------------------------------------------------------ drawing
function skeleton(root, el) {
  root.replaceChildren(
    el("section", { id: "summary", class: "fz-summary" }),
    el("section", { class: "fz-city" },
      el("div", { class: "fz-duomo" }, el("h3", { text: "The Duomo" }), el("div", { id: "duomo", class: "fz-works" }),
        el("div", { id: "duomo-pulpit", class: "fz-pulpit" })),
      el("div", { class: "fz-buildings" }, el("h3", { text: "The city" }), el("div", { id: "buildings", class: "fz-building-list" }))),
    el("section", { class: "fz-row" },
      el("div", { id: "tracks", class: "fz-tracks" }),
      el("div", { id: "market", class: "fz-market" })),
    el("section", { id: "life", class: "fz-life" }),
    el("section", {}, el("h2", { text: "Families" }), el("div", { id: "players", class: "fz-players" })),
    el("section", { id: "final-scoring", class: "final-scoring", hidden: "" }));
}

function renderSummary(root, reply, view, ctx) {
  const { el } = ctx;
  const g = view.game || {};
  const toAct = (reply.seatsToAct || []).map((s) => ctx.chip(s));
  const item = (id, label, ...value) => el("div", {}, el("span", { class: "k", text: label }), el("b", { id }, ...value));
  const title = (seat) => (num(seat) === NO_SEAT ? "-" : ctx.chip(seat));
  root.querySelector("#summary").dataset.phase = String(g.phase || "");
  root.querySelector("#summary").replaceChildren(
    item("round", "Round", String(num(g.round))),
    item("phase", "Step", STEPS[phaseKey(view)] || enumName(g.phase, "PHASE_")),
    item("turn-order", "Turn order", ...(g.turnOrder || []).map((s) => ctx.chip(s))),
    item("captain", "Captain of the People", title(g.captain)),
    item("bishop", "Bishop", title(g.bishop)),
    item("to-act", "To act", ...(toAct.length ? toAct : [reply.systemToAct ? "the board" : "-"])));
}

function talents(el, skills) {
  return el("span", { class: "talents" }, ...(skills || []).map((s) => el("span", { class: `talent talent-${s}`, title: s, text: s[0].toUpperCase() })));
}

function workCard(ctx, L, spot) {
  const { el } = ctx;
  const w = L.works.get(num(spot.work)) || { name: `#${spot.work}`, skills: [], cost: {}, reward: {} };
  const crest = num(spot.crest), worker = num(spot.worker);
  const state = crest !== NO_SEAT ? "done" : worker !== NO_SEAT ? "hired" : "open";
  const status = crest !== NO_SEAT ? el("div", { class: "status" }, ctx.chip(crest))
    : worker !== NO_SEAT ? el("div", { class: "status" }, ctx.chip(worker), characterName(ctx, L, spot.artist, { class: "artist" }))
      : el("div", { class: "status open", text: "open" });
  const reward = [`★ ${num(w.reward.prestige)}`, w.reward.church ? `✝ ${num(w.reward.church)}` : ""].filter(Boolean).join("  ");
  return ctx.tip(el("div", { class: `fz-work ${state}`, "data-work": String(spot.work), "data-district": String(spot.district), "data-state": state },
    el("div", { class: "work-head" }, el("b", { text: w.name }), talents(el, w.skills)),
    el("div", { class: "cost", text: goodsText(w.cost) }),
    el("div", { class: "reward", text: reward + (w.income ? ` · +${goodsText(w.income)}/round` : "") }),
    status), L.said("works", spot.work));
}

// A character's name with its text on hover.
const characterName = (ctx, L, id, attrs = {}, tag = "span") =>
  ctx.tip(ctx.el(tag, { ...attrs, text: L.character(id) }), L.said("characters", num(id)));

function renderCity(root, view, ctx, L) {
  const { el } = ctx;
  const g = view.game || {};
  const spots = (g.works || []).filter((s) => num(s.district) === NO_SEAT);
  const area = (s) => (L.works.get(num(s.work)) || {}).area;
  root.querySelector("#duomo").replaceChildren(...spots.filter((s) => area(s) === "duomo").map((s) => workCard(ctx, L, s)));
  const duomo = (g.pulpits || []).find((p) => p.duomo);
  root.querySelector("#duomo-pulpit").replaceChildren(el("span", { class: "k", text: "pulpit: " }),
    ...(duomo ? [characterName(ctx, L, duomo.preacher), " ", ctx.chip(duomo.seat)] : ["free"]));
  const buildings = new Map();
  for (const s of spots.filter((x) => area(x) === "city")) {
    const name = (L.works.get(num(s.work)) || {}).building || "city";
    buildings.set(name, [...(buildings.get(name) || []), s]);
  }
  root.querySelector("#buildings").replaceChildren(...[...buildings].map(([name, list]) =>
    el("div", { class: "fz-building", "data-building": name }, el("h4", { text: name }),
      el("div", { class: "fz-works" }, ...list.map((s) => workCard(ctx, L, s))))));
}

// A track as one lane per family: its chip at its value along the scale, the value beside it.
function track(ctx, label, id, values, scale, text) {
  const { el } = ctx;
  const [low, high] = scale;
  const lanes = values.map(([seat, value]) => {
    const marker = el("div", { class: "marker", "data-seat": String(seat) }, ctx.chip(seat), el("span", { class: "n", text: String(value) }));
    marker.style.setProperty("--at", `${(Math.max(0, Math.min(1, (value - low) / (high - low))) * 100).toFixed(1)}%`);
    return el("div", { class: "lane" }, marker);
  });
  const ticks = el("div", { class: "ticks" }, el("span", { text: String(low) }), el("span", { text: String(high) }));
  return ctx.tip(el("div", { class: "track-box", "data-track": id }, el("div", { class: "k", text: label }),
    el("div", { class: "track" }, ...lanes), ticks), text);
}

function renderTracks(root, view, ctx, L) {
  const players = (view.game && view.game.players) || [];
  const prestige = players.map((p) => [num(p.seat), num(p.prestige)]);
  const church = players.map((p) => [num(p.seat), num(p.church)]);
  const low = Math.min(0, ...prestige.map(([, v]) => v)), high = Math.max(20, ...prestige.map(([, v]) => v));
  root.querySelector("#tracks").replaceChildren(ctx.el("h3", { text: "Tracks" }),
    track(ctx, "Prestige (the Captain of the People banks his)", "prestige", prestige, [low, high], L.said("tracks", "prestige")),
    track(ctx, "Church influence (10: Cardinal)", "church", church, [0, Math.max(10, ...church.map(([, v]) => v))],
      L.said("tracks", "church")));
}

// A resource's cube and how many; `trades`: the data attributes a tap on it answers (the bank's: buy and get).
function cube(el, kind, n, named = false, trades = {}) {
  return el("span", { class: `cube cube-${kind}`, "data-cube": kind, title: kind, ...trades }, el("i", {}),
    named ? el("span", { class: "name", text: kind }) : "", el("b", { text: String(num(n)) }));
}

// A cube's picker attributes: the resource it is (for `commands`) and the exchange field it answers.
const resource = (kind, commands, exchange) => {
  const value = `RESOURCE_${kind.toUpperCase()}`;
  return { "data-resource": value, "data-commands": commands, [exchange]: value };
};

function renderMarket(root, view, ctx, L) {
  const { el } = ctx;
  const g = view.game || {};
  const at = (g.players || []).filter((p) => p.market);
  const supply = new Map();
  for (const id of g.workshopSupply || []) supply.set(num(id), (supply.get(num(id)) || 0) + 1);
  root.querySelector("#market").replaceChildren(el("h3", { text: "Market and bank" }),
    el("div", { class: "bank", id: "bank" }, ...CUBES.map((k) => cube(el, k, (g.supply || {})[k], true, resource(k, "buyResource exchangeResources", "data-get")))),
    ctx.tip(el("div", { class: "rates", text: "sell one for 100 · buy one for 200 · 2 alike for 1 other" }),
      ["TRADE_SELL", "TRADE_BUY", "TRADE_EXCHANGE"].map((t) => L.said("trades", t)).filter(Boolean).join(" ")),
    el("div", { class: "at-market" }, el("span", { class: "k", text: "at the market: " }),
      ...(at.length ? at.map((p) => el("span", { class: "visitor" }, ctx.chip(p.seat),
        (p.trades || []).length ? ` ${(p.trades || []).map((t) => enumName(t, "TRADE_")).join(", ")}` : "")) : ["nobody"])),
    el("h3", { class: "supply-head", text: `Workshop supply (${(g.workshopSupply || []).length} tiles)` }),
    el("div", { class: "supply", id: "workshop-supply" }, ...[...supply].map(([id, n]) =>
      ctx.tip(el("span", { class: "tile", "data-workshop": String(id) },
        L.workshop(id), n > 1 ? el("sub", { text: `×${n}` }) : ""), L.said("workshops", id) || effectText(L.workshops.get(id))))));
}

function renderLife(root, view, ctx, L) {
  const { el } = ctx;
  const g = view.game || {};
  const busy = new Set([...(g.works || []).map((w) => num(w.artist)), ...(g.pulpits || []).map((p) => num(p.preacher))]);
  const cards = [1, 2, 3, 4, 5, 6, 7].map((n) => {
    const here = (g.present || []).filter((x) => num(x.card) === n).map((x) => {
      const id = num(x.character);
      const cls = [L.isArtist(id) ? "artist" : "preacher", busy.has(id) ? "busy" : "",
        id === num(g.withheldArtist) || id === num(g.expelled) ? "kept" : ""].filter(Boolean).join(" ");
      return characterName(ctx, L, id, { class: cls, "data-character": String(id), [L.isArtist(id) ? "data-artist" : "data-preacher"]: String(id) }, "li");
    });
    const extra = [];
    if (n === 6 && num(g.withheldWorker) !== NO_SEAT) extra.push(el("li", { class: "kept" }, "a worker of ", ctx.chip(g.withheldWorker)));
    return el("div", { class: `life-card${n === 6 ? " gendarme" : ""}`, "data-life": String(n) },
      ctx.tip(el("div", { class: "numeral", text: ROMAN[n] }), L.said("life", n)), el("ul", {}, ...here, ...extra));
  });
  root.querySelector("#life").replaceChildren(el("h3", {}, "Life in Florenza ",
    el("span", { class: "sub", text: `· in the bag ${(g.bag || []).length} · gone ${(g.departed || []).length}` })),
  el("div", { class: "life-cards" }, ...cards));
}

function slotTile(ctx, L, seat, x, i) {
  const { el } = ctx;
  if (!num(x.workshop)) return el("div", { class: "slot empty", "data-slot": String(i + 1) }, el("span", { class: "n", text: String(i + 1) }));
  const w = L.workshops.get(num(x.workshop));
  return ctx.tip(el("div", { class: `slot ${x.built ? "built" : "planned"}${w && w.effect && w.effect.kind === "income" ? " purple" : ""}`, "data-slot": String(i + 1), "data-workshop": String(num(x.workshop)) },
    el("span", { class: "n", text: String(i + 1) }), el("b", { text: L.workshop(x.workshop) }),
    el("div", { class: "does", text: x.built ? effectText(w) : "planned" }),
    num(x.worker) !== NO_SEAT ? ctx.chip(x.worker) : ""), L.said("workshops", x.workshop));
}

function districtWorks(ctx, L, g, seat, area) {
  const mine = (g.works || []).filter((s) => num(s.district) === seat && (L.works.get(num(s.work)) || {}).area === area);
  return ctx.el("div", { class: `district-works ${area}`, "data-area": area },
    ctx.el("span", { class: "k", text: `${area === "palazzo" ? "Palazzo" : "Chiesa"} ${mine.filter((s) => num(s.crest) !== NO_SEAT).length}/${mine.length}` }),
    ...mine.map((s) => {
      const state = num(s.crest) !== NO_SEAT ? "done" : num(s.worker) !== NO_SEAT ? "hired" : "open";
      const w = L.works.get(num(s.work)) || { name: `#${s.work}` };
      const text = state === "hired" ? `${w.name} · ${L.character(s.artist)}` : w.name;
      return ctx.tip(ctx.el("span", { class: `dwork ${state}`, "data-work": String(s.work), text }), L.said("works", s.work));
    }));
}

function renderPlayer(p, g, toAct, ctx, L, hidden) {
  const { el } = ctx;
  const seat = num(p.seat);
  const goods = p.goods || {};
  const titles = [num(g.captain) === seat ? "Captain" : "", num(g.bishop) === seat ? "Bishop" : ""].filter(Boolean);
  const stat = (key, label, value) => el("div", { class: "stat", "data-stat": key }, el("div", { class: "k", text: label }), el("div", { class: "v", text: String(value) }));
  const pulpit = (g.pulpits || []).find((x) => num(x.seat) === seat && !x.duomo);
  return el("div", { class: `player${toAct ? " to-act" : ""}${p.passed ? " passed" : ""}`, "data-seat": String(seat) },
    el("h3", {}, ctx.chip(seat), ...titles.map((t) => el("span", { class: `title title-${t.toLowerCase()}`, text: t })),
      p.passed ? el("span", { class: "passed-note", text: "passed" }) : "", toAct ? el("span", { class: "acting", text: "to act" }) : ""),
    el("div", { class: "stats" },
      stat("prestige", "prestige", num(p.prestige)), stat("certificates", "certificates", hidden.has(seat) ? "?" : num(p.certificates)),
      stat("church", "church", num(p.church)), stat("workers", "workers", `${num(p.workers)}+${num(p.reserve)}`)),
    el("div", { class: "goods" }, el("span", { class: "good money", "data-good": "money" }, el("span", { class: "v", text: String(num(goods.money)) }), " fiorini"),
      ...CUBES.map((k) => el("span", { class: "good", "data-good": k }, cube(el, k, goods[k], false, resource(k, "sellResource exchangeResources", "data-give"))))),
    el("div", { class: "district" }, ...(p.district || []).map((x, i) => slotTile(ctx, L, seat, x, i))),
    districtWorks(ctx, L, g, seat, "palazzo"), districtWorks(ctx, L, g, seat, "chiesa"),
    el("div", { class: "pulpit" }, el("span", { class: "k", text: "pulpit: " }), pulpit ? characterName(ctx, L, pulpit.preacher) : "free"));
}

function renderFinal(root, view, ctx) {
  const { el } = ctx;
  const g = view.game || {};
  const box = root.querySelector("#final-scoring");
  const finals = g.final || [];
  box.hidden = !finals.length;
  if (!finals.length) return;
  const place = (seat) => num((g.placings || [])[seat]);
  const sorted = [...finals].sort((a, b) => place(num(a.seat)) - place(num(b.seat)));
  const head = el("tr", {}, ...["place", "player", ...FINAL.map(([, t]) => t)].map((h) => el("th", { text: h })));
  const body = sorted.map((f) => el("tr", { "data-seat": String(num(f.seat)) }, el("td", { text: String(place(num(f.seat))) }),
    el("td", {}, ctx.chip(num(f.seat))), ...FINAL.map(([k]) => el("td", { text: String(num(f[k])) }))));
  box.replaceChildren(el("h2", { text: "Final scoring" }), el("table", {}, head, ...body));
}

export function render(root, reply, ctx) {
  const view = reply.view || {};
  const g = view.game || {};
  if (!root.querySelector("#duomo")) skeleton(root, ctx.el);
  const L = lookups(ctx);
  const toAct = new Set(reply.seatsToAct || []);
  renderSummary(root, reply, view, ctx);
  renderCity(root, view, ctx, L);
  renderTracks(root, view, ctx, L);
  renderMarket(root, view, ctx, L);
  renderLife(root, view, ctx, L);
  const hidden = new Set((view.hiddenCertificates || []).map(num)); // others' certificates, until the end
  root.querySelector("#players").replaceChildren(...(g.players || []).map((p) => renderPlayer(p, g, toAct.has(num(p.seat)), ctx, L, hidden)));
  renderFinal(root, view, ctx);
}

// ------------------------------------------------------------------ the legend

export function legend(ctx) {
  const { el } = ctx;
  const box = (cls, text) => el("span", { class: cls, text });
  return [
    [talents(el, ["painting", "architecture", "sculpture"]), "the talents an art work needs: P painting, A architecture, S sculpture"],
    [box("sym-prestige", "★ 4"), "prestige the art work gives"],
    [box("sym-church", "✝ 2"), "church influence it gives"],
    [el("span", {}, box("dwork", "open"), box("dwork hired", "hired"), box("dwork done", "done")),
      "an art work: open, an artist hired for it, completed (the family's chip)"],
    [el("span", {}, box("slot-key built", "built"), box("slot-key built purple", "income"), box("slot-key planned", "planned")),
      "a district space's workshop: built, built and paying each round, planned (not yet paid for)"],
    [box("stat-key", "3+4"), "workers: on the family's board + in reserve"],
    [el("span", {}, box("life-key artist", "artist"), box("life-key preacher", "preacher"), box("life-key busy", "busy"), box("life-key kept", "held back")),
      "Life in Florenza: an artist, a preacher, working elsewhere this round, held back or expelled"],
    [el("span", {}, ...CUBES.map((k) => el("span", { class: `cube cube-${k}` }, el("i", {}), el("span", { class: "name", text: k })))),
      "the six resources (the number beside a cube: how many)"],
  ];
}

// ------------------------------------------------------------------ events in words

const SOURCES = { SOURCE_INCOME_DIE: "the income die", SOURCE_DIE_COMPENSATION: "the sold-out die", SOURCE_WORKSHOP_FEE: "another's workshop",
  SOURCE_ART_WORK_FAILURE: "a failed art work", SOURCE_UNPAID_ARTIST: "an unpaid artist", SOURCE_ARTIST_DIE: "the artist's die",
  SOURCE_FAILED_CONSTRUCTION: "a failed build", SOURCE_WORK_INCOME: "an art work's income", SOURCE_WORKSHOP_INCOME: "a purple workshop" };
const source = (s) => SOURCES[s] || enumName(s, "SOURCE_");
const signed = (n) => (num(n) > 0 ? `+${num(n)}` : String(num(n)));

// Words for Florenza's events; null lets the shell's generic wording speak.
export function describeEvent(item, ctx) {
  const [[kind, e] = []] = Object.entries(item.event || {});
  if (!kind) return null;
  const L = lookups(ctx);
  const who = ctx.seatName(num(e.seat));  // every event that names "who" has a seat (0 may be left out of the JSON)
  const order = (list) => (list || []).map((s) => ctx.seatName(num(s))).join(", ");
  switch (kind) {
    case "gameStarted": return `The game starts with ${num(e.seats)} families; turn order ${order(e.turnOrder)}`;
    case "charactersArrived": return `Arrived in Florence: ${(e.arrivals || []).map((a) => `${L.character(a.character)} (${ROMAN[num(a.card)]})`).join(", ")}`;
    case "startingWorkshopChosen": return `${who} chose ${L.workshop(e.workshop)} as a starting workshop (space ${num(e.slot)})`;
    case "startingPoolReturned": return "The starting workshops nobody chose go back to the supply";
    case "roundStarted": return `Round ${num(e.round)} begins; turn order ${order(e.turnOrder)}`;
    case "phaseChanged": return `Step: ${STEPS[String(e.phase).replace("PHASE_", "")] || enumName(e.phase, "PHASE_")}`;
    case "turnBegan": return `${who} is to act`;
    case "incomeDieRolled": return `The income die shows ${num(e.face)}: everybody takes ${enumName(e.resource, "RESOURCE_")}`;
    case "goodsGained": return `${who} gained ${goodsText(e.goods)} (${source(e.source)})`;
    case "goodsPaid": return `${who} paid ${goodsText(e.goods)} (${source(e.source)})`;
    case "prestigeChanged": return `${who} ${signed(e.delta)} prestige (${source(e.source)})`;
    case "churchInfluenceChanged": return `${who} ${signed(e.delta)} church influence (${source(e.source)})`;
    case "workersGained": return `${who} +${num(e.count)} worker${num(e.count) === 1 ? "" : "s"} (${source(e.source)})`;
    case "workerWithheld": return `${ctx.seatName(num(e.captain))}, Captain of the People, holds back a worker of ${who}`;
    case "artistWithheld": return `${ctx.seatName(num(e.captain))}, Captain of the People, holds back ${L.character(e.artist)}`;
    case "workerLured": return `${ctx.seatName(num(e.bishop))}, the Bishop, lures away a worker of ${who}`;
    case "preacherExpelled": return `${ctx.seatName(num(e.bishop))}, the Bishop, expels ${L.character(e.preacher)} for the round`;
    case "privilegeDeclined": return `${who} uses no privilege as ${e.title === "TITLE_CAPTAIN" ? "Captain of the People" : "Bishop"}`;
    case "workerSentToWorkshop": return `${who} sent a worker to ${ctx.seatName(num(e.owner))}'s workshop in space ${num(e.slot)}`;
    case "workshopPlanned": return `${who} planned ${L.workshop(e.workshop)} in space ${num(e.slot)}`;
    case "artistHired": return `${who} hired ${L.character(e.artist)} for ${L.work(e.work)}`;
    case "marketVisited": return `${who} sent a worker to the market`;
    case "offeringMade": return `${who} made an offering to ${L.character(e.preacher)}${e.duomo ? " in the Duomo" : ""}`;
    case "diceRolled": return `${who} rolled ${(e.dice || []).join(" and ")} for ${L.character(e.character)}`;
    case "diceChoiceOffered": return `${ctx.seatName(num(e.pending && e.pending.seat))} keeps one of the two dice`;
    case "dieChosen": return `${who} kept the ${num(e.die)}`;
    case "placementPassed": return `${who} passed${e.forced ? " (no worker left)" : ""}`;
    case "marketTraded": return `${who} traded ${goodsText(e.paid)} for ${goodsText(e.got)}`;
    case "marketLeft": return `${who} left the market`;
    case "workshopWorked": return `${L.workshop(e.workshop)} in ${ctx.seatName(num(e.owner))}'s space ${num(e.slot)} worked for ${who}`;
    case "workshopBuilt": return `${who} built ${L.workshop(e.workshop)}`;
    case "workshopBuildFailed": return `${who} could not pay for ${L.workshop(e.workshop)}`;
    case "artWorkCompleted": return `${who} completed ${L.work(e.work)} with ${L.character(e.artist)} (${enumName(e.skill, "SKILL_")})`;
    case "artWorkFailed": return `${who} could not pay for ${L.work(e.work)}`;
    case "masterpieceCreated": return `${L.character(e.artist)} made a masterpiece for ${who}`;
    case "titlesAssigned": return `Captain of the People: ${num(e.captain) === NO_SEAT ? "nobody" : ctx.seatName(num(e.captain))}; Bishop: ${num(e.bishop) === NO_SEAT ? "nobody" : ctx.seatName(num(e.bishop))}`;
    case "prestigeBanked": return `${who} banks ${num(e.amount)} prestige as certificates`;
    case "certificatesKeptHidden": return "Each family's certificates stay hidden from the others until the final scoring";
    case "certificatesTaken": return `${who} banks ${num(e.amount)} prestige as certificates (seen by ${who} alone)`;
    case "prestigeBankedHidden": return `${who} banks the prestige track as hidden certificates; the track goes back to 0`;
    case "cardinalCreated": return `${who} is made Cardinal`;
    case "workersReturned": return `${who}'s workers go home`;
    case "roundCleared": return "Withheld and expelled characters and the preachers go back to their cards";
    case "charactersDeparted": return `Leaving Florence: ${(e.characters || []).map((c) => L.character(c)).join(", ")}`;
    case "lifeShifted": return "Life in Florenza moves on: every character one card to the left";
    case "gameScored": return `The game ends: ${(e.scores || []).map((s) => `${ctx.seatName(num(s.seat))} ${num(s.total)}`).join(", ")}`;
    default: return null;
  }
}

// ------------------------------------------------------------------ the play app's picker

// The questions, as the terminal client asks them (services/florenza/presentation/steps.py).
const TITLES = {
  "chooseStartingWorkshop.workshop": "Which starting workshop?", "withholdWorker.seat": "Whose worker do you hold back?",
  "withholdArtist.artist": "Which artist do you hold back?", "lureWorker.seat": "Whose worker do you lure away?",
  "expelPreacher.preacher": "Which preacher do you expel?", "workWorkshop.owner": "Whose workshop?",
  "workWorkshop.slot": "Which workshop?", "planWorkshop.workshop": "Which workshop do you plan?",
  "hireArtist.work": "For which art work?", "hireArtist.artist": "Which artist?", "makeOffering.preacher": "To which preacher?",
  "makeOffering.duomo": "On which pulpit?", "chooseDie.die": "Which die do you keep?",
  "sellResource.resource": "Sell which resource?", "buyResource.resource": "Buy which resource?",
  "exchangeResources.give": "Give two of which resource?", "exchangeResources.get": "For one of which?",
  "completeArtWork.work": "Which art work do you complete?", "completeArtWork.skill": "With which talent?",
};

export function stepTitle(kind, field) {
  return TITLES[`${kind}.${field}`] || null;
}

// A value of a legal command by its name: a workshop, an artist or preacher, an art work, a pulpit.
export function optionText(kind, field, m, ctx) {
  const look = lookups(ctx);
  if (field === "workshop") return look.workshop(m.workshop);
  if (field === "artist" || field === "preacher") return look.character(m[field]);
  if (field === "work") return look.work(m.work);
  if (field === "duomo") return m.duomo ? "the Duomo's pulpit (two dice, keep one)" : "your own pulpit";
  if (field === "owner") return `${ctx.seatName(num(m.owner))}'s district`;
  return null;
}

// What it costs and does, under its option: the component's GetContent text.
export function optionHint(kind, field, m, ctx) {
  const look = lookups(ctx);
  if (field === "workshop") return look.said("workshops", num(m.workshop)) || null;
  if (field === "artist" || field === "preacher") return look.said("characters", num(m[field])) || null;
  if (field === "work") return look.said("works", num(m.work)) || null;
  return null;
}
