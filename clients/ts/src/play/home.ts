// The home screen: my matches (with whose turn it is, kept fresh by the notices) and, for every game,
// a form to create a room (seats, bots and their levels, options, public or private, turn clock) or
// to join the matchmaking queue.
import { el } from "../shell.js";
import { seatNames, titleOf, type App, type GameEntry, type Screen } from "./app.js";
import { ConnectError, reason, refusal, type Json } from "./api.js";
import { saveSeat } from "./store.js";
import { tr } from "../i18n.js";

const LEVELS = (): [string, string][] => [["BOT_LEVEL_RANDOM", tr("home.bot.random")], ["BOT_LEVEL_GREEDY", tr("home.bot.greedy")], ["BOT_LEVEL_MCTS", tr("home.bot.mcts")]];
const OPEN = "open";
const CLOCKS = (): [string, string][] => [["0", tr("home.clock.none")], ["30", tr("home.clock.30s")], ["60", tr("home.clock.1m")], ["300", tr("home.clock.5m")], ["86400", tr("home.clock.1d")]];

export function showHome(app: App, root: HTMLElement): Screen {
  const mine = el("ol", { id: "my-matches", class: "my-matches" });
  const waiting = el("div", { id: "waiting" });
  const note = el("p", { class: "note", id: "my-note", text: tr("home.loading") });
  const games = el("div", { id: "games", class: "games" }, ...[...app.games.values()].map((g) => gameCard(app, g)));
  root.replaceChildren(
    el("section", { class: "panel mine" }, el("h2", { text: tr("home.my_matches") }), waiting, note, mine, joinForm(app)),
    el("section", { class: "new" }, el("h2", { text: tr("home.new_match") }), games));
  const load = () => loadMine(app, mine, waiting, note);
  load();
  document.addEventListener("tabula-notice", load);
  return { close: () => document.removeEventListener("tabula-notice", load) };
}

async function loadMine(app: App, list: HTMLElement, waiting: HTMLElement, note: HTMLElement): Promise<void> {
  let reply: Json;
  try {
    reply = await app.lobby().call("ListMyMatches", { limit: 30 });
  } catch (err) {
    // A guest token the lobby no longer takes (expired, or signed with a retired secret): sign in again.
    if (err instanceof ConnectError && reason(err) === "bad_token") { app.signOut(); return; }
    note.textContent = tr("home.unreadable", { why: refusal(err) });
    return;
  }
  const matches: Json[] = reply.matches || [];
  for (const m of matches) saveSeat(m.matchId, { game: m.game, seat: Number(m.seat || 0), token: m.seatToken });
  note.textContent = matches.length ? "" : tr("home.none_yet");
  waiting.replaceChildren(...waitingFor(app, reply));
  list.replaceChildren(...matches.map((m) => matchItem(app, m)));
  list.dataset.loads = String(Number(list.dataset.loads || 0) + 1); // lists shown so far (tests wait on it)
}

/** Join a private room by the invite code its host shares. */
function joinForm(app: App): HTMLElement {
  const input = el("input", { name: "code", placeholder: tr("home.invite_code"), required: "", autocomplete: "off", size: "10" }) as HTMLInputElement;
  const status = el("p", { class: "status-line" });
  const form = el("form", { class: "join", id: "join-form" }, el("label", {}, tr("home.join_by_code"), input),
    el("button", { type: "submit", text: tr("home.join") }), status) as HTMLFormElement;
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    busy(form, status, async () => {
      const joined = (await app.lobby().call("JoinRoom", { inviteCode: input.value.trim() })) as Json;
      app.navigate(`/play?room=${encodeURIComponent(joined.room.roomId)}`);
    });
  });
  return form;
}

function waitingFor(app: App, reply: Json): HTMLElement[] {
  const out: HTMLElement[] = [];
  const room = reply.room?.room;
  if (room) out.push(link(app, tr("home.in_room", { game: titleOf(app, room.game) }), `/play?room=${room.roomId}`, tr("home.back_to_room")));
  const ticket = reply.ticket;
  if (ticket) out.push(link(app, tr("home.in_queue", { game: titleOf(app, ticket.game) }), `/play?ticket=${ticket.ticketId}`, tr("home.back_to_queue")));
  return out;
}

