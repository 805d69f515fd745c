// Tournaments (docs/tournaments.md): /play?tournaments lists those registering or running with a form
// to create one; /play?tournament=ID shows one live (WatchTournament): register or withdraw, the
// standings, the current round's tables and a link to the caller's own match (its seat token kept on
// the device like any match's); its creator may cancel it.
import { el } from "../shell.js";
import { follow, resumable, titleOf, type App, type Screen } from "./app.js";
import { refusal, type Json } from "./api.js";
import { saveSeat } from "./store.js";
import { pageLocale, tr } from "../i18n.js";

const FORMATS = ["TOURNAMENT_FORMAT_SWISS", "TOURNAMENT_FORMAT_ROUND_ROBIN", "TOURNAMENT_FORMAT_SINGLE_ELIMINATION"];
/** An enum value's words: `tournament.<kind>.<value>` ("swiss", "too_few_players"), else the value spelt out. */
const named = (kind: string, value: string | undefined, prefix = ""): string => {
  const bare = (value || "").replace(prefix, "").toLowerCase();
  const key = `tournament.${kind}.${bare}`;
  const said = tr(key);
  return said === key ? bare.replace(/_/g, " ") : said;
};
const formatOf = (t: Json) => named("format", t.format, "TOURNAMENT_FORMAT_");
const statusOf = (t: Json) => named("status", t.status, "TOURNAMENT_STATUS_");
const when = (ms: unknown) => new Date(Number(ms || 0)).toLocaleString(pageLocale());

/** The list and the create form. */
export function showTournaments(app: App, root: HTMLElement): Screen {
  const list = el("ol", { id: "tournament-list", class: "my-matches" });
  const note = el("p", { class: "note", id: "tournaments-note", text: tr("tournament.loading") });
  root.replaceChildren(
    el("section", { class: "panel" }, el("h2", { text: tr("tournament.title") }), note, list),
    el("section", { class: "panel" }, el("h2", { text: tr("tournament.new") }), createForm(app)));
  (async () => {
    try {
      const reply = (await app.lobby().call("ListTournaments", { limit: 50 })) as Json;
      const found: Json[] = reply.tournaments || [];
      note.textContent = found.length ? "" : tr("tournament.none_open");
      list.replaceChildren(...found.map((t) => {
        const a = el("a", { href: tournamentPath(t.tournamentId), class: "open", text: t.name });
        a.addEventListener("click", (ev) => { ev.preventDefault(); app.navigate(tournamentPath(t.tournamentId)); });
        return el("li", { class: "tournament", "data-id": t.tournamentId }, a,
          el("span", { text: " " + tr("tournament.list_line", { game: titleOf(app, t.game), format: formatOf(t), status: statusOf(t), registered: t.registered || 0, when: when(t.startAtMs) }) }));
      }));
    } catch (err) {
      note.textContent = tr("tournament.unreadable", { why: refusal(err) });
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
    el("label", {}, tr("tournament.form.name"), input("name", tr("tournament.form.default_name"), "text")),
    el("label", {}, tr("tournament.form.game"), select("game", games)),
    el("label", {}, tr("tournament.form.format"), select("format", FORMATS.map((v): [string, string] => [v, named("format", v, "TOURNAMENT_FORMAT_")]))),
    el("label", {}, tr("tournament.form.seats"), input("seats", "2")),
    el("label", {}, tr("tournament.form.rounds"), input("rounds", "3")),
    el("label", {}, tr("tournament.form.turn"), input("turn", "120")),
    el("label", {}, tr("tournament.form.start"), el("input", { name: "start", value: "5", type: "number", step: "any", min: "0", required: "" })),
    el("label", {}, el("input", { type: "checkbox", name: "bots" }), " " + tr("tournament.form.bots")),
    el("button", { type: "submit", class: "primary", text: tr("tournament.form.create") }), status) as HTMLFormElement;
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
    if (status.textContent === tr("tournament.reconnecting")) status.textContent = "";
    if (!item.tournament) return;
    body.replaceChildren(...view(app, item.tournament, act));
    body.dataset.version = String(item.tournament.tournament.version || 0); // tests wait on it
  }, abort.signal, (err) => {
    status.textContent = resumable(err) ? tr("tournament.reconnecting") : refusal(err);
    return resumable(err);
  });
  return { close: () => abort.abort() };
}

