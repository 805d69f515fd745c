// The play app (/play, bundled by build.mjs into clients/ts/web/tabula-play.js): a guest signs in with a
// name, creates a room with bots or joins the matchmaking queue, follows their matches with live
// your-turn notices, and plays a match on the board the spectator page draws (each game's module,
// services/<game>/web/), choosing among the legal commands step by step. Screens, by URL:
//   /play                 the games (create a room, quick match) and my matches
//   /play?room=ID         a room being filled        /play?ticket=ID   a matchmaking ticket waiting
//   /play?match=ID        a match, played with the seat token kept on the device
//   /play?invite=CODE     a private room's invite link: joins it (after signing in), then shows the room
//   /play?profile=ID      a player's profile ("" for mine: an account changes or deletes it there)
//   /play?leaderboard=GAME&season=ID   a game's leaderboard in a season (leaderboard.ts)
//   /play?tournaments     the tournaments (tournaments.ts)   /play?tournament=ID   one, live
//   /play/auth/callback   where a sign-in provider sends the browser back (account.ts), then /play
import { el, listGames } from "../shell.js";
import { languagePicker, loadAppWords, tr, wordPage } from "../i18n.js";
import { follow, type App, type GameEntry, type Screen } from "./app.js";
import { lobby, refusal, type Json } from "./api.js";
import { forgetGuest, savedGuest, savedName, saveGuest, saveSeat, type Guest } from "./store.js";
import { showHome } from "./home.js";
import { invitePath, joinByInvite, showRoom, showTicket } from "./room.js";
import { showMatch } from "./match.js";
import { mountFriends } from "./friends.js";
import { showProfile } from "./profile.js";
import { boardPath, showLeaderboard } from "./leaderboard.js";
import { showTournament, showTournaments, tournamentPath } from "./tournaments.js";
import { accountForms, accountMenu, fromCallback, resumeAccount } from "./account.js";

const $ = (id: string) => document.getElementById(id)!;
let screen: Screen | null = null;
let noticeStream: AbortController | null = null;
let unmountFriends = () => {};

async function signIn(name: string): Promise<Guest> {
  const reply = (await lobby("").call("SignInGuest", { displayName: name })) as Json;
  const guest = { name, playerId: reply.playerId, token: reply.token, expiresAt: Number(reply.expiresAt) };
  saveGuest(guest);
  return guest;
}

function showSignIn(games: Map<string, GameEntry>): void {
  $("whoami").replaceChildren();
  const input = el("input", { id: "name", name: "name", maxlength: "32", required: "", autocomplete: "nickname", placeholder: tr("main.your_name_placeholder") }) as HTMLInputElement;
  input.value = savedName();
  const invited = new URLSearchParams(location.search).has("invite");
  const status = el("p", { class: "note", id: "sign-in-status", text: invited ? tr("main.invited") : "" });
  const form = el("form", { id: "sign-in", class: "panel sign-in" },
    el("h2", { text: tr("main.guest_title") }),
    el("label", {}, tr("main.your_name"), input),
    el("button", { type: "submit", class: "primary", id: "sign-in-button", text: tr("main.play") }), status);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status.textContent = tr("main.signing_in");
    try {
      start(await signIn(input.value.trim()), games);
    } catch (err) {
      status.textContent = refusal(err);
    }
  });
  $("screen").replaceChildren(form, ...accountForms((account) => start(account, games)));
  input.focus();
}

function notify(text: string, kind = "", link?: [string, string]): void {
  const line = el("div", { class: `notice ${kind}`, "data-href": link?.[1] ?? "" }, el("span", { text }));
  if (link) {
    const a = el("a", { href: link[1], class: "open", text: link[0] });
    a.addEventListener("click", (ev) => { ev.preventDefault(); line.remove(); app?.navigate(link[1]); });
    line.append(a);
  }
  const close = el("button", { type: "button", class: "dismiss", "aria-label": tr("main.dismiss"), text: "×" });
  close.addEventListener("click", () => line.remove());
  line.append(close);
  $("notices").prepend(line);
  while ($("notices").children.length > 4) $("notices").lastElementChild!.remove();
}

let app: App | null = null;

function start(guest: Guest, games: Map<string, GameEntry>): void {
  const signOut = () => { forgetGuest(); noticeStream?.abort(); unmountFriends(); app = null; screen?.close(); showSignIn(games); };
  app = {
    guest, games, seen: new Set(), current: "",
    lobby: () => lobby(guest.token),
    navigate: (url, replace = false) => { if (replace) history.replaceState(null, "", url); else history.pushState(null, "", url); route(); },
    notify,
    signOut,
  };
  const out = el("button", { type: "button", id: "sign-out", class: "link", text: tr("account.sign_out_link") });
  out.addEventListener("click", signOut);
  const mine = el("a", { href: "/play?profile=", id: "my-profile", class: "link", text: tr("main.profile") });
  mine.addEventListener("click", (ev) => { ev.preventDefault(); app?.navigate("/play?profile="); });
  const boards = el("a", { href: boardPath(""), id: "leaderboards", class: "link", text: tr("page.leaderboards") });
  boards.addEventListener("click", (ev) => { ev.preventDefault(); app?.navigate(boardPath("")); });
  const cups = el("a", { href: "/play?tournaments", id: "tournaments-link", class: "link", text: tr("page.tournaments") });
  cups.addEventListener("click", (ev) => { ev.preventDefault(); app?.navigate("/play?tournaments"); });
  $("whoami").replaceChildren(el("span", { class: "me", id: "me", text: guest.name }), cups, mine, boards, out);
  accountMenu(app, $("whoami"), signOut);
  watchNotices(app);
  route();
  unmountFriends = mountFriends(app);
}

