// Tabula spectator page: the generic shell. It talks to the gateway with the generated TypeScript client
// (tabula-client.js, built from clients/ts: Connect, JSON on the wire) and never names a game.
//   Pick:   the lobby's ListMatches (live and recent matches, with names, a page at a time: "more" asks for
//           the next); a spectator token from the lobby.
//   Live:   GetView, then the WatchMatch stream from the newest events the list shows (`?events=N`, 1 to
//           1000, default 300), then live ones; the list is newest first and follows the board.
//   Replay: Replay(version); the event list follows the version shown (older events are read when needed).
//   A token in the URL fragment (#token=..., never sent to a server) reads the match as that token's
//   holder: a spectator token, or a seat token (`tabula play` prints such a link for a private match).
// The board is drawn by the game's module, /games/<game>/<game>.js (an ES module exporting
// render(root, reply, ctx) and, optionally, describeEvent(item, ctx) -> words and legend(ctx) -> rows of
// [symbol, meaning]), with /games/<game>/<game>.css, when GET /games says it has one; otherwise the view
// is shown as a readable tree. ctx.texts is the game's GetContent (every component with its text, in the
// page's language: every call carries it); ctx.locale is that language and ctx.t(key, values) the game's
// words in it (GET /texts/<game>); ctx.tip(node, text) gives a node the text shown on hover or tap.
import {
  createTips, describeError, el, eventText, game as gameClient, listGames as fetchGames, loadContent, loadModule, loadWords,
  lobby, outcomeTable, pageLocale, renderTree, translator,
} from "/static/tabula-client.js";

const $ = (id) => document.getElementById(id);

const S = {
  game: "", matchId: "", token: "", head: 0, shown: -1, follow: true,
  client: null, abort: null, generation: 0, lastSeen: 0, refreshing: false, dirty: false,
  games: new Map(), module: null, content: null, texts: null, names: [], labels: [], events: new Map(),
  locale: pageLocale(), t: translator({}),  // the page's language and the game's words in it (ctx.t)
  finished: false, from: 1, older: false, urlToken: "",
};

// ------------------------------------------------------------------ small helpers
const num = (v) => Number(v || 0);
// The labels the rule service sends with every view (GetViewResponse.seats), else the lobby list's names.
const seatName = (seat) => S.labels[seat] || S.names[seat] || `Seat ${seat}`;
// A seat's name as a coloured chip (spectator.css: .seat-0 ... .seat-4).
const chip = (seat) => el("span", { class: `chip seat-${num(seat) % 5}`, text: seatName(num(seat)) });

function setStatus(text, kind) {
  const s = $("status");
  s.textContent = text;
  s.className = `status ${kind}`;
}

// ------------------------------------------------------------------ the lobby: who am I, which matches
async function guestToken() {
  let token = sessionStorage.getItem("tabula.guest");
  if (!token) {
    token = (await lobby("").call("SignInGuest", { displayName: "spectator" })).token;
    sessionStorage.setItem("tabula.guest", token);
  }
  return token;
}

// The lobby's list a page at a time, newest first: PER_PAGE matches (`?per_page=N`, 1 to 100), and
// "more" asks for the page after the last one shown (its next_page_token; "" when none is left).
const perPage = Math.floor(Number(new URLSearchParams(location.search).get("per_page")));
const PER_PAGE = Math.min(100, Math.max(1, perPage || 30));
// The event list's length (`?events=N`, 1 to 1000): the newest N events up to the version shown.
const eventsWanted = Math.floor(Number(new URLSearchParams(location.search).get("events")));
const EVENTS = Math.min(1000, Math.max(1, eventsWanted || 300));
let listed = [];
let more = "";
let laterPages = false;  // pages past the first are shown: refreshing the first keeps them

async function loadMatches() {
  // The first page again (the refresh button, every 15 s); matches of later pages already shown stay.
  try {
    const reply = await lobby(await guestToken()).call("ListMatches", { limit: PER_PAGE });
    const fresh = new Set(reply.matches.map((m) => m.matchId));
    listed = laterPages ? [...reply.matches, ...listed.filter((m) => !fresh.has(m.matchId))] : reply.matches;
    if (!laterPages) more = reply.nextPageToken;
    $("match-list-note").textContent = listed.length ? "" : "No public matches yet.";
  } catch (err) {
    listed = [];
    more = "";
    laterPages = false;
    $("match-list-note").textContent = `The lobby did not answer (${describeError(err)}).`;
  }
  showMatches();
}

async function loadMoreMatches() {
  if (!more) return;
  $("more-matches").disabled = true;
  try {
    const reply = await lobby(await guestToken()).call("ListMatches", { limit: PER_PAGE, pageToken: more });
    const known = new Set(listed.map((m) => m.matchId));
    listed = [...listed, ...reply.matches.filter((m) => !known.has(m.matchId))];
    more = reply.nextPageToken;
    laterPages = true;
  } catch (err) {
    $("match-list-note").textContent = `The lobby did not answer (${describeError(err)}).`;
  }
  $("more-matches").disabled = false;
  showMatches();
}

