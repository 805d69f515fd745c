// Waiting for a match: a room being filled (seats, invite code, bots, ready, start) or a matchmaking
// ticket; both followed live (WatchRoom, WatchQueue) until the match starts, then the match opens.
import { el } from "../shell.js";
import { follow, resumable, titleOf, type App, type Screen } from "./app.js";
import { refusal, type Json } from "./api.js";
import { saveSeat } from "./store.js";
import { chatPanel } from "./chat.js";
import { tr } from "../i18n.js";

const LEVEL_WORDS: Record<string, string> = { BOT_LEVEL_RANDOM: "room.bot.random", BOT_LEVEL_GREEDY: "room.bot.greedy", BOT_LEVEL_MCTS: "room.bot.mcts" };

export function showRoom(app: App, root: HTMLElement, roomId: string): Screen {
  const abort = new AbortController();
  const status = el("p", { class: "status-line", id: "room-status" });
  const body = el("div", { id: "room" });
  const chat = chatPanel(app, `room:${roomId}`, tr("room.chat"));
  root.replaceChildren(el("section", { class: "panel room" }, body, status), chat.element);
  const act = async (name: string, request: Json) => {
    status.textContent = "…";
    try {
      const reply = (await app.lobby().call(name, { roomId, ...request })) as Json;
      status.textContent = "";
      if (reply.room) draw(reply.room, "");
      if (reply.matchId) opened(reply.matchId, reply.room.game, reply.seat, reply.seatToken);
    } catch (err) {
      status.textContent = refusal(err);
    }
  };
  const opened = (matchId: string, game: string, seat: number, token: string) => {
    saveSeat(matchId, { game, seat: Number(seat || 0), token });
    abort.abort();
    app.navigate(`/play?match=${encodeURIComponent(matchId)}`);
  };
  const draw = (room: Json, seatToken: string) => {
    if (room.matchId && seatToken) { opened(room.matchId, room.game, mySeat(app, room), seatToken); return; }
    body.replaceChildren(...roomView(app, room, act));
  };
  follow((request, signal) => app.lobby().stream("WatchRoom", request, signal), () => ({ roomId }), (item) => {
    if (item.room) draw(item.room.room, item.room.seatToken);
    return Boolean(item.room?.seatToken) || item.room?.room.status === "ROOM_STATUS_CLOSED";
  }, abort.signal, (err) => said(status, err));
  return { close: () => { abort.abort(); chat.close(); } };
}

/** A stream's break on the status line: "reconnecting…" when it is opened again, else the refusal. */
function said(status: HTMLElement, err: unknown): boolean {
  status.textContent = resumable(err) ? tr("room.reconnecting") : refusal(err);
  return resumable(err);
}

const mySeat = (app: App, room: Json): number =>
  (room.seats || []).find((s: Json) => s.playerId === app.guest.playerId)?.index ?? 0;

function roomView(app: App, room: Json, act: (name: string, request: Json) => void): HTMLElement[] {
  const host = room.hostPlayerId === app.guest.playerId;
  const seats: Json[] = room.seats || [];
  const full = seats.every((s) => !s.empty);
  const button = (text: string, name: string, request: Json = {}, enabled = true) => {
    const b = el("button", { type: "button", name, text }) as HTMLButtonElement;
    b.disabled = !enabled;
    b.addEventListener("click", () => act(name, request));
    return b;
  };
  const me = seats.find((s) => s.playerId === app.guest.playerId);
  const rows = seats.map((s) => el("li", { class: `room-seat${s.empty ? " empty" : ""}`, "data-seat": String(s.index) },
    el("span", { class: "k", text: tr("room.seat", { n: Number(s.index || 0) + 1 }) }),
    el("b", { text: s.empty ? tr("room.open") : s.bot !== "BOT_LEVEL_UNSPECIFIED" ? tr(LEVEL_WORDS[s.bot] ?? "room.bot") : s.displayName }),
    s.bot === "BOT_LEVEL_UNSPECIFIED" && !s.empty ? el("span", { class: "ready", text: s.ready || s.playerId === room.hostPlayerId ? tr("room.ready_state") : tr("room.not_ready_state") }) : "",
    host && s.bot !== "BOT_LEVEL_UNSPECIFIED" ? button(tr("room.remove"), "RemoveBot", { seat: s.index }) : ""));
  const code = room.inviteCode ? invite(room.inviteCode) : el("p", { class: "note", text: tr("room.public_note") });
  return [
    el("h2", { text: tr("room.title", { game: titleOf(app, room.game) }) }),
    code,
    el("ol", { class: "room-seats" }, ...rows),
    el("div", { class: "buttons" },
      host ? button(tr("room.add_random"), "AddBot", { level: "BOT_LEVEL_RANDOM" }, !full) : "",
      host ? button(tr("room.add_greedy"), "AddBot", { level: "BOT_LEVEL_GREEDY" }, !full) : "",
      host ? button(tr("room.start"), "StartRoom", {}, full) : button(me?.ready ? tr("room.not_ready") : tr("room.ready"), "SetReady", { ready: !me?.ready }),
      button(tr("room.leave"), "LeaveRoom")),
  ];
}

