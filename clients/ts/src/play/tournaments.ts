// Tournaments (docs/tournaments.md): /play?tournaments lists those registering or running with a form
// to create one; /play?tournament=ID shows one live (WatchTournament): register or withdraw, the
// standings, the current round's tables and a link to the caller's own match (its seat token kept on
// the device like any match's); its creator may cancel it.
import { el } from "../shell.js";
import { follow, resumable, titleOf, type App, type Screen } from "./app.js";
import { refusal, type Json } from "./api.js";
import { saveSeat } from "./store.js";

const FORMATS: [string, string][] = [
  ["TOURNAMENT_FORMAT_SWISS", "Swiss"],
  ["TOURNAMENT_FORMAT_ROUND_ROBIN", "Round robin"],
  ["TOURNAMENT_FORMAT_SINGLE_ELIMINATION", "Single elimination"],
];
const word = (value: string | undefined, prefix: string) => (value || "").replace(prefix, "").toLowerCase().replace(/_/g, " ");
const formatOf = (t: Json) => FORMATS.find(([v]) => v === t.format)?.[1] ?? word(t.format, "TOURNAMENT_FORMAT_");
const statusOf = (t: Json) => word(t.status, "TOURNAMENT_STATUS_");
const when = (ms: unknown) => new Date(Number(ms || 0)).toLocaleString();

/** The list and the create form. */
export function showTournaments(app: App, root: HTMLElement): Screen {
  const list = el("ol", { id: "tournament-list", class: "my-matches" });
  const note = el("p", { class: "note", id: "tournaments-note", text: "Loading the tournaments…" });
  root.replaceChildren(
    el("section", { class: "panel" }, el("h2", { text: "Tournaments" }), note, list),
    el("section", { class: "panel" }, el("h2", { text: "New tournament" }), createForm(app)));
  (async () => {
    try {
      const reply = (await app.lobby().call("ListTournaments", { limit: 50 })) as Json;
      const found: Json[] = reply.tournaments || [];
      note.textContent = found.length ? "" : "No tournament is open: create one below.";
      list.replaceChildren(...found.map((t) => {
        const a = el("a", { href: tournamentPath(t.tournamentId), class: "open", text: t.name });
        a.addEventListener("click", (ev) => { ev.preventDefault(); app.navigate(tournamentPath(t.tournamentId)); });
        return el("li", { class: "tournament", "data-id": t.tournamentId }, a,
          el("span", { text: ` ${titleOf(app, t.game)}, ${formatOf(t)}, ${statusOf(t)}, ${t.registered || 0} registered, starts ${when(t.startAtMs)}` }));
      }));
    } catch (err) {
      note.textContent = `The tournaments could not be read: ${refusal(err)}`;
    }
  })();
  return { close: () => {} };
}

export const tournamentPath = (id: string) => `/play?tournament=${encodeURIComponent(id)}`;

function createForm(app: App): HTMLElement {
  const select = (name: string, choices: [string, string][]) =>
    el("select", { name }, ...choices.map(([v, label]) => el("option", { value: v, text: label })));
  const input = (name: string, value: string, type = "number") => el("input", { name, value, type, required: "" });
  const games = [...app.games.values()].map((g): [string, string] => [g.name, g.title]);
  const status = el("p", { class: "status-line", id: "tournament-create-status", role: "status" });
  const form = el("form", { id: "tournament-create", class: "join" },
    el("label", {}, "Name", input("name", "Tournament", "text")),
    el("label", {}, "Game", select("game", games)),
    el("label", {}, "Format", select("format", FORMATS)),
    el("label", {}, "Seats per table", input("seats", "2")),
    el("label", {}, "Rounds (Swiss)", input("rounds", "3")),
    el("label", {}, "Seconds a turn", input("turn", "120")),
    el("label", {}, "Starts in minutes", el("input", { name: "start", value: "5", type: "number", step: "any", min: "0", required: "" })),
    el("label", {}, el("input", { type: "checkbox", name: "bots" }), " bots fill short tables"),
    el("button", { type: "submit", class: "primary", text: "Create" }), status) as HTMLFormElement;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = (name: string) => (form.elements.namedItem(name) as HTMLInputElement);
    const format = v("format").value;
    status.textContent = "…";
    try {
      const made = (await app.lobby().call("CreateTournament", {
        name: v("name").value, game: v("game").value, format,
        seatsPerTable: Number(v("seats").value),
        roundCount: format === "TOURNAMENT_FORMAT_SWISS" ? Number(v("rounds").value) : 0,
        turnSeconds: Number(v("turn").value),
        allowBots: v("bots").checked,
        startAtMs: String(Date.now() + Number(v("start").value) * 60_000),
      })) as Json;
      app.navigate(tournamentPath(made.tournament.tournamentId));
    } catch (err) {
      status.textContent = refusal(err);
    }
  });
  return form;
}

