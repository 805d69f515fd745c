// Tabula spectator page: plain JS over the gateway (POST /api/<service>/<method>, WS /ws/<service>/<method>).
// Live: GetView, then the WatchMatch WebSocket; each event refreshes the view. Replay: Replay(version).
"use strict";

const $ = (id) => document.getElementById(id);
const GOODS = ["coins", "wood", "stone", "servants", "military", "faith", "victory"];
const CARD_LISTS = ["territories", "characters", "buildings", "ventures"];

const S = {
  game: "lorenzo", matchId: "", token: "", head: 0, shown: -1, follow: true,
  ws: null, generation: 0, lastSeen: 0, refreshing: false, dirty: false, content: null,
};

class ApiError extends Error {
  constructor(error) {
    super(`${error.status}${error.reason ? " (" + error.reason + ")" : ""}: ${error.message}`);
    this.error = error;
  }
}

const service = (game) => `tabula.${game}.v1.${game[0].toUpperCase()}${game.slice(1)}Service`;
const LOBBY = "tabula.lobby.v1.LobbyService";

async function api(svc, method, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const reply = await fetch(`/api/${svc}/${method}`, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await reply.json();
  if (!reply.ok) throw new ApiError(data.error || { status: String(reply.status), message: "" });
  return data;
}

// ------------------------------------------------------------------ small DOM helpers
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}
const enumName = (value, prefix) => String(value || "").replace(prefix, "").toLowerCase().replace(/_/g, " ");
const num = (v) => Number(v || 0);

function setStatus(text, kind) {
  const s = $("status");
  s.textContent = text;
  s.className = `status ${kind}`;
}

// ------------------------------------------------------------------ content labels (names for ids)
async function loadContent(game) {
  try {
    const reply = await fetch(`/content/${game}`);
    S.content = reply.ok ? await reply.json() : null;
  } catch (_) {
    S.content = null;
  }
}
function table(file, key) {
  const rows = S.content && S.content[file] && S.content[file][key];
  return new Map((rows || []).map((r) => [Number(r.id), r]));
}
function cardName(id) {
  const card = table("cards", "cards").get(Number(id));
  return card ? card.name : `card #${id}`;
}
function leaderName(id) {
  const leader = table("leaders", "leaders").get(Number(id));
  return leader ? leader.name : `leader #${id}`;
}
function towerSpaces() {
  const spaces = [...table("board", "spaces").values()].filter((s) => s.kind === "tower");
  if (spaces.length) return spaces;
  const kinds = ["territory", "character", "building", "venture"];
  return Array.from({ length: 16 }, (_, i) => ({ id: i + 1, tower: kinds[Math.floor(i / 4)], floor: (i % 4) + 1 }));
}

// ------------------------------------------------------------------ rendering
function renderSummary(reply, view) {
  const toAct = (reply.seatsToAct || []).join(", ") || (reply.systemToAct ? "system" : "-");
  const items = [
    ["round", "Round", view.round], ["period", "Period", view.period],
    ["phase", "Phase", enumName(view.phase, "PHASE_")], ["to-act", "To act", toAct],
    ["dice", "Dice (black, white, orange)", (view.dice || []).join(" · ") || "-"],
    ["turn-order", "Turn order", (view.turnOrder || []).map((s) => `seat ${s}`).join(", ")],
  ];
  $("summary").replaceChildren(...items.map(([id, label, value]) =>
    el("div", {}, el("span", { text: label }), el("b", { id, text: String(value) }))));
}

function occupantText(o) {
  return `seat ${o.seat} (${enumName(o.member, "MEMBER_")})`;
}

function renderTowers(view) {
  const cards = view.towers || [];
  const bySpace = new Map();
  for (const o of view.occupants || []) bySpace.set(o.space, [...(bySpace.get(o.space) || []), o]);
  const towers = new Map();
  for (const space of towerSpaces()) towers.set(space.tower, [...(towers.get(space.tower) || []), space]);
  $("towers").replaceChildren(...[...towers].map(([name, spaces]) => {
    const floors = spaces.sort((a, b) => b.floor - a.floor).map((space) => {
      const card = num(cards[space.id - 1]);
      const occupants = (bySpace.get(space.id) || []).map(occupantText).join(", ");
      return el("div", { class: `floor${card ? "" : " empty"}`, "data-space": String(space.id) },
        el("span", { class: "value", text: `floor ${space.floor}` + (space.value ? ` · ${space.value}` : "") }),
        el("div", { class: "card", text: card ? cardName(card) : "(empty)" }),
        el("div", { class: "occupant", text: occupants }));
    });
    return el("div", { class: "tower", "data-tower": name }, el("h3", { text: name }), ...floors);
  }));
  const others = new Map([...table("board", "spaces").values()].filter((s) => s.kind !== "tower").map((s) => [s.id, s]));
  const used = [...bySpace].filter(([space]) => others.has(space) || space > 16);
  $("spaces").replaceChildren(...used.map(([space, list]) => {
    const info = others.get(space);
    return el("div", { class: "space" }, `${info ? info.kind : "space"} ${space}: `,
      el("span", { class: "occupant", text: list.map(occupantText).join(", ") }));
  }));
}

