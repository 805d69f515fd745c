// Lorenzo il Magnifico on the spectator page: summary, the four towers, action spaces, personal boards and
// the final scoring. An ES module loaded by the page's shell (services/gateway/static/spectator.js) from
// /games/lorenzo/lorenzo.js; the shell calls render(root, reply, ctx) for every view it shows.
//   root:  the element to draw into (this module owns its content)
//   reply: GetView or Replay as protobuf JSON ({version, view, seatsToAct, systemToAct, outcome})
//   ctx:   {content: GET /content/lorenzo or null, el(tag, attrs, ...children)}

const GOODS = ["coins", "wood", "stone", "servants", "military", "faith", "victory"];
const CARD_LISTS = ["territories", "characters", "buildings", "ventures"];
const FINAL = ["before", "territories", "characters", "ventures", "military", "resources", "penalty", "total"];

const num = (v) => Number(v || 0);
// {coins: 5, privileges: 2} -> "5 coins, 2 privileges" (as the content tables write goods)
const goodsText = (goods) => Object.entries(goods).map(([k, n]) => `${n} ${n === 1 ? k.replace(/s$/, "") : k}`).join(", ");
const enumName = (value, prefix) => String(value || "").replace(prefix, "").toLowerCase().replace(/_/g, " ");

function table(ctx, file, key) {
  const rows = ctx.content && ctx.content[file] && ctx.content[file][key];
  return new Map((rows || []).map((r) => [Number(r.id), r]));
}
const named = (ctx, file, key, what) => (id) => {
  const record = table(ctx, file, key).get(Number(id));
  return record && record.name ? record.name : `${what} #${id}`;
};

function towerSpaces(ctx) {
  const spaces = [...table(ctx, "board", "spaces").values()].filter((s) => s.kind === "tower");
  if (spaces.length) return spaces;
  // Without content tables: the printed board's order, four floors per tower.
  const kinds = ["territory", "character", "building", "venture"];
  return Array.from({ length: 16 }, (_, i) => ({ id: i + 1, tower: kinds[Math.floor(i / 4)], floor: (i % 4) + 1 }));
}

function skeleton(root, el) {
  root.replaceChildren(
    el("section", { id: "summary", class: "summary" }),
    el("section", {}, el("h2", { text: "Towers" }), el("div", { id: "towers", class: "towers" }),
      el("div", { id: "spaces", class: "spaces" })),
    el("section", {}, el("h2", { text: "Players" }), el("div", { id: "players", class: "players" })),
    el("section", { id: "final-scoring", class: "final-scoring", hidden: "" }));
}

function renderSummary(root, reply, view, el) {
  const toAct = (reply.seatsToAct || []).join(", ") || (reply.systemToAct ? "system" : "-");
  const items = [
    ["round", "Round", view.round], ["period", "Period", view.period],
    ["phase", "Phase", enumName(view.phase, "PHASE_")], ["to-act", "To act", toAct],
    ["dice", "Dice (black, white, orange)", (view.dice || []).join(" · ") || "-"],
    ["turn-order", "Turn order", (view.turnOrder || []).map((s) => `seat ${s}`).join(", ")],
  ];
  root.querySelector("#summary").replaceChildren(...items.map(([id, label, value]) =>
    el("div", {}, el("span", { text: label }), el("b", { id, text: String(value) }))));
}

const occupantText = (o) => `seat ${o.seat} (${enumName(o.member, "MEMBER_")})`;

