// A finished match's analysis in the replay (docs/lobby.md "Analysis"): a button that asks the lobby to
// rate the player's own seat (AnalyzeMatch), then a bar per rated move, shorter as the played command
// loses more against the best one found (full: the best move was played); the title says it in
// words ("best was ..."). A click on a bar moves the replay to that decision. While the analysis runs
// it is read again (GetAnalysis) every POLL_MS until it is done, cancelled or the panel is gone.
import { el } from "../shell.js";
import { refusal, type Json } from "./api.js";
import type { App } from "./app.js";
import { tr } from "../i18n.js";

const POLL_MS = 1500;
const LOSS_SCALE = 4; // a bar loses its whole height at a quarter of the chance of finishing ahead lost
const CLOSE = 0.05; // a loss up to this is "close" (yellow), more is "worse" (red)
const ACTIVE = new Set(["ANALYSIS_STATUS_QUEUED", "ANALYSIS_STATUS_RUNNING"]);

export function analysisPanel(app: App, matchId: string, seat: number): HTMLElement {
  const status = el("span", { class: "analysis-status", id: "analysis-status" });
  const bars = el("div", { class: "analysis-bars", id: "analysis-bars", role: "list" });
  const button = el("button", { type: "button", id: "analyze-button", text: tr("analysis.ask") }) as HTMLButtonElement;
  const node = el("section", { class: "analysis", id: "analysis", "aria-label": tr("analysis.title") },
    el("h3", { text: tr("analysis.title") }), button, status, bars);
  const request = { matchId, seat };

  const show = (analysis: Json): void => {
    const moves: Json[] = analysis?.moves ?? [];
    const state = String(analysis?.status ?? "ANALYSIS_STATUS_UNSPECIFIED");
    const rated = moves.length, total = Number(analysis?.decisions ?? -1);
    const words = state.replace("ANALYSIS_STATUS_", "").toLowerCase();
    const said = { status: tr(`analysis.status.${words}`), rated, total };
    status.textContent = state === "ANALYSIS_STATUS_UNSPECIFIED" ? tr("analysis.explain")
      : tr(total >= 0 ? "analysis.rated_of" : "analysis.rated", said) + (analysis?.error ? ` (${analysis.error})` : "");
    node.dataset.status = words;
    button.hidden = state === "ANALYSIS_STATUS_DONE" || ACTIVE.has(state);
    bars.replaceChildren(...moves.map(bar));
  };

  const bar = (move: Json): HTMLElement => {
    const played = Number(move.playedValue ?? 0), best = Number(move.bestValue ?? 0);
    const loss = move.forced || move.same ? 0 : Math.max(0, best - played); // of the chance of finishing ahead
    const share = 1 - Math.min(1, LOSS_SCALE * loss);
    const pct = (v: number) => `${Math.round(100 * v)}%`;
    const title = move.forced ? tr("analysis.forced", { version: move.version, played: move.played })
      : tr(move.same ? "analysis.best_found" : "analysis.best_was",
        { version: move.version, played: move.played, value: pct(played), best: move.best, best_value: pct(best) });
    const kind = move.forced ? "forced" : move.same ? "best" : loss <= CLOSE ? "close" : "worse";
    const b = el("button", { type: "button", class: `analysis-bar ${kind}`, role: "listitem", title, "aria-label": title,
      "data-version": String(move.version ?? 0) });
    const fill = el("span");
    fill.style.height = `${Math.round(8 + 40 * share)}px`; // a property, not a style attribute (the page's CSP)
    b.append(fill);
    b.addEventListener("click", () => replayAt(Number(move.version ?? 0)));
    return b;
  };

  let polling = false;
  const poll = async (analysis: Json): Promise<void> => {
    show(analysis);
    if (polling) return;
    polling = true;
    try {
      while (ACTIVE.has(String(analysis?.status)) && node.isConnected) {
        await new Promise((done) => setTimeout(done, POLL_MS));
        analysis = ((await app.lobby().call("GetAnalysis", request)) as Json).analysis;
        show(analysis);
      }
    } catch (err) {
      status.textContent = tr("analysis.unreadable", { why: refusal(err) });
    } finally {
      polling = false;
    }
  };

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await poll(((await app.lobby().call("AnalyzeMatch", request)) as Json).analysis);
    } catch (err) {
      status.textContent = tr("analysis.refused", { why: refusal(err) });
    } finally {
      button.disabled = false;
    }
  });
  app.lobby().call("GetAnalysis", request).then((reply) => poll((reply as Json).analysis), () => show(null));
  return node;
}

/** Move the replay slider to ``version`` (the replay reads the board there once the slider rests). */
function replayAt(version: number): void {
  const slider = document.getElementById("replay-slider") as HTMLInputElement | null;
  if (!slider || version < 1) return;
  slider.value = String(version);
  slider.dispatchEvent(new Event("input"));
}
