// Tabula spectator page: the generic shell, plain JS over the gateway (POST /api/<service>/<method>,
// WS /ws/<service>/<method>). Live: GetView, then the WatchMatch WebSocket; each event refreshes the view.
// Replay: Replay(version). The board is drawn by the game's module, /games/<game>/<game>.js (an ES module
// exporting render(root, reply, ctx), with /games/<game>/<game>.css), when GET /games says it has one;
// otherwise the view is shown as a readable tree.

const $ = (id) => document.getElementById(id);

const S = {
  game: "", matchId: "", token: "", head: 0, shown: -1, follow: true,
  ws: null, generation: 0, lastSeen: 0, refreshing: false, dirty: false,
  games: new Map(), module: null, content: null,
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
const num = (v) => Number(v || 0);

function setStatus(text, kind) {
  const s = $("status");
  s.textContent = text;
  s.className = `status ${kind}`;
}

// ------------------------------------------------------------------ the game's module and content tables
async function loadGame(game) {
  const info = S.games.get(game) || {};
  S.content = null;
  S.module = null;
  $("game-css").removeAttribute("href");
  $("board").replaceChildren();
  if (info.content) {
    try {
      const reply = await fetch(`/content/${game}`);
      S.content = reply.ok ? await reply.json() : null;
    } catch (_) { /* names fall back to ids */ }
  }
  if (!info.module) return;
  $("game-css").setAttribute("href", `/games/${game}/${game}.css`);
  try {
    S.module = await import(`/games/${game}/${game}.js`);
  } catch (err) {
    setStatus(`the ${game} module failed to load (${err.message}); showing the view as a tree`, "error");
  }
}

// ------------------------------------------------------------------ the generic drawing: the view as a tree
function scalar(value) {
  if (value === null || value === undefined || value === "") return "-";
  return typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
}
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function treeItem(key, value) {
  if (Array.isArray(value) && value.some(isObject)) {
    const items = value.map((v, i) => treeItem(`${key} ${i + 1}`, v));
    return el("li", {}, el("details", { open: "" },
      el("summary", {}, el("span", { class: "k", text: key }), el("span", { class: "n", text: `(${value.length})` })),
      el("ul", {}, ...items)));
  }
  if (Array.isArray(value)) {
    return el("li", {}, el("span", { class: "k", text: key }), value.map(scalar).join(", ") || "-");
  }
  if (isObject(value)) {
    return el("li", {}, el("details", { open: "" }, el("summary", {}, el("span", { class: "k", text: key })),
      el("ul", {}, ...Object.entries(value).map(([k, v]) => treeItem(k, v)))));
  }
  return el("li", { "data-field": key }, el("span", { class: "k", text: key }), el("b", { text: scalar(value) }));
}

function renderTree(root, reply) {
  const toAct = (reply.seatsToAct || []).join(", ") || (reply.systemToAct ? "system" : "-");
  const view = reply.view || {};
  root.replaceChildren(el("div", { class: "tree" }, el("ul", {}, treeItem("to act", toAct),
    ...Object.entries(view).map(([k, v]) => treeItem(k, v)))));
}

// ------------------------------------------------------------------ rendering
function renderOutcome(reply) {
  const box = $("outcome");
  const outcome = reply.outcome;
  if (!outcome) { box.hidden = true; return; }
  const scores = outcome.scores || [];
  const placings = outcome.placings || [];
  const rows = scores.map((score, seat) => el("tr", {},
    ...[seat, placings[seat] ?? "", score].map((v) => el("td", { text: String(v) }))));
  const head = el("tr", {}, ...["seat", "place", "score"].map((h) => el("th", { text: h })));
  box.replaceChildren(el("b", { text: "Final scores" }), el("table", {}, head, ...rows));
  box.hidden = false;
}

function render(reply) {
  S.shown = num(reply.version);
  const ctx = { content: S.content, el, game: S.game };
  if (S.module) S.module.render($("board"), reply, ctx); else renderTree($("board"), reply);
  renderOutcome(reply);
  document.body.dataset.rendered = String(S.shown);  // the version on screen (tests wait for it)
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
  await loadGame(game);
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
  // Every game of the gateway's registry (GET /games): name, title, whether it has a module and content.
  try {
    const games = (await (await fetch("/games")).json()).games;
    S.games = new Map(games.map((g) => [g.name, g]));
    $("game").replaceChildren(...games.map((g) => el("option", { value: g.name, text: g.title })));
  } catch (err) {
    setStatus(`the list of games failed: ${err.message}`, "error");
  }
}

async function init() {
  fillRecent();
  await listGames();
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
