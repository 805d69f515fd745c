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
//          preacher, art work, Life in Florenza card and track with its text, in the page's language) or null,
//          locale, t(key, values): Florenza's words in the page's language (services/florenza/texts.py, TEXTS;
//          the key itself when it has none), el(tag, attrs, ...children), seatName(seat), chip(seat),
//          tip(node, text): the text shown on hover or tap}
// Every word shown comes from ctx.t: the module's own under web.*, the rest shared with the terminal's
// (event.*, step.*, board.*, final.*, goods.*, enum.*) and the components' names (workshop.<id>.name ...).
// Every workshop, art work, character and Life in Florenza card carries its GetContent text as its hover text.
// A node the picker may offer carries the command field's name: a workshop data-workshop, a district slot
// data-slot, an art work data-work, an artist data-artist, a preacher data-preacher, a cube of the bank or a
// family's data-resource (with data-commands: buying from the bank, selling one's own), data-give, data-get.
// The page's CSP allows no inline style attributes: positions are set through element.style (CSSOM).

const CUBES = ["marble", "wood", "metal", "gold", "fabric", "spices"];
const FINAL = [["certificates", "certificates"], ["prestige", "prestige"], ["titles", "titles"],
  ["resources", "resources"], ["money", "money"], ["unfinishedWorkshops", "unfinished_workshops"],
  ["incompleteWorks", "incomplete_works"], ["emptyAreas", "empty_areas"], ["total", "total"]]; // [field, final.<key>]
const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII"];
const NO_SEAT = -1;

const num = (v) => Number(v ?? 0);
const enumName = (value, prefix) => String(value || "").replace(prefix, "").toLowerCase().replace(/_/g, " ");
const phaseKey = (view) => String(view.game && view.game.phase || "").replace("PHASE_", "");
const buildingKey = (name) => String(name).toLowerCase().replace(/'/g, " ").split(/\s+/).filter(Boolean).join("_");

// ------------------------------------------------------------------ words (ctx.t: the key itself when it has none)
const say = (ctx, key, values) => ctx.t(key, values);
// The key's words, or `fallback` when Florenza declares none under it (a component added without a name).
function sayOr(ctx, key, fallback, values) {
  const text = ctx.t(key, values);
  return text === key ? fallback : text;
}
// `key.one` for a count of 1 where declared, else `key.other`.
function plural(ctx, key, count, values = {}) {
  const one = ctx.t(`${key}.one`, { count, ...values });
  return count === 1 && one !== `${key}.one` ? one : ctx.t(`${key}.other`, { count, ...values });
}
const sep = (ctx) => say(ctx, "list.sep");
// An enum value (PHASE_ART_WORKS) in words: enum.<enum>.<value>.
const enumText = (ctx, enumKey, value, prefix) => {
  const name = enumName(value, prefix);
  return sayOr(ctx, `enum.${enumKey}.${name.replace(/ /g, "_")}`, name);
};
const resourceName = (ctx, kind) => say(ctx, `enum.resource.${kind}`);
const goodsText = (ctx, g) => Object.entries(g || {}).filter(([, n]) => num(n))
  .map(([k, n]) => plural(ctx, `goods.${k}`, num(n))).join(sep(ctx)) || say(ctx, "goods.nothing");
const skillName = (ctx, s) => say(ctx, `skill.${enumName(s, "SKILL_")}`);

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
  const artists = byId(ctx, "artists", "artists"), preachers = byId(ctx, "preachers", "preachers");
  const workshops = byId(ctx, "workshops", "workshops");
  const building = (name) => sayOr(ctx, `building.${buildingKey(name)}.name`, name);
  const workName = (id) => sayOr(ctx, `work.${num(id)}.name`, (works.get(num(id)) || {}).name || `#${id}`);
  return {
    works,
    workshops,
    building,
    workName,
    character: (id) => {
      const found = artists.get(num(id)) || preachers.get(num(id));
      if (!found) return say(ctx, "label.unknown_character", { id });
      return sayOr(ctx, `${artists.has(num(id)) ? "artist" : "preacher"}.${num(id)}.name`, found.name);
    },
    isArtist: (id) => artists.has(num(id)),
    workshop: (id) => {
      const found = workshops.get(num(id));
      return found ? sayOr(ctx, `workshop.${num(id)}.name`, found.name) : say(ctx, "label.unknown_workshop", { id });
    },
    said: (kind, key) => said[kind].get(String(key)) || "",
    work: (id) => {
      const w = works.get(num(id));
      if (!w) return say(ctx, "label.unknown_work", { id });
      const place = w.area === "city" ? building(w.building) : say(ctx, `area.${w.area}`);
      return say(ctx, "label.work", { name: workName(id), place });
    },
  };
}