function showMatches() {
  const list = $("match-list");
  list.replaceChildren(...listed.map(matchItem));
  list.dataset.loads = String(num(list.dataset.loads) + 1);  // lists shown so far (tests wait on it)
  $("more-matches").hidden = !more;
  if (S.matchId) namesFor(S.matchId);
}

function matchItem(m) {
  const title = (S.games.get(m.game) || {}).title || m.game;
  const who = m.seats.map((s) => s.bot ? `${s.displayName} bot` : s.displayName).join(", ");
  const state = m.finished ? "finished" : "live";
  const item = el("li", { class: `match ${state}${m.matchId === S.matchId ? " current" : ""}`, "data-match": m.matchId },
    el("div", {}, el("b", { text: title }), el("span", { class: `badge ${state}`, text: state })),
    el("div", { class: "who", text: who }),
    el("div", { class: "when", text: `${new Date(num(m.createdAtMs)).toLocaleString()} · v${num(m.version)}` }));
  item.addEventListener("click", () => watchFromLobby(m.game, m.matchId));
  return item;
}

function namesFor(matchId) {
  const m = listed.find((x) => x.matchId === matchId);
  S.names = m ? m.seats.map((s) => s.bot ? `${s.displayName} bot` : s.displayName) : [];
}

async function watchFromLobby(game, matchId) {
  let reply;
  try {
    reply = await lobby(await guestToken()).call("GetSpectatorToken", { matchId });
  } catch (err) {
    const text = describeError(err);
    const hint = text.startsWith("PermissionDenied") ? " (a private match: open the link `tabula play` printed for your seat)" : "";
    setStatus(`lobby: ${text}${hint}`, "error");
    return;
  }
  await watch(reply.game || game, matchId, reply.token);
}

// ------------------------------------------------------------------ the game's module and content tables
async function loadGame(game) {
  const info = S.games.get(game) || { name: game };
  S.content = null;
  S.module = null;
  S.t = translator({});
  $("board").replaceChildren();
  $("legend").hidden = true;
  const [content, words] = await Promise.all([loadContent(info), loadWords(game, S.locale)]);
  S.content = content;
  S.t = translator(words.texts);
  try {
    S.module = await loadModule(info, $("game-css"));
  } catch (err) {
    setStatus(`the ${game} module failed to load (${err.message}); showing the view as a tree`, "error");
  }
}

// The game's components with their texts (GetContent: public, the same for every match), once per game.
const textsByGame = new Map();
async function loadTexts(game) {
  if (!textsByGame.has(game)) {
    try {
      textsByGame.set(game, (await S.client.call("GetContent", {})).content || null);
    } catch (_) {
      return null;  // no hover texts this time; asked again for the next match
    }
  }
  return textsByGame.get(game);
}

const ctx = () => ({ content: S.content, texts: S.texts, locale: S.locale, t: S.t, el, game: S.game, seatName, chip, tip });

function renderLegend() {
  const box = $("legend");
  const rows = S.module && S.module.legend ? S.module.legend(ctx()) : [];
  box.hidden = !rows.length;
  $("legend-items").replaceChildren(...rows.map(([symbol, meaning]) =>
    el("li", {}, el("span", { class: "sym" }, symbol), el("span", { class: "means", text: meaning }))));
}

// ------------------------------------------------------------------ hover and tap texts
// One floating box (#tip) for every node with data-tip (the shell's createTips).
const tips = createTips($("tip"));
const tip = tips.tip;

// ------------------------------------------------------------------ events in words
function renderEvents() {
  const shown = [...S.events.values()].filter((e) => num(e.envelope.version) <= S.shown)
    .sort((a, b) => num(b.envelope.version) - num(a.envelope.version)).slice(0, EVENTS);
  $("event-log").replaceChildren(...shown.map((item) => {
    const v = num(item.envelope.version);
    const line = el("li", { class: v === S.shown ? "current" : "", "data-version": String(v) },
      el("span", { class: "v", text: String(v) }), el("span", { class: "t", text: eventText(item, S.module, ctx()) }));
    line.addEventListener("click", () => showVersion(v));
    return line;
  }));
  $("event-count").textContent = `(${shown.length} up to version ${Math.max(0, S.shown)}, newest first)`;
}

// ------------------------------------------------------------------ rendering
function renderSeats(reply) {
  const toAct = new Set(reply.seatsToAct || []);
  const seats = (reply.outcome && reply.outcome.scores.length) || S.names.length || (reply.view && (reply.view.players || []).length) || 0;
  $("seats").replaceChildren(...Array.from({ length: seats }, (_, seat) =>
    el("span", { class: `seat${toAct.has(seat) ? " to-act" : ""}`, "data-seat": String(seat) }, chip(seat),
      toAct.has(seat) ? el("span", { class: "acting", text: "to act" }) : "")));
}

