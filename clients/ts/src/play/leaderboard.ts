// The leaderboards (/play?leaderboard=GAME&season=ID): a game's best players in a season (GetLeaderboard),
// with a picker of the game and one of the season (ListSeasons: the current one and the earlier ones
// rated in, newest first, and "all-time"). No season in the URL: the current one.
import { el } from "../shell.js";
import { titleOf, type App, type Screen } from "./app.js";
import { refusal, type Json } from "./api.js";
import { tr } from "../i18n.js";

/** The URL of a game's board in a season ("": the current one). */
export const boardPath = (game: string, season = ""): string =>
  `/play?leaderboard=${encodeURIComponent(game)}` + (season ? `&season=${encodeURIComponent(season)}` : "");

/** A season's id, "(current)" beside the current one; "all-time" for all. */
const seasonName = (s: Json): string =>
  s.id === "all" ? tr("leaderboard.all_time") : s.current ? tr("leaderboard.current", { season: s.id }) : s.id;

export function showLeaderboard(app: App, root: HTMLElement, game: string, season: string): Screen {
  const chosen = game || [...app.games.keys()][0] || "";
  const status = el("p", { class: "status-line", id: "leaderboard-status", text: tr("leaderboard.loading") });
  root.replaceChildren(el("section", { class: "panel leaderboard", id: "leaderboard" }, el("h2", { text: tr("leaderboard.title") }), status));
  load(app, root.firstElementChild as HTMLElement, chosen, season, status);
  return { close: () => {} };
}

async function load(app: App, panel: HTMLElement, game: string, season: string, status: HTMLElement): Promise<void> {
  let board: Json, listed: Json;
  try {
    [board, listed] = await Promise.all([
      app.lobby().call("GetLeaderboard", { game, season }),
      app.lobby().call("ListSeasons", {}),
    ]);
  } catch (err) {
    status.textContent = tr("leaderboard.unreadable", { why: refusal(err) });
    return;
  }
  const answered: Json = board.season || { id: "all" };
  const seasons: Json[] = [...(listed.seasons || []), { id: "all" }];
  const games = el("select", { id: "leaderboard-game", name: "game" },
    ...[...app.games.keys()].map((g) => el("option", { value: g, text: titleOf(app, g) }))) as HTMLSelectElement;
  games.value = game;
  const picker = el("select", { id: "season-picker", name: "season" },
    ...seasons.map((s) => el("option", { value: s.id, text: seasonName(s) }))) as HTMLSelectElement;
  picker.value = answered.id;
  const go = () => app.navigate(boardPath(games.value, picker.value));
  games.addEventListener("change", go);
  picker.addEventListener("change", go);
  const rows = (board.entries || []).map((e: Json) =>
    el("tr", {}, el("td", { text: String(e.rank) }), el("td", { text: e.displayName || e.playerId }),
      el("td", { text: Number(e.rating || 0).toFixed(1) }), el("td", { text: String(e.matches || 0) })));
  const table = rows.length
    ? el("table", { id: "leaderboard-entries" }, el("tr", {}, el("th", { text: "#" }), ...["player", "rating", "matches"].map((k) => el("th", { text: tr(`leaderboard.${k}`) }))), ...rows)
    : el("p", { class: "note", id: "leaderboard-empty", text: tr("leaderboard.empty") });
  status.textContent = tr("leaderboard.showing", { game: titleOf(app, game), season: seasonName(answered) });
  panel.replaceChildren(panel.firstElementChild!, el("p", {}, el("label", {}, tr("leaderboard.game") + " ", games), " ", el("label", {}, tr("leaderboard.season") + " ", picker)), status, table);
}
