// The friends panel, under every screen once signed in: friends with their presence (online, playing
// which game, last seen), requests to accept or decline, adding a player (an account by its name, anyone
// by player id), inviting a friend to the room on screen, removing and blocking. Kept fresh by the
// friends' notices (a request, an acceptance, a change, a presence), which main.ts passes on as
// "tabula-notice" events; "tabula-screen" says another screen opened (the invite buttons follow it).
import { el } from "../shell.js";
import { titleOf, type App } from "./app.js";
import { refusal, type Json } from "./api.js";
import { pageLocale, tr } from "../i18n.js";

const PLAYER_ID = /^[ag]-[0-9a-f]{32}$/;
const FRIEND_KINDS = ["NOTICE_KIND_FRIEND_REQUEST", "NOTICE_KIND_FRIEND_ACCEPTED", "NOTICE_KIND_FRIEND_PRESENCE", "NOTICE_KIND_FRIENDS_CHANGED"];

/** The panel, mounted after the screen; the returned function takes it away (sign-out). */
export function mountFriends(app: App): () => void {
  const status = el("p", { class: "status-line", id: "friends-status", role: "status" });
  const lists = el("div", { id: "friends-lists" });
  const panel = el("aside", { id: "friends", class: "panel friends" },
    el("h2", { text: tr("friends.title") }), addForm(app, status, () => load()), lists, status,
    el("p", { class: "note" }, `${tr("friends.my_id")} `, el("code", { id: "my-player-id", text: app.guest.playerId })));
  document.getElementById("screen")!.after(panel);
  let last: Json = {};
  const draw = () => lists.replaceChildren(...view(app, last, status, () => load()));
  const load = async () => {
    try {
      last = await app.lobby().call("ListFriends", {});
      draw();
      lists.dataset.loads = String(Number(lists.dataset.loads || 0) + 1); // lists shown so far (tests wait on it)
    } catch (err) {
      status.textContent = tr("friends.unreadable", { why: refusal(err) });
    }
  };
  const onNotice = (ev: Event) => {
    const n: Json = (ev as CustomEvent).detail;
    if (!FRIEND_KINDS.includes(n.kind)) return;
    if (n.kind === "NOTICE_KIND_FRIEND_REQUEST") app.notify(tr("friends.asks", { who: n.fromDisplayName }), "friend");
    if (n.kind === "NOTICE_KIND_FRIEND_ACCEPTED") app.notify(tr("friends.now", { who: n.fromDisplayName }), "friend");
    load();
  };
  document.addEventListener("tabula-notice", onNotice);
  document.addEventListener("tabula-screen", draw);
  load();
  return () => {
    document.removeEventListener("tabula-notice", onNotice);
    document.removeEventListener("tabula-screen", draw);
    panel.remove();
  };
}

/** Add a friend: an account's exact name, or a player id. */
function addForm(app: App, status: HTMLElement, reload: () => void): HTMLElement {
  const input = el("input", { name: "friend", placeholder: tr("friends.add_placeholder"), required: "", autocomplete: "off" }) as HTMLInputElement;
  const form = el("form", { id: "friend-add", class: "join" }, el("label", {}, tr("friends.add"), input), el("button", { type: "submit", text: tr("friends.ask") }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const who = input.value.trim();
    act(status, async () => {
      const reply = (await app.lobby().call("SendFriendRequest", PLAYER_ID.test(who) ? { playerId: who } : { displayName: who })) as Json;
      input.value = "";
      reload();
      return reply.friends ? tr("friends.now", { who: reply.friend.displayName }) : tr("friends.asked", { who: reply.friend.displayName });
    });
  });
  return form;
}

async function act(status: HTMLElement, work: () => Promise<string>): Promise<void> {
  status.textContent = "…";
  status.className = "status-line";
  try {
    status.textContent = await work();
  } catch (err) {
    status.textContent = refusal(err);
    status.className = "status-line error";
  }
}

/** "online", "playing Trajan", "last seen 5 min ago". */
function presenceText(app: App, p: Json | undefined): string {
  if (p?.online) return p.playingGame ? tr("friends.playing", { game: titleOf(app, p.playingGame) }) : tr("friends.online");
  const last = Number(p?.lastSeenMs || 0);
  if (!last) return tr("friends.offline");
  const minutes = Math.round((Date.now() - last) / 60000);
  return minutes < 60 ? tr("friends.seen_minutes", { minutes: Math.max(1, minutes) }) : tr("friends.seen_at", { when: new Date(last).toLocaleString(pageLocale()) });
}

function view(app: App, lists: Json, status: HTMLElement, reload: () => void): HTMLElement[] {
  const room = new URLSearchParams(location.search).get("room");
  const button = (text: string, name: string, rpc: string, request: Json, said: string) => {
    const b = el("button", { type: "button", name, text });
    b.addEventListener("click", () => act(status, async () => { await app.lobby().call(rpc, request); reload(); return said; }));
    return b;
  };
  const row = (f: Json, ...children: (HTMLElement | string)[]) =>
    el("li", { class: "friend", "data-player": f.playerId, "data-online": f.presence?.online ? "1" : "0" }, el("b", { text: f.displayName }), ...children);
  const section = (id: string, title: string, items: HTMLElement[]) =>
    items.length ? el("div", {}, el("h3", { text: title }), el("ul", { id, class: "friend-list" }, ...items)) : el("ul", { id, hidden: "" });
  const friends: Json[] = lists.friends || [];
  return [
    section("friend-requests", tr("friends.incoming"), (lists.incoming || []).map((f: Json) => row(f,
      button(tr("friends.accept"), "accept", "AcceptFriendRequest", { playerId: f.playerId }, tr("friends.now", { who: f.displayName })),
      button(tr("friends.decline"), "decline", "DeclineFriendRequest", { playerId: f.playerId }, tr("friends.declined")),
      button(tr("friends.block"), "block", "BlockPlayer", { playerId: f.playerId }, tr("friends.blocked_one", { who: f.displayName }))))),
    friends.length ? section("friend-list", tr("friends.title"), friends.map((f) => {
      const watch = f.presence?.playingMatchId ? el("a", { href: `/?match=${encodeURIComponent(f.presence.playingMatchId)}`, text: tr("friends.watch") }) : "";
      return row(f, el("span", { class: "presence", text: presenceText(app, f.presence) }), watch,
        room ? button(tr("friends.invite"), "invite", "InviteToRoom", { roomId: room, playerId: f.playerId }, tr("friends.invited", { who: f.displayName })) : "",
        button(tr("friends.remove"), "remove", "RemoveFriend", { playerId: f.playerId }, tr("friends.removed", { who: f.displayName })),
        button(tr("friends.block"), "block", "BlockPlayer", { playerId: f.playerId }, tr("friends.blocked_one", { who: f.displayName })));
    })) : el("p", { class: "note", id: "friend-list", text: tr("friends.none") }),
    section("friend-outgoing", tr("friends.outgoing"), (lists.outgoing || []).map((f: Json) => row(f,
      button(tr("friends.cancel"), "cancel", "CancelFriendRequest", { playerId: f.playerId }, tr("friends.cancelled"))))),
    section("friend-blocked", tr("friends.blocked"), (lists.blocked || []).map((f: Json) => row(f,
      button(tr("friends.unblock"), "unblock", "UnblockPlayer", { playerId: f.playerId }, tr("friends.unblocked", { who: f.displayName }))))),
  ];
}