function renderOutcome(reply) {
  const box = $("outcome");
  const outcome = reply.outcome;
  if (!outcome) { box.hidden = true; return; }
  box.replaceChildren(el("h2", { text: "Match finished · final scores" }), outcomeTable(outcome, chip));
  box.hidden = false;
}

function render(reply) {
  S.shown = num(reply.version);
  S.finished = Boolean(reply.outcome);
  if ((reply.seats || []).length) S.labels = reply.seats.map((s) => s.label || s.displayName || "");
  if (S.module) S.module.render($("board"), reply, ctx()); else renderTree($("board"), reply, seatName);
  renderSeats(reply);
  renderOutcome(reply);
  renderEvents();
  tips.follow();
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
  const head = S.finished ? `final version ${S.shown}` : `live at version ${S.shown} of ${S.head}`;
  $("version-label").textContent = S.follow ? head : `replaying version ${S.shown} of ${S.head}`;
  if (S.follow) setStatus(S.finished ? "finished" : "live", S.finished ? "finished" : "live");
}

// ------------------------------------------------------------------ live
async function refresh() {
  if (S.refreshing) { S.dirty = true; return; }
  S.refreshing = true;
  try {
    do {
      S.dirty = false;
      const reply = await S.client.call("GetView", { matchId: S.matchId });
      S.head = Math.max(S.head, num(reply.version));
      if (S.follow) render(reply); else updateReplayBar();
    } while (S.dirty);
  } catch (err) {
    setStatus(describeError(err), "error");
  } finally {
    S.refreshing = false;
  }
}

function onItem(item) {
  if (item.event) {
    const version = num(item.event.envelope.version);
    S.events.set(version, item.event);
    S.lastSeen = Math.max(S.lastSeen, version);
    if (version > S.head) { S.head = version; refresh(); } else if (!S.follow) updateReplayBar();
  } else if (item.keepalive) {
    // events this viewer may not see still move the head: catch up on the keepalive
    const head = num(item.keepalive.headVersion);
    S.lastSeen = Math.max(S.lastSeen, head);
    if (head > S.head) { S.head = head; refresh(); }
  }
}

async function follow(generation) {
  // Retry only what may pass (the stream deadline, the gateway restarting, the backend unavailable).
  for (;;) {
    S.abort = new AbortController();
    try {
      const stream = S.client.stream("WatchMatch", { matchId: S.matchId, fromVersion: String(S.lastSeen + 1) }, S.abort.signal);
      for await (const item of stream) {
        if (generation !== S.generation) return;
        onItem(item);
        if (item.event) renderEventsSoon();
      }
    } catch (err) {
      if (generation !== S.generation) return;
      const text = describeError(err);
      if (!/^(Unavailable|DeadlineExceeded|Unknown|Internal)/.test(text)) { setStatus(text, "error"); return; }
    }
    if (generation !== S.generation) return;
    setStatus("reconnecting…", "idle");
    await new Promise((done) => setTimeout(done, 1000));
  }
}

// While events stream in, the list is drawn again at most every 100 ms (never put off longer).
let eventsTimer = null;
function renderEventsSoon() {
  if (eventsTimer) return;
  eventsTimer = setTimeout(() => { eventsTimer = null; renderEvents(); }, 100);
}

// Older events, newest first: read backwards (each a bounded WatchMatch, its events added to the list
// once whole), 50 versions at a time, or at once down to a replayed version far back, until the list
// has its EVENTS events up to the version shown (or reaches version 1). So the list always shows the
// newest events without a gap, however slowly they come. One reader at a time: it looks at the
// version shown again after every read.
const CHUNK = 50;
const listedUpTo = (version) => [...S.events.keys()].filter((v) => v <= version).length;
async function fillList() {
  if (S.older) return;
  const generation = S.generation;
  S.older = true;
  try {
    while (S.from > 1 && listedUpTo(S.shown) < EVENTS) {
      const start = Math.max(1, Math.min(S.from - CHUNK, S.shown - EVENTS + 1));
      const chunk = await readRange(start, S.from - 1, generation);
      if (!chunk) return;  // another match, or the stream ended early: the next replay step asks again
      for (const event of chunk) S.events.set(num(event.envelope.version), event);
      S.from = start;
      renderEvents();
    }
  } catch (err) {
    if (generation === S.generation) setStatus(describeError(err), "error");
  } finally {
    if (generation === S.generation) S.older = false;
  }
}

