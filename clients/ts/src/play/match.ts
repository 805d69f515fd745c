// A match, played: the board as the spectator page draws it (the game's module) from the seat's own
// view (its hand and other private values), whose turn it is, the legal commands of the moment as a
// step-by-step picker (and taps on the board where the module marks the values), the events in words
// newest first, refusals in words. Live: WatchMatch from the newest events on, resumed from the last
// version seen whenever it breaks; every new version the stream tells of is read again with GetView.
import type { DescMessage } from "@bufbuild/protobuf";
import {
  createTips, el, eventText, loadContent, loadGameWords, loadModule, num, outcomeTable, renderTree,
  type GameModule, type ModuleContext,
} from "../shell.js";
import type { JsonClient } from "../tabula.js";
import { pageLocale, tr, translator, type Translate } from "../i18n.js";
import { follow, resumable, titleOf, type App, type Screen } from "./app.js";
import { Code, ConnectError, commandId, gameClient, persist, reason, refusal, type Json } from "./api.js";
import { boardTargets, drawPicker, type Picked } from "./picker.js";
import { keepLegal, memberOf, stepFor, type Choice, type Game, type Option, type Step, type Wording } from "./steps.js";
import { saveSeat, seatKey, type SeatKey } from "./store.js";
import { ResignBox } from "./resign.js";
import { UndoBox } from "./undo.js";
import { analysisPanel } from "./analysis.js";
import { chatPanel, type ChatPanel } from "./chat.js";

const EVENTS = 200; // the event list: the events of the newest this many versions
const CALL_MS = 10_000; // a unary call's deadline: one that hangs is sent again (persist)

// One hover-and-tap box for the page, its listeners added once.
let tips: ReturnType<typeof createTips> | null = null;
function sharedTips(): ReturnType<typeof createTips> {
  if (!tips) {
    tips = createTips(document.getElementById("tip")!);
    tips.wire();
  }
  return tips;
}

export function showMatch(app: App, root: HTMLElement, matchId: string): Screen {
  const view = new MatchView(app, root, matchId);
  view.open();
  return { close: () => view.close() };
}

class MatchView {
  private readonly abort = new AbortController();
  private key: SeatKey | null = null;
  private client: JsonClient | null = null;
  private game: Game | null = null;
  private module: GameModule | null = null;
  private content: unknown = null;
  private texts: unknown = null;
  private readonly locale = pageLocale();
  private t: Translate = translator({}); // the game's words (GET /texts/<game>); keys until they come
  private reply: Json = null; // the GetView on screen
  private head = 0; // the newest version this seat knows of
  private lastSeen = 0; // the stream's last version (it resumes after it)
  private readonly events = new Map<number, Json>();
  private choices: Choice[] = [];
  private picked: Picked[] = [];
  private sending = false;
  private refreshing = false;
  private dirty = false;
  private renewed = false; // the seat token was renewed once (a second bad_token is shown)
  private replayed = 0; // the version a finished match's replay shows (0: none, the end)
  private clocks = new Map<number, { due: number; away: boolean }>(); // seat -> its turn clock (the page's time)
  private clockTimer: ReturnType<typeof setInterval> | null = null;
  private readonly tips = sharedTips();
  private readonly undo = new UndoBox((version, id) => persist(() => this.client!.call("Undo", { matchId: this.matchId, expectedVersion: version, commandId: id }, CALL_MS)).then(() => this.refresh()));
  private readonly resign = new ResignBox((id) => persist(() => this.client!.call("Resign", { matchId: this.matchId, commandId: id }, CALL_MS)).then(() => this.refresh()));
  // the players' chat, and the spectators' (players read it, write in their own: docs/chat.md)
  private chats: ChatPanel[] = [];
  private readonly dom = {
    title: el("h2", { class: "match-title", id: "match-title" }),
    status: el("span", { class: "status idle", id: "match-status", text: tr("match.connecting") }),
    seats: el("div", { class: "seats", id: "match-seats" }),
    message: el("p", { class: "message", id: "message", role: "status" }),
    picker: el("section", { class: "picker panel", id: "picker", "aria-label": tr("match.your_move") }),
    outcome: el("section", { class: "outcome", id: "match-outcome", hidden: "" }),
    board: el("section", { class: "board", id: "board" }),
    events: el("ol", { class: "event-log", id: "event-log" }),
    legend: el("details", { class: "legend", id: "legend", hidden: "" }),
  };