function link(app: App, text: string, href: string, label: string): HTMLElement {
  const a = el("a", { href, text: label });
  a.addEventListener("click", (ev) => { ev.preventDefault(); app.navigate(href); });
  return el("p", { class: "waiting" }, `${text} · `, a);
}

function matchItem(app: App, m: Json): HTMLElement {
  const names = seatNames(m.seats || []);
  const state = m.finished ? tr("home.state.finished", { placing: (m.placings || [])[Number(m.seat || 0)] ?? "-" })
    : m.myTurn ? tr("home.state.your_turn") : tr("home.state.waiting", { who: (m.seatsToAct || []).map((s: number) => names[s]).join(", ") || tr("home.state.the_board") });
  const href = `/play?match=${encodeURIComponent(m.matchId)}`;
  const item = el("li", { class: `my-match${m.myTurn ? " my-turn" : ""}${m.finished ? " finished" : ""}`, "data-match": m.matchId },
    el("a", { href, class: "open" },
      el("b", { text: titleOf(app, m.game) }), el("span", { class: "state", text: state }),
      el("span", { class: "who", text: names.join(", ") })));
  item.querySelector("a")!.addEventListener("click", (ev) => { ev.preventDefault(); app.navigate(href); });
  return item;
}

// ------------------------------------------------------------------ a new match

function select(name: string, options: [string, string][], value = ""): HTMLSelectElement {
  const node = el("select", { name }, ...options.map(([v, text]) => el("option", { value: v, text }))) as HTMLSelectElement;
  if (value) node.value = value;
  return node;
}

function optionInput(option: Json): HTMLElement {
  const name = `option-${option.name}`;
  let input: HTMLElement;
  if (option.type === "GAME_OPTION_TYPE_BOOL") {
    input = el("input", { type: "checkbox", name });
    (input as HTMLInputElement).checked = option.defaultValue === "true";
  } else if (option.type === "GAME_OPTION_TYPE_CHOICE") {
    input = select(name, (option.choices || []).map((c: string) => [c, c]), option.defaultValue);
  } else {
    input = el("input", { type: "number", name, value: option.defaultValue,
      ...(option.minimum !== undefined ? { min: String(option.minimum) } : {}), ...(option.maximum !== undefined ? { max: String(option.maximum) } : {}) });
  }
  // the label ListGames words in the page's language; a lobby without labels: the option's name
  const label: string = option.label || option.name.replace(/_/g, " ");
  return el("label", { class: "option", title: option.description }, el("span", { class: "option-label", text: label }), input,
    el("small", { class: "help", text: option.description }));
}

function options(form: HTMLFormElement, game: GameEntry): Record<string, string> {
  const out: Record<string, string> = {};
  for (const option of game.options) {
    const input = form.elements.namedItem(`option-${option.name}`) as HTMLInputElement | null;
    if (!input) continue;
    out[option.name] = input.type === "checkbox" ? String(input.checked) : input.value;
  }
  return out;
}

function seatRows(form: HTMLFormElement): void {
  const seats = Number((form.elements.namedItem("seats") as HTMLSelectElement).value);
  const box = form.querySelector(".seat-rows")!;
  const kept = [...box.querySelectorAll("select")].map((s) => (s as HTMLSelectElement).value);
  box.replaceChildren(el("div", { class: "seat-row" }, el("span", { class: "k", text: tr("home.seat", { n: 1 }) }), el("b", { text: tr("home.you") })),
    ...Array.from({ length: seats - 1 }, (_, i) => el("label", { class: "seat-row" }, el("span", { class: "k", text: tr("home.seat", { n: i + 2 }) }),
      select(`seat-${i + 1}`, [...LEVELS(), [OPEN, tr("home.open_seat")]], kept[i] || "BOT_LEVEL_RANDOM"))));
}