function renderTowers(root, view, ctx) {
  const { el } = ctx;
  const cardName = named(ctx, "cards", "cards", "card");
  const cards = view.towers || [];
  const bySpace = new Map();
  for (const o of view.occupants || []) bySpace.set(o.space, [...(bySpace.get(o.space) || []), o]);
  const towers = new Map();
  for (const space of towerSpaces(ctx)) towers.set(space.tower, [...(towers.get(space.tower) || []), space]);
  root.querySelector("#towers").replaceChildren(...[...towers].map(([name, spaces]) => {
    const floors = spaces.sort((a, b) => b.floor - a.floor).map((space) => {
      const card = num(cards[space.id - 1]);
      const occupants = (bySpace.get(space.id) || []).map(occupantText).join(", ");
      return el("div", { class: `floor${card ? "" : " empty"}${occupants ? " occupied" : ""}`, "data-space": String(space.id) },
        el("span", { class: "value", text: `floor ${space.floor}` + (space.value ? ` · ${space.value}` : "") }),
        el("div", { class: "card", text: card ? cardName(card) : "(empty)" }),
        el("div", { class: "occupant", text: occupants }));
    });
    return el("div", { class: "tower", "data-tower": name }, el("h3", { text: name }), ...floors);
  }));
  // Market, council and work spaces; those covered with fewer players (min_players) are left out.
  const seats = (view.players || []).length;
  const others = [...table(ctx, "board", "spaces").values()]
    .filter((s) => s.kind !== "tower" && (s.min_players || 2) <= seats);
  root.querySelector("#spaces").replaceChildren(...others.map((s) => {
    const list = bySpace.get(s.id) || [];
    const name = s.kind === "council" ? "council palace" : s.kind + (s.modifier ? ` (large, ${s.modifier})` : "");
    const label = `${name}${s.kind === "market" && s.bonus ? ": " + goodsText(s.bonus) : ""}`;
    return el("div", { class: `space${list.length ? " occupied" : ""}`, "data-space": String(s.id) },
      el("span", { class: "k", text: label }),
      el("span", { class: "occupant", text: list.map(occupantText).join(", ") || "-" }));
  }));
}

function renderPlayer(p, toAct, ctx) {
  const { el } = ctx;
  const cardName = named(ctx, "cards", "cards", "card");
  const leaderName = named(ctx, "leaders", "leaders", "leader");
  const goods = p.goods || {};
  const grid = el("div", { class: "goods" },
    ...GOODS.map((k) => el("div", { "data-good": k },
      el("div", { class: "k", text: k }), el("div", { class: "v", text: String(num(goods[k])) }))));
  const cards = el("div", { class: "cards" }, ...CARD_LISTS.map((k) =>
    el("div", { "data-cards": k }, el("span", { class: "k", text: `${k} (${(p[k] || []).length}):` }),
      (p[k] || []).map(cardName).join(", ") || "-")));
  const excommunications = table(ctx, "excommunications", "tiles");
  const tileCode = (id) => (excommunications.get(Number(id)) || {}).code || `#${id}`;
  cards.append(
    el("div", {}, el("span", { class: "k", text: "leaders played:" }),
      (p.played || []).map((l) => leaderName(l.leader)).join(", ") || "-"),
    el("div", {}, el("span", { class: "k", text: "in hand:" }), `${num(p.handSize)} leaders`),
    el("div", {}, el("span", { class: "k", text: "family placed:" }),
      (p.placed || []).map((m) => enumName(m, "MEMBER_")).join(", ") || "-"),
    el("div", {}, el("span", { class: "k", text: "excommunications:" }),
      (p.excommunications || []).map(tileCode).join(", ") || "-"));
  const title = `Seat ${p.seat}` + (toAct ? " · to act" : "");
  return el("div", { class: `player${toAct ? " to-act" : ""}`, "data-seat": String(p.seat) },
    el("h3", { text: title }), grid, cards);
}

function renderFinal(root, view, el) {
  const box = root.querySelector("#final-scoring");
  const finals = view.final || [];
  box.hidden = !finals.length;
  if (!finals.length) return;
  const head = el("tr", {}, ...["seat", ...FINAL].map((h) => el("th", { text: h })));
  const rows = finals.map((f) => el("tr", {}, ...[f.seat, ...FINAL.map((k) => f[k])]
    .map((v) => el("td", { text: String(v ?? 0) }))));
  box.replaceChildren(el("b", { text: "Final scoring" }), el("table", {}, head, ...rows));
}

export function render(root, reply, ctx) {
  const view = reply.view || {};
  if (!root.querySelector("#towers")) skeleton(root, ctx.el);
  const toAct = new Set(reply.seatsToAct || []);
  renderSummary(root, reply, view, ctx.el);
  renderTowers(root, view, ctx);
  root.querySelector("#players").replaceChildren(...(view.players || []).map((p) => renderPlayer(p, toAct.has(p.seat), ctx)));
  renderFinal(root, view, ctx.el);
}