/** Every notice of the guest, live: your turn, a match started or ended, an invitation. */
function watchNotices(app: App): void {
  noticeStream?.abort();
  noticeStream = new AbortController();
  let after = "";
  const signal = noticeStream.signal;
  (async () => {
    try {
      after = ((await app.lobby().call("ListMyMatches", { limit: 1 })) as Json).noticesHead || "";
    } catch { /* from the next notice on */ }
    await follow((request, s) => app.lobby().stream("WatchMyNotices", request, s), () => ({ after }), (item) => {
      if (!item.notice) return;
      after = item.notice.noticeId;
      onNotice(app, item.notice);
    }, signal);
  })();
}

function onNotice(app: App, n: Json): void {
  if (app.seen.has(n.noticeId)) return;
  app.seen.add(n.noticeId);
  if (n.matchId && n.seatToken) saveSeat(n.matchId, { game: n.game, seat: Number(n.seat || 0), token: n.seatToken });
  const title = app.games.get(n.game)?.title ?? n.game;
  const link: [string, string] = [tr("main.notice.open"), `/play?match=${encodeURIComponent(n.matchId)}`];
  const here = n.matchId && n.matchId === app.current;
  if (n.kind === "NOTICE_KIND_YOUR_TURN" && !here) app.notify(tr("main.notice.your_turn", { game: title }), "your-turn", link);
  else if (n.kind === "NOTICE_KIND_MATCH_STARTED" && !here) app.notify(tr("main.notice.started", { game: title }), "", link);
  else if (n.kind === "NOTICE_KIND_MATCH_ENDED") app.notify(tr("main.notice.ended", { game: title, placing: n.placing }), "ended", here ? undefined : link);
  else if (n.kind === "NOTICE_KIND_TOURNAMENT_ROUND_STARTED") app.notify(tr("main.notice.round_started", { game: title }), "", [tr("main.notice.open"), tournamentPath(n.tournamentId)]);
  else if (n.kind === "NOTICE_KIND_INVITED") {
    app.notify(tr("main.notice.invited", { who: n.fromDisplayName, game: title, code: n.inviteCode || "-" }), "invited",
      n.inviteCode ? [tr("main.notice.join"), invitePath(n.inviteCode)] : undefined);
  }
  document.dispatchEvent(new CustomEvent("tabula-notice", { detail: n }));
}

function route(): void {
  if (!app) return;
  screen?.close();
  const q = new URLSearchParams(location.search);
  const root = $("screen");
  root.replaceChildren();
  app.current = q.get("match") ?? "";
  // The notices about the screen now shown are done with.
  for (const line of [...$("notices").children] as HTMLElement[]) if (line.dataset.href === location.pathname + location.search) line.remove();
  document.body.dataset.screen = q.get("match") ? "match" : q.get("room") ? "room" : q.get("ticket") ? "ticket" : q.get("invite") ? "invite" : q.has("profile") ? "profile" : q.has("leaderboard") ? "leaderboard" : q.has("tournament") || q.has("tournaments") ? "tournaments" : "home";
  if (q.get("invite")) screen = joinByInvite(app, root, q.get("invite")!);
  else if (q.get("match")) screen = showMatch(app, root, q.get("match")!);
  else if (q.get("room")) screen = showRoom(app, root, q.get("room")!);
  else if (q.get("ticket")) screen = showTicket(app, root, q.get("ticket")!);
  else if (q.has("profile")) screen = showProfile(app, root, q.get("profile")!);
  else if (q.has("leaderboard")) screen = showLeaderboard(app, root, q.get("leaderboard")!, q.get("season") ?? "");
  else if (q.get("tournament")) screen = showTournament(app, root, q.get("tournament")!);
  else if (q.has("tournaments")) screen = showTournaments(app, root);
  else screen = showHome(app, root);
  document.dispatchEvent(new Event("tabula-screen"));
}

async function games(): Promise<Map<string, GameEntry>> {
  const [served, listed] = await Promise.all([listGames(), lobby("").call("ListGames", {}) as Promise<Json>]);
  const byName = new Map<string, Json>(listed.games.map((g: Json) => [g.name, g]));
  return new Map(served.filter((g) => byName.has(g.name)).map((g) => {
    const info = byName.get(g.name);
    return [g.name, { ...g, description: info.description, options: info.options || [] }];
  }));
}

async function init(): Promise<void> {
  await loadAppWords();
  wordPage();
  document.title = tr("main.page_title");
  $("language-picker").replaceChildren(languagePicker());
  let known: Map<string, GameEntry>;
  try {
    known = await games();
  } catch (err) {
    $("screen").replaceChildren(el("p", { class: "error", text: tr("main.no_games", { why: refusal(err) }) }));
    return;
  }
  window.addEventListener("popstate", route);
  const guest = (await fromCallback()) ?? (await resumeAccount()) ?? savedGuest();
  if (guest) start(guest, known); else showSignIn(known);
}

init();