function effectText(ctx, w) {
  if (!w || !w.effect) return "";
  const e = w.effect;
  if (e.kind === "convert") return say(ctx, "web.effect.convert", { pay: goodsText(ctx, e.pay), gain: goodsText(ctx, e.gain) });
  if (e.kind === "income") return say(ctx, "web.effect.income", { gain: goodsText(ctx, e.gain) });
  return goodsText(ctx, e.gain);
}

// ------------------------------------------------------------------ drawing
function skeleton(root, ctx) {
  const { el } = ctx;
  root.replaceChildren(
    el("section", { id: "summary", class: "fz-summary" }),
    el("section", { class: "fz-city" },
      el("div", { class: "fz-duomo" }, el("h3", { text: say(ctx, "board.duomo") }), el("div", { id: "duomo", class: "fz-works" }),
        el("div", { id: "duomo-pulpit", class: "fz-pulpit" })),
      el("div", { class: "fz-buildings" }, el("h3", { text: say(ctx, "board.city") }), el("div", { id: "buildings", class: "fz-building-list" }))),
    el("section", { class: "fz-row" },
      el("div", { id: "tracks", class: "fz-tracks" }),
      el("div", { id: "market", class: "fz-market" })),
    el("section", { id: "life", class: "fz-life" }),
    el("section", {}, el("h2", { text: say(ctx, "web.families") }), el("div", { id: "players", class: "fz-players" })),
    el("section", { id: "final-scoring", class: "final-scoring", hidden: "" }));
}

const stepText = (ctx, phase) => sayOr(ctx, `web.step.${String(phase || "").replace("PHASE_", "").toLowerCase()}`, enumName(phase, "PHASE_"));

function renderSummary(root, reply, view, ctx) {
  const { el } = ctx;
  const g = view.game || {};
  const toAct = (reply.seatsToAct || []).map((s) => ctx.chip(s));
  const item = (id, label, ...value) => el("div", {}, el("span", { class: "k", text: label }), el("b", { id }, ...value));
  const title = (seat) => (num(seat) === NO_SEAT ? "-" : ctx.chip(seat));
  root.querySelector("#summary").dataset.phase = String(g.phase || "");
  root.querySelector("#summary").replaceChildren(
    item("round", say(ctx, "web.round"), String(num(g.round))),
    item("phase", say(ctx, "web.step"), stepText(ctx, g.phase)),
    item("turn-order", say(ctx, "web.turn_order"), ...(g.turnOrder || []).map((s) => ctx.chip(s))),
    item("captain", say(ctx, "title.captain"), title(g.captain)),
    item("bishop", say(ctx, "title.bishop"), title(g.bishop)),
    item("to-act", say(ctx, "web.to_act"), ...(toAct.length ? toAct : [reply.systemToAct ? say(ctx, "web.the_board") : "-"])));
}

function talents(ctx, skills) {
  const { el } = ctx;
  return el("span", { class: "talents" }, ...(skills || []).map((s) => el("span", { class: `talent talent-${s}`, title: say(ctx, `skill.${s}`), text: say(ctx, `web.talent.${s}`) })));
}