/** One tournament, live. */
export function showTournament(app: App, root: HTMLElement, tournamentId: string): Screen {
  const abort = new AbortController();
  const status = el("p", { class: "status-line", id: "tournament-status", role: "status" });
  const body = el("div", { id: "tournament" });
  root.replaceChildren(el("section", { class: "panel" }, body, status));
  const act = async (rpc: string, said: string) => {
    try {
      await app.lobby().call(rpc, { tournamentId });
      status.textContent = said;
    } catch (err) {
      status.textContent = refusal(err);
    }
  };
  follow((request, signal) => app.lobby().stream("WatchTournament", request, signal), () => ({ tournamentId }), (item) => {
    if (status.textContent === "reconnecting…") status.textContent = "";
    if (!item.tournament) return;
    body.replaceChildren(...view(app, item.tournament, act));
    body.dataset.version = String(item.tournament.tournament.version || 0); // tests wait on it
  }, abort.signal, (err) => {
    status.textContent = resumable(err) ? "reconnecting…" : refusal(err);
    return resumable(err);
  });
  return { close: () => abort.abort() };
}

function view(app: App, seen: Json, act: (rpc: string, said: string) => void): HTMLElement[] {
  const t = seen.tournament;
  const out: HTMLElement[] = [
    el("h2", { text: t.name }),
    el("p", { id: "tournament-summary", text: `${titleOf(app, t.game)}, ${formatOf(t)}, ${statusOf(t)}` +
      (t.currentRound ? `, round ${t.currentRound} of ${t.roundCount}` : `, starts ${when(t.startAtMs)}`) +
      (t.endedReason ? ` (${t.endedReason.replace(/_/g, " ")})` : "") }),
  ];
  const buttons = el("p", { class: "actions" });
  const button = (id: string, text: string, rpc: string, said: string) => {
    const b = el("button", { type: "button", id, text });
    b.addEventListener("click", () => act(rpc, said));
    buttons.append(b);
  };
  const live = t.status === "TOURNAMENT_STATUS_REGISTERING" || t.status === "TOURNAMENT_STATUS_RUNNING";
  if (t.status === "TOURNAMENT_STATUS_REGISTERING" && !seen.registered) button("tournament-register", "Register", "RegisterForTournament", "You are registered.");
  if (live && seen.registered) button("tournament-withdraw", "Withdraw", "WithdrawFromTournament", "You withdrew.");
  if (live && t.creatorId === app.guest.playerId) button("tournament-cancel", "Cancel the tournament", "CancelTournament", "Cancelled.");
  out.push(buttons);
  if (seen.myMatchId) {
    const path = `/play?match=${encodeURIComponent(seen.myMatchId)}`;
    const a = el("a", { href: path, id: "tournament-my-match", class: "open", text: "Play your match" });
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      saveSeat(seen.myMatchId, { game: t.game, seat: Number(seen.mySeat || 0), token: seen.mySeatToken });
      app.navigate(path);
    });
    out.push(el("p", {}, a));
  }
  out.push(el("h3", { text: "Standings" }), standings(seen.standings || []));
  const rounds: Json[] = seen.rounds || [];
  if (rounds.length) {
    const now = rounds[rounds.length - 1];
    out.push(el("h3", { text: `Round ${now.number}` }),
      el("ol", { id: "tournament-tables" }, ...(now.tables || []).map((table: Json) => el("li", {
        "data-match": table.matchId || "",
        text: (table.seats || []).map((s: Json) => (s.displayName || "bot") + (s.placing ? ` #${s.placing}` : "") + (s.forfeited ? " (forfeit)" : "")).join(" vs ") +
          (table.matchId ? ` (${word(table.status, "TABLE_STATUS_")})` : " (bye)"),
      }))));
  }
  return out;
}

function standings(rows: Json[]): HTMLElement {
  const head = el("tr", {}, ...["#", "Player", "Points", "Buchholz", "Score", "Wins", "Played", "Byes", "Forfeits"].map((h) => el("th", { text: h })));
  return el("table", { id: "tournament-standings", class: "standings" }, el("thead", {}, head),
    el("tbody", {}, ...rows.map((r) => el("tr", { "data-player": r.playerId, class: r.withdrawn || r.eliminated ? "out" : "" },
      ...[r.rank, r.displayName, r.points || 0, r.buchholz || 0, r.gameScore || 0, r.wins || 0, r.played || 0, r.byes || 0, r.forfeits || 0]
        .map((c) => el("td", { text: String(c) }))))));
}