  constructor(private readonly app: App, private readonly root: HTMLElement, private readonly matchId: string) {}

  close(): void {
    this.abort.abort();
    this.chats.forEach((c) => c.close());
    if (this.clockTimer) clearInterval(this.clockTimer);
    this.tips.hide();
    document.getElementById("game-css")?.removeAttribute("href"); // the game's styles are for its board only
  }

  async open(): Promise<void> {
    const d = this.dom;
    this.chats = [chatPanel(this.app, `match:${this.matchId}`, tr("match.players_chat")),
      chatPanel(this.app, `spectators:${this.matchId}`, tr("match.spectators_chat"), false)];
    this.root.replaceChildren(el("div", { class: "match-screen" },
      el("section", { class: "match-bar" }, d.title, d.status, d.seats),
      el("div", { class: "match-layout" },
        el("div", { class: "main" }, d.legend, d.board),
        el("div", { class: "column" },
          el("div", { class: "side" }, d.message, d.picker, this.undo.node, d.outcome, this.resign.node),
          el("section", { class: "events panel" }, el("h2", { text: tr("match.events") }, el("span", { class: "sub", text: ` ${tr("match.newest_first")}` })), d.events),
          ...this.chats.map((c) => c.element)))));
    try {
      await this.connect();
    } catch (err) {
      this.status(refusal(err), "error");
      return;
    }
    this.watch();
  }

  private async connect(): Promise<void> {
    this.key = seatKey(this.matchId) ?? (await this.fromLobby());
    if (!this.key) {
      const watch = el("a", { href: `/?match=${encodeURIComponent(this.matchId)}`, text: tr("match.watch_it") });
      this.dom.picker.replaceChildren(el("p", { text: `${tr("match.no_seat")} ` }, watch));
      throw new Error("not your match");
    }
    const info = this.app.games.get(this.key.game) ?? { name: this.key.game, title: this.key.game, minSeats: 0, maxSeats: 0, module: false, content: false };
    this.dom.title.textContent = titleOf(this.app, this.key.game);
    const [{ client, command, docs }, content, module, words] = await Promise.all([
      gameClient(this.key.game, this.key.token), loadContent(info),
      // a module that fails to load leaves the view drawn as a tree
      loadModule(info, document.getElementById("game-css") as HTMLLinkElement).catch(() => null),
      loadGameWords(info, this.locale),
    ]);
    Object.assign(this, { client, content, module, t: translator(words.texts) });
    this.texts = ((await client.call("GetContent", {}).catch(() => ({}))) as Json).content ?? null;
    this.game = this.gameFor(command, docs);
    this.drawLegend();
    await this.refresh();
  }

  /** The seat token from the lobby (ListMyMatches signs a fresh one), kept on the device. */
  private async fromLobby(): Promise<SeatKey | null> {
    const reply = (await this.app.lobby().call("ListMyMatches", { limit: 100 })) as Json;
    const mine = (reply.matches || []).find((m: Json) => m.matchId === this.matchId);
    if (!mine) return null;
    const key = { game: mine.game, seat: num(mine.seat), token: mine.seatToken };
    saveSeat(this.matchId, key);
    return key;
  }

  private gameFor(command: DescMessage, docs: Record<string, string>): Game {
    return { command, docs, wording: this.module as Wording | null, ctx: () => this.ctx(), seatName: (s) => this.seatName(s) };
  }

  // ------------------------------------------------------------------ what the module gets

  private seatName(seat: number): string {
    const label = (this.reply?.seats || [])[seat]?.label || tr("match.seat", { n: seat + 1 });
    return seat === this.key?.seat ? tr("match.you", { name: label }) : label;
  }