function renderPlayer(p, toAct) {
  const goods = p.goods || {};
  const grid = el("div", { class: "goods" },
    ...GOODS.map((k) => el("div", { "data-good": k },
      el("div", { class: "k", text: k }), el("div", { class: "v", text: String(num(goods[k])) }))));
  const cards = el("div", { class: "cards" }, ...CARD_LISTS.map((k) =>
    el("div", { "data-cards": k }, el("span", { class: "k", text: `${k} (${(p[k] || []).length}):` }),
      (p[k] || []).map(cardName).join(", ") || "-")));
  const leaders = (p.played || []).map((l) => leaderName(l.leader));
  cards.append(el("div", {}, el("span", { class: "k", text: "leaders played:" }), leaders.join(", ") || "-"),
    el("div", {}, el("span", { class: "k", text: "in hand:" }), `${num(p.handSize)} leaders`),
    el("div", {}, el("span", { class: "k", text: "family placed:" }),
      (p.placed || []).map((m) => enumName(m, "MEMBER_")).join(", ") || "-"),
    el("div", {}, el("span", { class: "k", text: "excommunications:" }),
      (p.excommunications || []).join(", ") || "-"));
  const title = `Seat ${p.seat}` + (toAct ? " · to act" : "");
  return el("div", { class: `player${toAct ? " to-act" : ""}`, "data-seat": String(p.seat) },
    el("h3", { text: title }), grid, cards);
}

function renderOutcome(reply, view) {
  const box = $("outcome");
  const finals = view.final || [];
  if (!finals.length && !reply.outcome) { box.hidden = true; return; }
  const placings = (reply.outcome && reply.outcome.placings) || view.placings || [];
  const rows = finals.map((f) => el("tr", {}, ...[f.seat, placings[f.seat] ?? "", f.before, f.territories,
    f.characters, f.ventures, f.military, f.resources, f.penalty, f.total].map((v) => el("td", { text: String(v ?? "") }))));
  const head = ["seat", "place", "before", "territories", "characters", "ventures", "military", "resources",
    "penalty", "total"].map((h) => el("th", { text: h }));
  box.replaceChildren(el("b", { text: "Final scores" }), el("table", {}, el("tr", {}, ...head), ...rows));
  box.hidden = false;
}

function render(reply) {
  const view = reply.view || {};
  S.shown = num(reply.version);
  document.body.dataset.rendered = String(S.shown);  // the version on screen (tests wait for it)
  if (S.game !== "lorenzo") {
    $("raw-section").hidden = false;
    $("raw").textContent = JSON.stringify(view, null, 2);
    return;
  }
  const toAct = new Set(reply.seatsToAct || []);
  renderSummary(reply, view);
  renderTowers(view);
  $("players").replaceChildren(...(view.players || []).map((p) => renderPlayer(p, toAct.has(p.seat))));
  renderOutcome(reply, view);
  updateReplayBar();
}

function updateReplayBar() {
  const slider = $("replay-slider");
  slider.max = String(S.head);
  slider.value = String(S.shown);
  slider.disabled = !S.matchId;
  $("prev").disabled = !S.matchId || S.shown <= 0;
  $("next").disabled = !S.matchId || S.shown >= S.head;
  $("live").disabled = !S.matchId || S.follow;
  $("version-label").textContent = S.follow
    ? `live at version ${S.shown} of ${S.head}` : `replaying version ${S.shown} of ${S.head}`;
}

function logEvent(item) {
  const env = item.envelope || {};
  const line = el("li", { value: String(num(env.version)), "data-version": String(num(env.version)) },
    `v${num(env.version)} ${env.type} by ${env.actor}`);
  const log = $("event-log");
  log.prepend(line);
  while (log.children.length > 200) log.lastChild.remove();
}

// ------------------------------------------------------------------ live
async function refresh() {
  if (S.refreshing) { S.dirty = true; return; }
  S.refreshing = true;
  try {
    do {
      S.dirty = false;
      const reply = await api(service(S.game), "GetView", { matchId: S.matchId }, S.token);
      S.head = Math.max(S.head, num(reply.version));
      if (S.follow) render(reply); else updateReplayBar();
    } while (S.dirty);
  } catch (err) {
    setStatus(err.message, "error");
  } finally {
    S.refreshing = false;
  }
}