function gameCard(app: App, game: GameEntry): HTMLElement {
  const seats = Array.from({ length: game.maxSeats - game.minSeats + 1 }, (_, i) => String(game.minSeats + i));
  const status = el("p", { class: "status-line", role: "status" });
  const form = el("form", { class: "new-match", "data-game": game.name },
    el("label", {}, tr("home.players"), select("seats", seats.map((n) => [n, n]), String(game.minSeats))),
    el("div", { class: "seat-rows" }),
    ...game.options.map(optionInput),
    el("label", {}, tr("home.room"), select("visibility", [["ROOM_VISIBILITY_PRIVATE", tr("home.private")], ["ROOM_VISIBILITY_PUBLIC", tr("home.public")]])),
    el("label", {}, tr("home.clock"), select("clock", CLOCKS())),
    el("label", {}, el("input", { type: "checkbox", name: "spectators-read-chat" }), " ", tr("home.spectators_read_chat")),
    el("div", { class: "buttons" },
      el("button", { type: "submit", class: "primary", name: "create", text: tr("home.create_room") }),
      el("button", { type: "button", name: "quick", text: tr("home.quick_match") })),
    status) as HTMLFormElement;
  seatRows(form);
  (form.elements.namedItem("seats") as HTMLSelectElement).addEventListener("change", () => seatRows(form));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); busy(form, status, () => createRoom(app, form, game, status)); });
  form.querySelector('[name="quick"]')!.addEventListener("click", () => busy(form, status, () => quickMatch(app, form, game)));
  return el("article", { class: "panel game", "data-game": game.name },
    el("h3", { text: game.title }),
    el("p", { class: "seat-range", text: tr("home.seat_range", { min: game.minSeats, max: game.maxSeats }) }),
    el("details", { class: "about" }, el("summary", { text: tr("home.about") }), el("p", { text: game.description })),
    form);
}

async function busy(form: HTMLFormElement, status: HTMLElement, work: () => Promise<void>): Promise<void> {
  const buttons = [...form.querySelectorAll("button")] as HTMLButtonElement[];
  buttons.forEach((b) => { b.disabled = true; });
  status.textContent = "…";
  status.className = "status-line";
  try {
    await work();
  } catch (err) {
    status.textContent = refusal(err);
    status.className = "status-line error";
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
  }
}

const field = (form: HTMLFormElement, name: string) => (form.elements.namedItem(name) as HTMLSelectElement).value;

async function createRoom(app: App, form: HTMLFormElement, game: GameEntry, status: HTMLElement): Promise<void> {
  const seats = Number(field(form, "seats"));
  const lobby = app.lobby();
  const created = (await lobby.call("CreateRoom", {
    game: game.name, seats, options: options(form, game), visibility: field(form, "visibility"), turnSeconds: Number(field(form, "clock")),
    spectatorsReadChat: (form.elements.namedItem("spectators-read-chat") as HTMLInputElement).checked,
  })) as Json;
  const roomId = created.room.roomId;
  const bots = Array.from({ length: seats - 1 }, (_, i) => field(form, `seat-${i + 1}`)).filter((v) => v !== OPEN);
  for (const level of bots) {
    status.textContent = tr("home.seating_bots", { n: bots.indexOf(level) + 1, of: bots.length });
    await lobby.call("AddBot", { roomId, level });
  }
  if (bots.length < seats - 1) { app.navigate(`/play?room=${roomId}`); return; }
  status.textContent = tr("home.starting");
  const started = (await lobby.call("StartRoom", { roomId })) as Json;
  saveSeat(started.matchId, { game: game.name, seat: Number(started.seat || 0), token: started.seatToken });
  app.navigate(`/play?match=${encodeURIComponent(started.matchId)}`);
}

async function quickMatch(app: App, form: HTMLFormElement, game: GameEntry): Promise<void> {
  const bot = [...form.querySelectorAll(".seat-rows select")].map((s) => (s as HTMLSelectElement).value).find((v) => v !== OPEN);
  const reply = (await app.lobby().call("Enqueue", {
    game: game.name, seatCounts: [Number(field(form, "seats"))], botFillAfterSeconds: 10, botLevel: bot ?? "BOT_LEVEL_GREEDY",
    options: options(form, game), turnSeconds: Number(field(form, "clock")),
  })) as Json;
  app.navigate(`/play?ticket=${encodeURIComponent(reply.ticketId)}`);
}