  private chip(seat: number): HTMLElement {
    return el("span", { class: `chip seat-${num(seat) % 5}${num(seat) === this.key?.seat ? " me" : ""}`, text: this.seatName(num(seat)) });
  }

  private ctx(): ModuleContext {
    return {
      content: this.content, texts: this.texts, locale: this.locale, t: this.t, el, game: this.key?.game ?? "",
      seatName: (s) => this.seatName(num(s)), chip: (s) => this.chip(s), tip: this.tips.tip, reply: this.reply,
    };
  }

  private drawLegend(): void {
    const rows = this.module?.legend ? this.module.legend(this.ctx()) : [];
    this.dom.legend.hidden = !rows.length;
    this.dom.legend.replaceChildren(el("summary", { text: tr("match.legend") }), el("ul", {}, ...rows.map(([symbol, meaning]) =>
      el("li", {}, el("span", { class: "sym" }, symbol), el("span", { class: "means", text: meaning })))));
  }

  // ------------------------------------------------------------------ live

  private watch(): void {
    // The newest events first: the list starts EVENTS versions back, then follows live.
    this.lastSeen = Math.max(0, this.head - EVENTS);
    const request = () => ({ matchId: this.matchId, fromVersion: String(this.lastSeen + 1) });
    follow((r, signal) => this.client!.stream("WatchMatch", r, signal), request, (item) => this.onItem(item), this.abort.signal,
      (err) => {
        if (this.reply?.outcome && this.lastSeen >= this.head) return false; // finished, every event seen: nothing more comes
        if (!resumable(err)) {
          this.status(refusal(err), "error");
          return false;
        }
        this.status(tr("match.reconnecting"), "idle");
        return true;
      });
  }

  private onItem(item: Json): void {
    const top = item.event ? num(item.event.envelope.version) : num(item.keepalive?.headVersion);
    if (item.event) {
      this.events.set(top, item.event);
      this.drawEventsSoon();
    }
    this.lastSeen = Math.max(this.lastSeen, top);
    if (top > this.head) {
      this.head = top;
      this.refresh();
    } else if (this.reply && this.dom.status.textContent === tr("match.reconnecting")) {
      this.drawStatus();
    }
  }

  /** GetView again (one at a time; a call asked for meanwhile runs once after it), then draw it. */
  private async refresh(): Promise<void> {
    if (this.refreshing) { this.dirty = true; return; }
    this.refreshing = true;
    try {
      do {
        this.dirty = false;
        const reply = await persist(() => this.client!.call("GetView", { matchId: this.matchId }, CALL_MS));
        if (this.abort.signal.aborted) return;
        this.show(reply);
      } while (this.dirty);
    } catch (err) {
      if (this.abort.signal.aborted) return;
      if (err instanceof ConnectError && reason(err) === "bad_token" && !this.renewed) { this.renewed = true; this.renew(); return; }
      this.status(refusal(err), "error");
    } finally {
      this.refreshing = false;
    }
  }

  /** A seat token no longer valid (they last 7 days): a fresh one from the lobby, and the view again. */
  private async renew(): Promise<void> {
    const key = await this.fromLobby().catch(() => null);
    if (!key) { this.status(tr("match.token_gone"), "error"); return; }
    this.key = key;
    this.client = (await gameClient(key.game, key.token)).client;
    await this.refresh();
  }

  private show(reply: Json): void {
    const moved = this.reply && num(reply.version) !== num(this.reply.version);
    this.reply = reply;
    this.replayed = 0; // a view read again shows the head (a replay slider is drawn anew)
    this.head = Math.max(this.head, num(reply.version));
    const kept = keepLegal(reply.legalCommands || [], this.choices, this.game!);
    if (moved && this.choices.length && kept.length < this.choices.length) {
      this.say(tr("match.moved_on"), "moved");
    }
    this.choices = kept;
    this.picked = this.picked.slice(0, kept.length);
    if (this.module) this.module.render(this.dom.board, reply, this.ctx()); else renderTree(this.dom.board, reply, (s) => this.seatName(s));
    this.setClocks(reply.clocks || []);
    this.drawStatus();
    this.drawPicker();
    this.drawOutcome();
    this.drawEvents();
    this.tips.follow();
    document.body.dataset.rendered = String(num(reply.version)); // the version on screen (tests wait on it)
  }