function view(app: App, seen: Json, act: (rpc: string, said: string) => void): HTMLElement[] {
  const t = seen.tournament;
  const out: HTMLElement[] = [
    el("h2", { text: t.name }),
    el("p", { id: "tournament-summary", text: summary(app, t) }),
  ];
  const buttons = el("p", { class: "actions" });
  const button = (id: string, text: string, rpc: string, said: string) => {
    const b = el("button", { type: "button", id, text });
    b.addEventListener("click", () => act(rpc, said));
    buttons.append(b);
  };
  const live = t.status === "TOURNAMENT_STATUS_REGISTERING" || t.status === "TOURNAMENT_STATUS_RUNNING";
  if (t.status === "TOURNAMENT_STATUS_REGISTERING" && !seen.registered) button("tournament-register", tr("tournament.register"), "RegisterForTournament", tr("tournament.registered"));
  if (live && seen.registered) button("tournament-withdraw", tr("tournament.withdraw"), "WithdrawFromTournament", tr("tournament.withdrew"));
  if (live && t.creatorId === app.guest.playerId) button("tournament-cancel", tr("tournament.cancel"), "CancelTournament", tr("tournament.cancelled"));
  out.push(buttons);
  if (seen.myMatchId) {
    const path = `/play?match=${encodeURIComponent(seen.myMatchId)}`;
    const a = el("a", { href: path, id: "tournament-my-match", class: "open", text: tr("tournament.my_match") });
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      saveSeat(seen.myMatchId, { game: t.game, seat: Number(seen.mySeat || 0), token: seen.mySeatToken });
      app.navigate(path);
    });
    out.push(el("p", {}, a));
  }
  out.push(el("h3", { text: tr("tournament.standings") }), standings(seen.standings || []));
  const rounds: Json[] = seen.rounds || [];
  if (rounds.length) {
    const now = rounds[rounds.length - 1];
    out.push(el("h3", { text: tr("tournament.round", { n: now.number }) }),
      el("ol", { id: "tournament-tables" }, ...(now.tables || []).map((table: Json) => el("li", {
        "data-match": table.matchId || "",
        text: tableText(table),
      }))));
  }
  return out;
}

/** "Swiss, running, round 1 of 3"; before the start "…, starts <when>"; ended "… (cancelled)". */
function summary(app: App, t: Json): string {
  const values = { game: titleOf(app, t.game), format: formatOf(t), status: statusOf(t), round: t.currentRound, rounds: t.roundCount, when: when(t.startAtMs) };
  const said = tr(t.currentRound ? "tournament.summary.round" : "tournament.summary.starts", values);
  return t.endedReason ? tr("tournament.summary.ended", { summary: said, reason: named("ended", t.endedReason) }) : said;
}

/** "Ivy #1 vs Jon #2 (forfeit) (done)", "Ivy (bye)". */
function tableText(table: Json): string {
  const seats = (table.seats || []).map((s: Json) => {
    let who: string = s.displayName || tr("tournament.bot");
    if (s.placing) who = tr("tournament.placed", { who, placing: s.placing });
    return s.forfeited ? tr("tournament.forfeit", { who }) : who;
  }).join(tr("tournament.versus"));
  return table.matchId ? tr("tournament.table", { seats, status: named("table", table.status, "TABLE_STATUS_") }) : tr("tournament.bye", { seats });
}

function standings(rows: Json[]): HTMLElement {
  const columns = ["player", "points", "buchholz", "score", "wins", "played", "byes", "forfeits"];
  const head = el("tr", {}, el("th", { text: "#" }), ...columns.map((h) => el("th", { text: tr(`tournament.col.${h}`) })));
  return el("table", { id: "tournament-standings", class: "standings" }, el("thead", {}, head),
    el("tbody", {}, ...rows.map((r) => el("tr", { "data-player": r.playerId, class: r.withdrawn || r.eliminated ? "out" : "" },
      ...[r.rank, r.displayName, r.points || 0, r.buchholz || 0, r.gameScore || 0, r.wins || 0, r.played || 0, r.byes || 0, r.forfeits || 0]
        .map((c) => el("td", { text: String(c) }))))));
}