function workCard(ctx, L, spot) {
  const { el } = ctx;
  const w = L.works.get(num(spot.work)) || { skills: [], cost: {}, reward: {} };
  const crest = num(spot.crest), worker = num(spot.worker);
  const state = crest !== NO_SEAT ? "done" : worker !== NO_SEAT ? "hired" : "open";
  const status = crest !== NO_SEAT ? el("div", { class: "status" }, ctx.chip(crest))
    : worker !== NO_SEAT ? el("div", { class: "status" }, ctx.chip(worker), characterName(ctx, L, spot.artist, { class: "artist" }))
      : el("div", { class: "status open", text: say(ctx, "board.open") });
  const reward = [`★ ${num(w.reward.prestige)}`, w.reward.church ? `✝ ${num(w.reward.church)}` : ""].filter(Boolean).join("  ");
  const income = w.income ? say(ctx, "web.per_round", { income: goodsText(ctx, w.income) }) : "";
  return ctx.tip(el("div", { class: `fz-work ${state}`, "data-work": String(spot.work), "data-district": String(spot.district), "data-state": state },
    el("div", { class: "work-head" }, el("b", { text: L.workName(spot.work) }), talents(ctx, w.skills)),
    el("div", { class: "cost", text: goodsText(ctx, w.cost) }),
    el("div", { class: "reward", text: reward + income }),
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
  root.querySelector("#duomo-pulpit").replaceChildren(el("span", { class: "k", text: say(ctx, "web.pulpit") }),
    ...(duomo ? [characterName(ctx, L, duomo.preacher), " ", ctx.chip(duomo.seat)] : [say(ctx, "board.free")]));
  const buildings = new Map();
  for (const s of spots.filter((x) => area(x) === "city")) {
    const name = (L.works.get(num(s.work)) || {}).building || "city";
    buildings.set(name, [...(buildings.get(name) || []), s]);
  }
  root.querySelector("#buildings").replaceChildren(...[...buildings].map(([name, list]) =>
    el("div", { class: "fz-building", "data-building": name }, el("h4", { text: L.building(name) }),
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
  root.querySelector("#tracks").replaceChildren(ctx.el("h3", { text: say(ctx, "web.tracks") }),
    track(ctx, say(ctx, "web.track.prestige"), "prestige", prestige, [low, high], L.said("tracks", "prestige")),
    track(ctx, say(ctx, "web.track.church"), "church", church, [0, Math.max(10, ...church.map(([, v]) => v))],
      L.said("tracks", "church influence")));
}

// A resource's cube and how many; `trades`: the data attributes a tap on it answers (the bank's: buy and get).
function cube(ctx, kind, n, named = false, trades = {}) {
  const { el } = ctx;
  return el("span", { class: `cube cube-${kind}`, "data-cube": kind, title: resourceName(ctx, kind), ...trades }, el("i", {}),
    named ? el("span", { class: "name", text: resourceName(ctx, kind) }) : "", el("b", { text: String(num(n)) }));
}

// A cube's picker attributes: the resource it is (for `commands`) and the exchange field it answers.
const resource = (kind, commands, exchange) => {
  const value = `RESOURCE_${kind.toUpperCase()}`;
  return { "data-resource": value, "data-commands": commands, [exchange]: value };
};

function renderMarket(root, view, ctx, L) {
  const { el } = ctx;
  const g = view.game || {};
  const b = (ctx.content && ctx.content.board && ctx.content.board.board) || {};
  const at = (g.players || []).filter((p) => p.market);
  const supply = new Map();
  for (const id of g.workshopSupply || []) supply.set(num(id), (supply.get(num(id)) || 0) + 1);
  const rates = say(ctx, "web.rates", { sell: b.market_sell ?? 100, buy: b.market_buy ?? 200, give: b.market_exchange_give ?? 2 });
  root.querySelector("#market").replaceChildren(el("h3", { text: say(ctx, "web.market") }),
    el("div", { class: "bank", id: "bank" }, ...CUBES.map((k) => cube(ctx, k, (g.supply || {})[k], true, resource(k, "buyResource exchangeResources", "data-get")))),
    ctx.tip(el("div", { class: "rates", text: rates }),
      ["TRADE_SELL", "TRADE_BUY", "TRADE_EXCHANGE"].map((t) => L.said("trades", t)).filter(Boolean).join(" ")),
    el("div", { class: "at-market" }, el("span", { class: "k", text: say(ctx, "web.at_market") }),
      ...(at.length ? at.map((p) => el("span", { class: "visitor" }, ctx.chip(p.seat),
        (p.trades || []).length ? ` ${(p.trades || []).map((t) => enumText(ctx, "trade", t, "TRADE_")).join(sep(ctx))}` : "")) : [say(ctx, "label.nobody")])),
    el("h3", { class: "supply-head", text: say(ctx, "web.supply", { count: (g.workshopSupply || []).length }) }),
    el("div", { class: "supply", id: "workshop-supply" }, ...[...supply].map(([id, n]) =>
      ctx.tip(el("span", { class: "tile", "data-workshop": String(id) },
        L.workshop(id), n > 1 ? el("sub", { text: `×${n}` }) : ""), L.said("workshops", id) || effectText(ctx, L.workshops.get(id))))));
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
    if (n === 6 && num(g.withheldWorker) !== NO_SEAT) {
      extra.push(el("li", { class: "kept", text: say(ctx, "board.worker_of", { who: ctx.seatName(num(g.withheldWorker)) }) }));
    }
    return el("div", { class: `life-card${n === 6 ? " gendarme" : ""}`, "data-life": String(n) },
      ctx.tip(el("div", { class: "numeral", text: ROMAN[n] }), L.said("life", n)), el("ul", {}, ...here, ...extra));
  });
  root.querySelector("#life").replaceChildren(el("h3", {}, `${say(ctx, "board.life")} `,
    el("span", { class: "sub", text: say(ctx, "web.life_sub", { bag: (g.bag || []).length, gone: (g.departed || []).length }) })),
  el("div", { class: "life-cards" }, ...cards));
}

function slotTile(ctx, L, seat, x, i) {
  const { el } = ctx;
  if (!num(x.workshop)) return el("div", { class: "slot empty", "data-slot": String(i + 1) }, el("span", { class: "n", text: String(i + 1) }));
  const w = L.workshops.get(num(x.workshop));
  return ctx.tip(el("div", { class: `slot ${x.built ? "built" : "planned"}${w && w.effect && w.effect.kind === "income" ? " purple" : ""}`, "data-slot": String(i + 1), "data-workshop": String(num(x.workshop)) },
    el("span", { class: "n", text: String(i + 1) }), el("b", { text: L.workshop(x.workshop) }),
    el("div", { class: "does", text: x.built ? effectText(ctx, w) : say(ctx, "web.planned") }),
    num(x.worker) !== NO_SEAT ? ctx.chip(x.worker) : ""), L.said("workshops", x.workshop));
}

function districtWorks(ctx, L, g, seat, area) {
  const mine = (g.works || []).filter((s) => num(s.district) === seat && (L.works.get(num(s.work)) || {}).area === area);
  const done = mine.filter((s) => num(s.crest) !== NO_SEAT).length;
  return ctx.el("div", { class: `district-works ${area}`, "data-area": area },
    ctx.el("span", { class: "k", text: say(ctx, "web.area_works", { area: say(ctx, `area.${area}`), done, total: mine.length }) }),
    ...mine.map((s) => {
      const state = num(s.crest) !== NO_SEAT ? "done" : num(s.worker) !== NO_SEAT ? "hired" : "open";
      const name = L.workName(s.work);
      const text = state === "hired" ? say(ctx, "web.work_hired", { work: name, artist: L.character(s.artist) }) : name;
      return ctx.tip(ctx.el("span", { class: `dwork ${state}`, "data-work": String(s.work), text }), L.said("works", s.work));
    }));
}

function renderPlayer(p, g, toAct, ctx, L, hidden) {
  const { el } = ctx;
  const seat = num(p.seat);
  const goods = p.goods || {};
  const titles = [num(g.captain) === seat ? "captain" : "", num(g.bishop) === seat ? "bishop" : ""].filter(Boolean);
  const stat = (key, label, value) => el("div", { class: "stat", "data-stat": key }, el("div", { class: "k", text: label }), el("div", { class: "v", text: String(value) }));
  const pulpit = (g.pulpits || []).find((x) => num(x.seat) === seat && !x.duomo);
  return el("div", { class: `player${toAct ? " to-act" : ""}${p.passed ? " passed" : ""}`, "data-seat": String(seat) },
    el("h3", {}, ctx.chip(seat), ...titles.map((t) => el("span", { class: `title title-${t}`, text: say(ctx, `web.title.${t}`) })),
      p.passed ? el("span", { class: "passed-note", text: say(ctx, "board.passed") }) : "",
      toAct ? el("span", { class: "acting", text: say(ctx, "web.acting") }) : ""),
    el("div", { class: "stats" },
      stat("prestige", say(ctx, "board.column.prestige"), num(p.prestige)),
      stat("certificates", say(ctx, "board.column.certificates"), hidden.has(seat) ? "?" : num(p.certificates)),
      stat("church", say(ctx, "board.column.church"), num(p.church)),
      stat("workers", say(ctx, "board.column.workers"), `${num(p.workers)}+${num(p.reserve)}`)),
    el("div", { class: "goods" }, el("span", { class: "good money", "data-good": "money" }, el("span", { class: "v", text: String(num(goods.money)) }), ` ${say(ctx, "web.fiorini")}`),
      ...CUBES.map((k) => el("span", { class: "good", "data-good": k }, cube(ctx, k, goods[k], false, resource(k, "sellResource exchangeResources", "data-give"))))),
    el("div", { class: "district" }, ...(p.district || []).map((x, i) => slotTile(ctx, L, seat, x, i))),
    districtWorks(ctx, L, g, seat, "palazzo"), districtWorks(ctx, L, g, seat, "chiesa"),
    el("div", { class: "pulpit" }, el("span", { class: "k", text: say(ctx, "web.pulpit") }), pulpit ? characterName(ctx, L, pulpit.preacher) : say(ctx, "board.free")));
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
  const heads = ["place", "player", ...FINAL.map(([, key]) => key)].map((key) => say(ctx, `final.${key}`));
  const head = el("tr", {}, ...heads.map((h) => el("th", { text: h })));
  const body = sorted.map((f) => el("tr", { "data-seat": String(num(f.seat)) }, el("td", { text: String(place(num(f.seat))) }),
    el("td", {}, ctx.chip(num(f.seat))), ...FINAL.map(([k]) => el("td", { text: String(num(f[k])) }))));
  box.replaceChildren(el("h2", { text: say(ctx, "final.title") }), el("table", {}, head, ...body));
}

export function render(root, reply, ctx) {
  const view = reply.view || {};
  const g = view.game || {};
  if (!root.querySelector("#duomo")) skeleton(root, ctx);
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
    [talents(ctx, ["painting", "architecture", "sculpture"]), say(ctx, "web.legend.talents")],
    [box("sym-prestige", "★ 4"), say(ctx, "web.legend.prestige")],
    [box("sym-church", "✝ 2"), say(ctx, "web.legend.church")],
    [el("span", {}, box("dwork", say(ctx, "board.open")), box("dwork hired", say(ctx, "web.legend.hired")), box("dwork done", say(ctx, "web.legend.done"))),
      say(ctx, "web.legend.works")],
    [el("span", {}, box("slot-key built", say(ctx, "web.legend.built")), box("slot-key built purple", say(ctx, "web.legend.income")), box("slot-key planned", say(ctx, "web.planned"))),
      say(ctx, "web.legend.slots")],
    [box("stat-key", "3+4"), say(ctx, "web.legend.workers")],
    [el("span", {}, box("life-key artist", say(ctx, "web.legend.artist")), box("life-key preacher", say(ctx, "web.legend.preacher")),
      box("life-key busy", say(ctx, "web.legend.busy")), box("life-key kept", say(ctx, "web.legend.kept"))),
      say(ctx, "web.legend.life")],
    [el("span", {}, ...CUBES.map((k) => el("span", { class: `cube cube-${k}` }, el("i", {}), el("span", { class: "name", text: resourceName(ctx, k) })))),
      say(ctx, "web.legend.resources")],
  ];
}

// ------------------------------------------------------------------ events in words

const signed = (n) => (num(n) > 0 ? `+${num(n)}` : String(num(n)));

// Words for Florenza's events (event.<Name>, as the terminal says them); null lets the shell's generic wording speak.
export function describeEvent(item, ctx) {
  const [[kind, e] = []] = Object.entries(item.event || {});
  if (!kind) return null;
  const L = lookups(ctx);
  const who = ctx.seatName(num(e.seat));  // every event that names "who" has a seat (0 may be left out of the JSON)
  const name = (seat) => ctx.seatName(num(seat));
  const order = (list) => (list || []).map(name).join(sep(ctx));
  const source = enumText(ctx, "source", e.source, "SOURCE_");
  const ev = (key, values = {}) => say(ctx, `event.${key}`, { who, ...values });
  const nobody = say(ctx, "label.nobody");
  switch (kind) {
    case "gameStarted": return ev("GameStarted", { seats: num(e.seats), order: order(e.turnOrder) });
    case "charactersArrived": return ev("CharactersArrived", { arrivals: (e.arrivals || []).map((a) => say(ctx, "label.arrival", { character: L.character(a.character), card: ROMAN[num(a.card)] })).join(sep(ctx)) });
    case "startingWorkshopChosen": return ev("StartingWorkshopChosen", { workshop: L.workshop(e.workshop), slot: num(e.slot) });
    case "startingPoolReturned": return ev("StartingPoolReturned", { workshops: (e.workshops || []).map(L.workshop).join(sep(ctx)) || say(ctx, "label.none") });
    case "roundStarted": return ev("RoundStarted", { round: num(e.round), order: order(e.turnOrder) });
    case "phaseChanged": return ev("PhaseChanged", { phase: stepText(ctx, e.phase) });
    case "turnBegan": return ev("TurnBegan");
    case "incomeDieRolled": return ev("IncomeDieRolled", { face: num(e.face), resource: enumText(ctx, "resource", e.resource, "RESOURCE_") });
    case "goodsGained": return ev("GoodsGained", { goods: goodsText(ctx, e.goods), source });
    case "goodsPaid": return ev("GoodsPaid", { goods: goodsText(ctx, e.goods), source });
    case "prestigeChanged": return ev("PrestigeChanged", { delta: signed(e.delta), source });
    case "churchInfluenceChanged": return ev("ChurchInfluenceChanged", { delta: signed(e.delta), source });
    case "workersGained": return plural(ctx, "event.WorkersGained", num(e.count), { who, source });
    case "workerWithheld": return ev("WorkerWithheld", { captain: name(e.captain), card: say(ctx, "label.life", { roman: ROMAN[6] }) });
    case "artistWithheld": return ev("ArtistWithheld", { captain: name(e.captain), artist: L.character(e.artist) });
    case "workerLured": return ev("WorkerLured", { bishop: name(e.bishop) });
    case "preacherExpelled": return ev("PreacherExpelled", { bishop: name(e.bishop), preacher: L.character(e.preacher) });
    case "privilegeDeclined": return ev("PrivilegeDeclined", { title: say(ctx, e.title === "TITLE_CAPTAIN" ? "title.captain" : e.title === "TITLE_BISHOP" ? "title.bishop" : "title.any") });
    case "workerSentToWorkshop": return ev("WorkerSentToWorkshop", { owner: name(e.owner), slot: num(e.slot) });
    case "workshopPlanned": return ev("WorkshopPlanned", { workshop: L.workshop(e.workshop), slot: num(e.slot) });
    case "artistHired": return ev("ArtistHired", { artist: L.character(e.artist), work: L.work(e.work) });
    case "marketVisited": return ev("MarketVisited");
    case "offeringMade": return ev(e.duomo ? "OfferingMade.duomo" : "OfferingMade", { preacher: L.character(e.preacher) });
    case "diceRolled": return ev("DiceRolled", { dice: (e.dice || []).join(say(ctx, "label.and")), character: L.character(e.character) });
    case "diceChoiceOffered": return ev("DiceChoiceOffered", { chooser: name(e.pending && e.pending.seat) });
    case "dieChosen": return ev("DieChosen", { die: num(e.die) });
    case "placementPassed": return ev(e.forced ? "PlacementPassed.forced" : "PlacementPassed");
    case "marketTraded": return ev("MarketTraded", { paid: goodsText(ctx, e.paid), got: goodsText(ctx, e.got) });
    case "marketLeft": return ev("MarketLeft");
    case "workshopWorked": return num(e.owner) === num(e.seat)
      ? ev("WorkshopWorked", { workshop: L.workshop(e.workshop), slot: num(e.slot) })
      : ev("WorkshopWorked.other", { workshop: L.workshop(e.workshop), slot: num(e.slot), owner: name(e.owner) });
    case "workshopBuilt": return ev("WorkshopBuilt", { workshop: L.workshop(e.workshop), slot: num(e.slot) });
    case "workshopBuildFailed": return ev("WorkshopBuildFailed", { workshop: L.workshop(e.workshop) });
    case "artWorkCompleted": return ev("ArtWorkCompleted", { work: L.work(e.work), artist: L.character(e.artist), talent: skillName(ctx, e.skill) });
    case "artWorkFailed": return ev("ArtWorkFailed", { work: L.work(e.work) });
    case "masterpieceCreated": return ev("MasterpieceCreated", { artist: L.character(e.artist) });
    case "titlesAssigned": return ev("TitlesAssigned", { captain: num(e.captain) === NO_SEAT ? nobody : name(e.captain), bishop: num(e.bishop) === NO_SEAT ? nobody : name(e.bishop) });
    case "prestigeBanked": return ev("PrestigeBanked", { amount: num(e.amount) });
    case "certificatesKeptHidden": return ev("CertificatesKeptHidden");
    case "certificatesTaken": return ev("CertificatesTaken", { amount: num(e.amount) });
    case "prestigeBankedHidden": return ev("PrestigeBankedHidden");
    case "cardinalCreated": return ev("CardinalCreated");
    case "workersReturned": return ev("WorkersReturned");
    case "roundCleared": return ev("RoundCleared");
    case "charactersDeparted": return ev("CharactersDeparted", { characters: (e.characters || []).map((c) => L.character(c)).join(sep(ctx)) || nobody });
    case "lifeShifted": return ev("LifeShifted");
    case "gameScored": return ev("GameScored", { scores: (e.scores || []).map((s) => say(ctx, "label.score", { who: name(s.seat), total: num(s.total) })).join(sep(ctx)) });
    default: return null;
  }
}

// ------------------------------------------------------------------ the play app's picker

// The questions, as the terminal client asks them (step.<Command>.<field>, services/florenza/presentation/steps.py).
export function stepTitle(kind, field, member, ctx) {
  if (!ctx || !kind || !field) return null;
  const key = `step.${kind[0].toUpperCase()}${kind.slice(1)}.${field}`;
  const text = ctx.t(key);
  return text === key ? null : text;
}

// A value of a legal command by its name: a workshop, an artist or preacher, an art work, a pulpit.
export function optionText(kind, field, m, ctx) {
  const look = lookups(ctx);
  if (field === "workshop") return look.workshop(m.workshop);
  if (field === "artist" || field === "preacher") return look.character(m[field]);
  if (field === "work") return look.work(m.work);
  if (field === "duomo") return say(ctx, m.duomo ? "step.duomo_pulpit" : "step.own_pulpit");
  if (field === "owner") return say(ctx, "step.district_of", { who: ctx.seatName(num(m.owner)) });
  if (field === "resource" || field === "give" || field === "get") return enumText(ctx, "resource", m[field], "RESOURCE_");
  if (field === "skill") return skillName(ctx, m.skill);
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