  // ------------------------------------------------------------------ drawing

  private status(text: string, kind: string): void {
    this.dom.status.textContent = text;
    this.dom.status.className = `status ${kind}`;
  }

  private say(text: string, kind = ""): void {
    this.dom.message.textContent = text;
    this.dom.message.className = `message ${kind}`;
  }

  private drawStatus(): void {
    const r = this.reply;
    const toAct: number[] = r.seatsToAct || [];
    const mine = toAct.includes(this.key!.seat) && (r.legalCommands || []).length > 0;
    if (r.outcome) this.status(tr("match.finished"), "finished");
    else if (mine) this.status(tr("match.your_turn"), "your-turn");
    else this.status(tr("match.waiting_for", { who: toAct.map((s) => this.seatName(s)).join(", ") || tr("match.the_board") }), "live");
    document.body.classList.toggle("my-turn", mine);
    this.dom.seats.replaceChildren(...(r.seats || []).map((_: Json, seat: number) =>
      el("span", { class: `seat${toAct.includes(seat) ? " to-act" : ""}`, "data-seat": String(seat) }, this.chip(seat),
        toAct.includes(seat) ? el("span", { class: "acting", text: tr("match.to_act") }) : "",
        this.clocks.has(seat) ? el("span", { class: "clock", "data-clock": String(seat) }) : "")));
    this.tickClocks();
    this.undo.update(r);
    this.resign.update(r, this.key!.seat, this.dom.seats);
  }

  // ------------------------------------------------------------------ turn clocks

  /** The view's turn clocks (GetViewResponse.clocks: the time left when it was read) as due times here. */
  private setClocks(clocks: Json[]): void {
    const now = Date.now();
    this.clocks = new Map(clocks.map((c: Json) => [num(c.seat), { due: now + num(c.remainingMs), away: c.away === true }]));
    if (this.clocks.size && !this.clockTimer) this.clockTimer = setInterval(() => this.tickClocks(), 1000);
  }

  /** Each seat's time left, "1:05 left" (with "away" once a clock of the seat ran out). */
  private tickClocks(): void {
    for (const node of this.dom.seats.querySelectorAll<HTMLElement>("[data-clock]")) {
      const clock = this.clocks.get(num(node.dataset.clock));
      if (!clock) continue;
      const left = Math.max(0, Math.ceil((clock.due - Date.now()) / 1000));
      const text = left > 0 ? tr("match.clock.left", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` }) : tr("match.clock.up");
      node.textContent = clock.away ? `${text} · ${tr("match.clock.away")}` : text;
      node.classList.toggle("short", left <= 10);
      node.title = clock.away ? tr("match.clock.away_note") : "";
    }
  }

  private drawPicker(): void {
    const legal: Json[] = this.reply.legalCommands || [];
    const board = this.dom.board;
    if (this.reply.outcome || !legal.length) {
      boardTargets(board, null, true, -1, () => {});
      this.dom.picker.dataset.ready = "";
      this.dom.picker.dataset.field = "";
      const waiting = this.reply.outcome ? tr("match.over") : tr("match.waiting_long", { who: (this.reply.seatsToAct || []).map((s: number) => this.seatName(s)).join(", ") || tr("match.the_board") });
      this.dom.picker.replaceChildren(el("h2", { class: "question", text: waiting }));
      return;
    }
    const step = stepFor(this.game!, legal, this.choices);
    if (!step) return;
    const choose = (option: Option) => this.choose(option);
    drawPicker(this.dom.picker, step, this.picked, this.sending, { choose, back: () => this.back() });
    this.dom.picker.dataset.field = step.field;
    const targets = boardTargets(board, step, this.sending, this.aboutSeat(step), choose);
    this.dom.picker.classList.toggle("has-targets", targets > 0);
  }

  /** The seat the step's commands are about: their common `owner` or `seat`, else the player's own. */
  private aboutSeat(step: Step): number {
    const commands = step.options.flatMap((o) => o.commands).map(memberOf);
    for (const field of ["owner", "seat"]) {
      const values = new Set(commands.map((m) => m[field]));
      if (values.size === 1 && typeof [...values][0] === "number") return [...values][0];
    }
    return this.key!.seat;
  }

  private drawOutcome(): void {
    const box = this.dom.outcome;
    const outcome = this.reply.outcome;
    box.hidden = !outcome;
    if (!outcome) return;
    const watch = el("a", { href: `/?game=${this.key!.game}&match=${encodeURIComponent(this.matchId)}#token=${encodeURIComponent(this.key!.token)}`,
      text: tr("match.on_spectator_page") });
    const save = el("button", { type: "button", id: "export-log", text: tr("match.download_log") }) as HTMLButtonElement;
    save.addEventListener("click", () => this.exportLog(save));
    box.replaceChildren(el("h2", { text: tr("match.final_scores") }), outcomeTable(outcome, (s) => this.chip(s)),
      this.replayBar(), analysisPanel(this.app, this.matchId, this.key!.seat), el("p", { class: "export" }, save, ` · ${tr("match.watch_again")} `, watch));
  }