/** A private room's invite: its code (entered under My matches) and a link that opens /play and joins. */
function invite(code: string): HTMLElement {
  const url = inviteLink(code);
  const copy = el("button", { type: "button", name: "copy-invite", text: tr("room.copy_link") }) as HTMLButtonElement;
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = tr("room.copied");
    } catch {
      copy.textContent = tr("room.copy_from_box"); // no clipboard (an insecure page, or refused)
    }
  });
  const box = el("input", { id: "invite-link", readonly: "", value: url, "aria-label": tr("room.invite_link") }) as HTMLInputElement;
  box.addEventListener("focus", () => box.select());
  return el("div", { class: "invite" },
    el("p", {}, tr("room.invite_code"), " ", el("b", { id: "invite-code", text: code }), " ", tr("room.invite_how")),
    el("div", { class: "invite-link" }, box, copy));
}

export const invitePath = (code: string): string => `/play?invite=${encodeURIComponent(code)}`;
const inviteLink = (code: string): string => location.origin + invitePath(code);

/** An invite link opened (/play?invite=CODE, after signing in if need be): join the room, then show it. */
export function joinByInvite(app: App, root: HTMLElement, code: string): Screen {
  const status = el("p", { class: "status-line", id: "invite-status", text: tr("room.joining") });
  root.replaceChildren(el("section", { class: "panel room" }, el("h2", { text: tr("room.invitation") }), status));
  let closed = false;
  (async () => {
    try {
      const joined = (await app.lobby().call("JoinRoom", { inviteCode: code })) as Json;
      if (!closed) app.navigate(`/play?room=${encodeURIComponent(joined.room.roomId)}`, true);
    } catch (err) {
      if (closed) return;
      const home = el("a", { href: "/play", text: tr("room.home_link") });
      home.addEventListener("click", (ev) => { ev.preventDefault(); app.navigate("/play"); });
      status.replaceChildren(`${tr("room.not_joined", { why: refusal(err) })} · `, home);
      status.className = "status-line error";
    }
  })();
  return { close: () => { closed = true; } };
}

export function showTicket(app: App, root: HTMLElement, ticketId: string): Screen {
  const abort = new AbortController();
  const status = el("p", { class: "status-line", id: "ticket-status", text: tr("room.waiting_players") });
  const cancel = el("button", { type: "button", name: "cancel", text: tr("room.leave_queue") });
  cancel.addEventListener("click", async () => {
    try {
      await app.lobby().call("CancelQueue", { ticketId });
      abort.abort();
      app.navigate("/play");
    } catch (err) {
      status.textContent = refusal(err);
    }
  });
  root.replaceChildren(el("section", { class: "panel ticket" }, el("h2", { text: tr("room.quick_match") }), status, cancel));
  follow((request, signal) => app.lobby().stream("WatchQueue", request, signal), () => ({ ticketId }), (item) => {
    const t = item.ticket;
    if (!t) return;
    status.textContent = tr("room.waiting_queue", { game: titleOf(app, t.game), seconds: Math.round(Number(t.waitedSeconds || 0)) });
    if (t.status === "TICKET_STATUS_MATCHED" && t.seatToken) {
      saveSeat(t.matchId, { game: t.game, seat: Number(t.seat || 0), token: t.seatToken });
      app.navigate(`/play?match=${encodeURIComponent(t.matchId)}`);
      return true;
    }
    if (t.status === "TICKET_STATUS_CANCELLED") { status.textContent = tr("room.ticket_cancelled"); return true; }
  }, abort.signal, (err) => said(status, err));
  return { close: () => abort.abort() };
}