// The events of versions start..until this viewer may see (null if cut short).
async function readRange(start, until, generation) {
  const abort = new AbortController();
  const chunk = [];
  try {
    for await (const item of S.client.stream("WatchMatch", { matchId: S.matchId, fromVersion: String(start) }, abort.signal)) {
      if (generation !== S.generation) return null;
      const top = item.event ? num(item.event.envelope.version) : num(item.keepalive && item.keepalive.headVersion);
      if (item.event && top <= until) chunk.push(item.event);
      if (top >= until) return chunk;
    }
    return null;
  } finally {
    abort.abort();
  }
}

async function watch(game, matchId, token) {
  S.generation += 1;
  if (S.abort) S.abort.abort();
  Object.assign(S, { game, matchId, token, head: 0, shown: -1, follow: true, lastSeen: 0, events: new Map(),
    finished: false, labels: [], from: 1, older: false, texts: null });
  $("game").value = game;
  $("match-id").value = matchId;
  $("token").value = token;
  // A token that came in the URL stays in its fragment, so the page can be reloaded (or bookmarked).
  const fragment = token && token === S.urlToken ? `#token=${encodeURIComponent(token)}` : "";
  const keep = ["per_page", "events"].filter((k) => new URLSearchParams(location.search).has(k))
    .map((k) => `&${k}=${encodeURIComponent(new URLSearchParams(location.search).get(k))}`).join("");
  history.replaceState(null, "", `?game=${encodeURIComponent(game)}&match=${encodeURIComponent(matchId)}${keep}${fragment}`);
  namesFor(matchId);
  for (const item of document.querySelectorAll("#match-list .match")) item.classList.toggle("current", item.dataset.match === matchId);
  $("match-title").textContent = `${(S.games.get(game) || {}).title || game} · ${matchId}`;
  $("event-log").replaceChildren();
  setStatus("connecting…", "idle");
  await loadGame(game);
  const generation = S.generation;
  try {
    S.client = await gameClient(game, token);
    const texts = await loadTexts(game);
    if (generation !== S.generation) return;
    S.texts = texts;
    renderLegend();
    const reply = await S.client.call("GetView", { matchId });
    if (generation !== S.generation) return;
    S.head = num(reply.version);
    // The newest event first: the live stream starts at the head, the list's older events are read
    // backwards beside it.
    S.lastSeen = Math.max(0, S.head - 1);
    S.from = S.head || 1;
    render(reply);
  } catch (err) {
    setStatus(describeError(err), "error");
    return;
  }
  follow(S.generation);
  fillList();
}

// ------------------------------------------------------------------ replay
let replayTimer = null;
async function showVersion(version) {
  if (!S.matchId) return;
  S.follow = false;
  S.shown = Math.max(0, Math.min(S.head, version));
  updateReplayBar();
  setStatus("replay", "replay");
  fillList();
  try {
    const reply = await S.client.call("Replay", { matchId: S.matchId, version: String(S.shown) });
    if (!S.follow && num(reply.version) === S.shown) render({ ...reply, outcome: null });
  } catch (err) {
    setStatus(describeError(err), "error");
  }
}
function followLive() {
  S.follow = true;
  refresh();
}

// ------------------------------------------------------------------ wiring
async function listGames() {
  // Every game of the gateway's registry (GET /games): name, title, whether it has a module and content.
  try {
    const games = await fetchGames();
    S.games = new Map(games.map((g) => [g.name, g]));
    $("game").replaceChildren(...games.map((g) => el("option", { value: g.name, text: g.title })));
  } catch (err) {
    setStatus(`the list of games failed: ${err.message}`, "error");
  }
}

async function watchFromForm() {
  const game = $("game").value, matchId = $("match-id").value.trim(), token = $("token").value.trim();
  if (token) await watch(game, matchId, token); else await watchFromLobby(game, matchId);
}

async function init() {
  await listGames();
  $("watch-form").addEventListener("submit", (ev) => { ev.preventDefault(); watchFromForm(); });
  $("refresh-matches").addEventListener("click", loadMatches);
  $("more-matches").addEventListener("click", loadMoreMatches);
  $("replay-slider").addEventListener("input", () => {
    clearTimeout(replayTimer);
    replayTimer = setTimeout(() => showVersion(Number($("replay-slider").value)), 120);
  });
  $("prev").addEventListener("click", () => showVersion(S.shown - 1));
  $("next").addEventListener("click", () => showVersion(S.shown + 1));
  $("live").addEventListener("click", followLive);
  // A token in the URL fragment (never sent to a server) or typed in; else the lobby gives one.
  const q = new URLSearchParams(location.search);
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  S.urlToken = token;
  tips.wire();
  await loadMatches();
  if (q.get("match")) {
    const game = q.get("game") || $("game").value;
    if (token) await watch(game, q.get("match"), token); else await watchFromLobby(game, q.get("match"));
  }
  setInterval(loadMatches, 15000);
}

window.tabulaSpectator = S;  // for debugging in the console
init();