  // ------------------------------------------------------------------ a finished match: replay, export

  /** A slider over the match's versions: the board (and the events) as they were at each (Replay). */
  private replayBar(): HTMLElement {
    const head = num(this.reply.version);
    const slider = el("input", { type: "range", id: "replay-slider", min: "1", max: String(head), value: String(head), step: "1",
      "aria-label": tr("match.replay_at") }) as HTMLInputElement;
    const label = el("span", { class: "replay-label", id: "replay-label" });
    const go = (version: number) => {
      slider.value = String(Math.max(1, Math.min(head, version)));
      const shown = Number(slider.value);
      label.textContent = shown === head ? tr("match.replay.end", { head }) : tr("match.replay.of", { version: shown, head });
      this.replay(shown);
    };
    let timer: ReturnType<typeof setTimeout> | null = null;
    slider.addEventListener("input", () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => go(Number(slider.value)), 120); // one Replay once the slider rests
    });
    const step = (text: string, id: string, by: number) => {
      const b = el("button", { type: "button", id, text });
      b.addEventListener("click", () => go(Number(slider.value) + by));
      return b;
    };
    label.textContent = tr("match.replay.end", { head });
    return el("div", { class: "replay", "aria-label": tr("match.replay") },
      el("h3", { text: tr("match.replay") }), step(tr("match.prev"), "replay-prev", -1), slider, step(tr("match.next"), "replay-next", 1), label);
  }

  private async replay(version: number): Promise<void> {
    this.replayed = version;
    const head = num(this.reply.version);
    let shown: Json = this.reply;
    if (version < head) {
      try {
        shown = await persist(() => this.client!.call("Replay", { matchId: this.matchId, version: String(version) }, CALL_MS));
      } catch (err) {
        this.say(tr("match.replay_failed", { why: refusal(err) }), "refused");
        return;
      }
      if (this.replayed !== version) return; // the slider moved on meanwhile
      shown = { ...shown, outcome: null, legalCommands: [] };
    }
    if (this.module) this.module.render(this.dom.board, shown, { ...this.ctx(), reply: shown });
    else renderTree(this.dom.board, shown, (s) => this.seatName(s));
    this.drawEvents(version);
    this.tips.follow();
    document.body.dataset.replayed = String(version); // the version the replay shows (tests wait on it)
  }

  /** The whole log (ExportLog: every event, revealed once the match is over) as a JSON file. */
  private async exportLog(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      const log = await persist(() => this.client!.call("ExportLog", { matchId: this.matchId }, CALL_MS));
      const file = new Blob([JSON.stringify({ game: this.key!.game, matchId: this.matchId, ...(log as Json) }, null, 2)], { type: "application/json" });
      const a = el("a", { href: URL.createObjectURL(file), download: `${this.key!.game}-${this.matchId}.json` }) as HTMLAnchorElement;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch (err) {
      this.say(tr("match.export_failed", { why: refusal(err) }), "refused");
    } finally {
      button.disabled = false;
    }
  }

  /** GetView until it shows `version` or later (a plan's next command is decided on it); false if it fails. */
  private async viewAt(version: number): Promise<boolean> {
    for (let tries = 0; tries < 10; tries++) {
      const reply = await persist(() => this.client!.call("GetView", { matchId: this.matchId }, CALL_MS)).catch(() => null);
      if (!reply || this.abort.signal.aborted) return false;
      if (num((reply as Json).version) >= version) { this.show(reply); return true; }
    }
    return false;
  }

  private eventsTimer: ReturnType<typeof setTimeout> | null = null;
  private drawEventsSoon(): void {
    if (this.eventsTimer) return;
    this.eventsTimer = setTimeout(() => { this.eventsTimer = null; this.drawEvents(); }, 100);
  }

  private drawEvents(upTo = Infinity): void {
    // The events of the last EVENTS versions: what a page opened now reads (older ones are dropped);
    // a replay shows those up to the version it shows.
    if (this.replayed && upTo === Infinity) upTo = this.replayed;
    for (const v of this.events.keys()) if (v <= this.head - EVENTS) this.events.delete(v);
    const shown = [...this.events.keys()].filter((v) => v <= upTo).sort((a, b) => b - a);
    const ctx = this.ctx();
    this.dom.events.replaceChildren(...shown.map((v) => el("li", { "data-version": String(v) },
      el("span", { class: "v", text: String(v) }), el("span", { class: "t", text: eventText(this.events.get(v), this.module, ctx) }))));
  }

  // ------------------------------------------------------------------ choosing and sending

  private choose(option: Option): void {
    if (this.sending) return;
    if (option.commands.length === 1) { this.send(option.commands[0], option.then ?? []); return; }
    this.choices = [...this.choices, option.choice];
    this.picked = [...this.picked, { label: option.label }];
    this.say("");
    this.drawPicker();
  }

  private back(): void {
    this.choices = this.choices.slice(0, -1);
    this.picked = this.picked.slice(0, -1);
    this.drawPicker();
  }

  /**
   * One click's command: built once (its id and the version seen), sent again as it is until answered.
   * `then`: the rest of a plan (a module's one choice of several commands), each sent once the one
   * before it is applied, while it is still legal.
   */
  private async send(command: Json, then: Json[] = []): Promise<void> {
    const request = { matchId: this.matchId, expectedVersion: String(num(this.reply.version)), commandId: commandId(), command };
    this.sending = true;
    this.say(tr("match.sending"), "busy");
    this.drawPicker();
    try {
      const sent = await persist(() => this.client!.call("SubmitCommand", request, CALL_MS), (ms) => this.say(tr("match.resending", { seconds: Math.ceil(ms / 1000) }), "busy"));
      this.choices = [];
      this.picked = [];
      this.say("");
      if (then.length && (await this.viewAt(num((sent as Json).lastVersion)))) {
        const [next, ...rest] = then;
        if ((this.reply.legalCommands || []).some((c: Json) => JSON.stringify(c) === JSON.stringify(next))) {
          this.sending = false;
          return this.send(next, rest);
        }
        this.say(tr("match.rest_gone"), "moved");
      }
    } catch (err) {
      this.say(tr("match.refused", { why: refusal(err) }), "refused");
      if (err instanceof ConnectError && (err.code === Code.Aborted || reason(err) === "stale_version")) {
        this.choices = [];
        this.picked = [];
      }
    } finally {
      this.sending = false;
    }
    await this.refresh();
  }
}