function connect(generation) {
  const url = new URL(`/ws/${service(S.game)}/WatchMatch`, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("token", S.token);
  const ws = new WebSocket(url);
  S.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ matchId: S.matchId, fromVersion: String(S.lastSeen + 1) }));
  ws.onmessage = (msg) => {
    if (generation !== S.generation) return;
    const item = JSON.parse(msg.data);
    if (item.error) { setStatus(`${item.error.status}: ${item.error.message}`, "error"); return; }
    if (item.event) {
      const version = num(item.event.envelope.version);
      S.lastSeen = Math.max(S.lastSeen, version);
      S.head = Math.max(S.head, version);
      logEvent(item.event);
      refresh();
    } else if (item.keepalive) {
      // events this viewer may not see still move the head: catch up on the keepalive
      const head = num(item.keepalive.headVersion);
      S.lastSeen = Math.max(S.lastSeen, head);
      if (head > S.head) { S.head = head; refresh(); }
    }
    if (S.follow) setStatus("live", "live");
  };
  ws.onclose = (ev) => {
    if (generation !== S.generation) return;
    // an error: the last message said which; retry only what may pass (deadline, backend unavailable)
    if (ev.code >= 4000 && ev.code !== 4503 && ev.code !== 4504) return;
    setStatus("reconnecting…", "idle");
    setTimeout(() => generation === S.generation && connect(generation), 1000);
  };
}

async function watch(game, matchId, token) {
  S.generation += 1;
  if (S.ws) S.ws.close();
  Object.assign(S, { game, matchId, token, head: 0, shown: -1, follow: true, lastSeen: 0 });
  $("event-log").replaceChildren();
  remember(matchId);
  setStatus("connecting…", "idle");
  await loadContent(game);
  try {
    const reply = await api(service(game), "GetView", { matchId }, token);
    S.head = num(reply.version);
    render(reply);
  } catch (err) {
    setStatus(err.message, "error");
    return;
  }
  connect(S.generation);
}

// ------------------------------------------------------------------ replay
let replayTimer = null;
async function showVersion(version) {
  S.follow = false;
  S.shown = Math.max(0, Math.min(S.head, version));
  updateReplayBar();
  setStatus("replay", "replay");
  try {
    const reply = await api(service(S.game), "Replay", { matchId: S.matchId, version: String(S.shown) }, S.token);
    if (!S.follow && num(reply.version) === S.shown) render(reply);
  } catch (err) {
    setStatus(err.message, "error");
  }
}
function followLive() {
  S.follow = true;
  setStatus("live", "live");
  refresh();
}

// ------------------------------------------------------------------ the lobby: tokens and match ids
async function guestToken() {
  let token = sessionStorage.getItem("tabula.guest");
  if (!token) {
    token = (await api(LOBBY, "SignInGuest", { displayName: "spectator" })).token;
    sessionStorage.setItem("tabula.guest", token);
  }
  return token;
}
async function tokenFromLobby() {
  const matchId = $("match-id").value.trim();
  if (!matchId) { setStatus("enter a match id first", "error"); return; }
  try {
    const reply = await api(LOBBY, "GetSpectatorToken", { matchId }, await guestToken());
    $("token").value = reply.token;
    if (reply.game) $("game").value = reply.game;
    setStatus("spectator token from the lobby", "idle");
  } catch (err) {
    setStatus(`lobby: ${err.message}`, "error");
  }
}
function remember(matchId) {
  const recent = JSON.parse(localStorage.getItem("tabula.recent") || "[]").filter((m) => m !== matchId);
  recent.unshift(matchId);
  localStorage.setItem("tabula.recent", JSON.stringify(recent.slice(0, 10)));
  fillRecent();
}
function fillRecent() {
  const recent = JSON.parse(localStorage.getItem("tabula.recent") || "[]");
  $("recent-matches").replaceChildren(...recent.map((m) => el("option", { value: m })));
}

// ------------------------------------------------------------------ wiring
async function listGames() {
  // Every game service the gateway routes (it has a WatchMatch stream), from GET /api.
  try {
    const services = (await (await fetch("/api")).json()).services;
    const games = Object.keys(services).filter((name) => services[name].some((m) => m.method === "WatchMatch"))
      .map((name) => name.split(".")[1]);
    const select = $("game");
    for (const game of games) {
      if (![...select.options].some((o) => o.value === game)) select.append(el("option", { value: game, text: game }));
    }
  } catch (_) { /* the static list stays */ }
}

function init() {
  fillRecent();
  listGames();
  $("watch-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    watch($("game").value, $("match-id").value.trim(), $("token").value.trim());
  });
  $("lobby-token").addEventListener("click", tokenFromLobby);
  $("replay-slider").addEventListener("input", () => {
    clearTimeout(replayTimer);
    replayTimer = setTimeout(() => showVersion(Number($("replay-slider").value)), 120);
  });
  $("prev").addEventListener("click", () => showVersion(S.shown - 1));
  $("next").addEventListener("click", () => showVersion(S.shown + 1));
  $("live").addEventListener("click", followLive);
  const q = new URLSearchParams(location.search);
  if (q.get("game")) $("game").value = q.get("game");
  if (q.get("match")) $("match-id").value = q.get("match");
  if (q.get("token")) $("token").value = q.get("token");
  if (q.get("match") && q.get("token")) watch($("game").value, q.get("match"), q.get("token"));
}

window.tabulaSpectator = S;  // for debugging in the console
init();
