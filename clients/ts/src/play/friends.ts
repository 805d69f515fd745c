// The friends panel, under every screen once signed in: friends with their presence (online, playing
// which game, last seen), requests to accept or decline, adding a player (an account by its name, anyone
// by player id), inviting a friend to the room on screen, removing and blocking. Kept fresh by the
// friends' notices (a request, an acceptance, a change, a presence), which main.ts passes on as
// "tabula-notice" events; "tabula-screen" says another screen opened (the invite buttons follow it).
import { el } from "../shell.js";
import { titleOf, type App } from "./app.js";
import { refusal, type Json } from "./api.js";

const PLAYER_ID = /^[ag]-[0-9a-f]{32}$/;
const FRIEND_KINDS = ["NOTICE_KIND_FRIEND_REQUEST", "NOTICE_KIND_FRIEND_ACCEPTED", "NOTICE_KIND_FRIEND_PRESENCE", "NOTICE_KIND_FRIENDS_CHANGED"];

/** The panel, mounted after the screen; the returned function takes it away (sign-out). */
export function mountFriends(app: App): () => void {
  const status = el("p", { class: "status-line", id: "friends-status", role: "status" });
  const lists = el("div", { id: "friends-lists" });
  const panel = el("aside", { id: "friends", class: "panel friends" },
    el("h2", { text: "Friends" }), addForm(app, status, () => load()), lists, status,
    el("p", { class: "note" }, "Your player id (for a friend to add you): ", el("code", { id: "my-player-id", text: app.guest.playerId })));
  document.getElementById("screen")!.after(panel);
  let last: Json = {};
  const draw = () => lists.replaceChildren(...view(app, last, status, () => load()));
  const load = async () => {
    try {
      last = await app.lobby().call("ListFriends", {});
      draw();
      lists.dataset.loads = String(Number(lists.dataset.loads || 0) + 1); // lists shown so far (tests wait on it)
    } catch (err) {
      status.textContent = `Your friends could not be read: ${refusal(err)}`;
    }
  };
  const onNotice = (ev: Event) => {
    const n: Json = (ev as CustomEvent).detail;
    if (!FRIEND_KINDS.includes(n.kind)) return;
    if (n.kind === "NOTICE_KIND_FRIEND_REQUEST") app.notify(`${n.fromDisplayName} asks to be your friend`, "friend");
    if (n.kind === "NOTICE_KIND_FRIEND_ACCEPTED") app.notify(`${n.fromDisplayName} and you are friends now`, "friend");
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
  const input = el("input", { name: "friend", placeholder: "an account's name or a player id", required: "", autocomplete: "off" }) as HTMLInputElement;
  const form = el("form", { id: "friend-add", class: "join" }, el("label", {}, "Add a friend", input), el("button", { type: "submit", text: "Ask" }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const who = input.value.trim();
    act(status, async () => {
      const reply = (await app.lobby().call("SendFriendRequest", PLAYER_ID.test(who) ? { playerId: who } : { displayName: who })) as Json;
      input.value = "";
      reload();
      return reply.friends ? `${reply.friend.displayName} and you are friends now` : `Asked ${reply.friend.displayName}`;
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
  if (p?.online) return p.playingGame ? `playing ${titleOf(app, p.playingGame)}` : "online";
  const last = Number(p?.lastSeenMs || 0);
  if (!last) return "offline";
  const minutes = Math.round((Date.now() - last) / 60000);
  return minutes < 60 ? `last seen ${Math.max(1, minutes)} min ago` : `last seen ${new Date(last).toLocaleString()}`;
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
    section("friend-requests", "Asking to be your friend", (lists.incoming || []).map((f: Json) => row(f,
      button("Accept", "accept", "AcceptFriendRequest", { playerId: f.playerId }, `${f.displayName} and you are friends now`),
      button("Decline", "decline", "DeclineFriendRequest", { playerId: f.playerId }, "Declined"),
      button("Block", "block", "BlockPlayer", { playerId: f.playerId }, `${f.displayName} is blocked`)))),
    friends.length ? section("friend-list", "Friends", friends.map((f) => {
      const watch = f.presence?.playingMatchId ? el("a", { href: `/?match=${encodeURIComponent(f.presence.playingMatchId)}`, text: "watch" }) : "";
      return row(f, el("span", { class: "presence", text: presenceText(app, f.presence) }), watch,
        room ? button("Invite", "invite", "InviteToRoom", { roomId: room, playerId: f.playerId }, `${f.displayName} is invited`) : "",
        button("Remove", "remove", "RemoveFriend", { playerId: f.playerId }, `${f.displayName} is no longer a friend`),
        button("Block", "block", "BlockPlayer", { playerId: f.playerId }, `${f.displayName} is blocked`));
    })) : el("p", { class: "note", id: "friend-list", text: "No friends yet: ask someone you played with." }),
    section("friend-outgoing", "Waiting for their answer", (lists.outgoing || []).map((f: Json) => row(f,
      button("Cancel", "cancel", "CancelFriendRequest", { playerId: f.playerId }, "Cancelled")))),
    section("friend-blocked", "Blocked", (lists.blocked || []).map((f: Json) => row(f,
      button("Unblock", "unblock", "UnblockPlayer", { playerId: f.playerId }, `${f.displayName} is unblocked`)))),
  ];
}
