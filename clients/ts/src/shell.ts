// What the spectator page (services/gateway/static/spectator.js) and the play app (src/play/) share
// around a game's drawing module: the DOM helper handed to the module, the hover and tap texts, the
// module and its content tables loaded from the gateway, the generic drawing of a view (a tree) and the
// events in words. Nothing here names a game: each game's module (services/<game>/web/<game>.js, served
// as /games/<game>/<game>.js) draws its board and words its events, in the page's language through
// ctx.t (the game's words, GET /texts/<game>: src/i18n.ts).
import { loadWords, pageLocale, tr, type Locale, type Translate, type Words } from "./i18n.js";

/** What GET /games says of one game. */
export interface GameInfo {
  name: string;
  title: string;
  minSeats: number;
  maxSeats: number;
  module: boolean;
  content: boolean;
  texts?: boolean; // its words in every language: GET /texts/<name>
}

/** What a module's functions get: the tables, the texts and the helpers of the page that draws it. */
export interface ModuleContext {
  content: unknown;
  texts: unknown; // GetContent's components, their texts in the page's locale
  locale: Locale; // the page's language: "en", "zh-CN" or "pt-BR"
  t: Translate; // the game's words in that language: t("web.final.total", { points: 3 }); an unknown key is returned as it is
  el: typeof el;
  game: string;
  seatName: (seat: number) => string;
  chip: (seat: number) => HTMLElement;
  tip: (node: HTMLElement, text?: string) => HTMLElement;
  reply?: unknown; // the play app: the seat's GetView shown (its view, for the wording of its commands)
}

type Json = any; // protobuf JSON of any game

/** A game's drawing module (an ES module): render is required, the rest optional. */
export interface GameModule {
  render(root: HTMLElement, reply: Json, ctx: ModuleContext): void;
  describeEvent?(item: Json, ctx: ModuleContext): string | null;
  legend?(ctx: ModuleContext): [Node, string][];
}

type Child = Node | string;

/** A DOM element: `class`, `text` and attributes from `attrs`, then the children. */
export function el(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

export const num = (v: unknown): number => Number(v || 0);

// ------------------------------------------------------------------ the game's module and tables

/** Every game of the gateway's registry (GET /games), their titles in the page's language. */
export async function listGames(): Promise<GameInfo[]> {
  const reply = await fetch("/games", { headers: { "accept-language": pageLocale() } });
  if (!reply.ok) throw new Error(`GET /games: HTTP ${reply.status}`);
  return (await reply.json()).games as GameInfo[];
}

/** The game's content tables (GET /content/<game>), or null without them. */
export async function loadContent(info: GameInfo): Promise<unknown> {
  if (!info.content) return null;
  try {
    const reply = await fetch(`/content/${info.name}`);
    return reply.ok ? await reply.json() : null;
  } catch {
    return null; // names fall back to ids
  }
}

/** The game's words in `locale` (GET /texts/<game>), none (every key shows as itself) without them. */
export async function loadGameWords(info: GameInfo, locale: Locale): Promise<Words> {
  return info.texts ? loadWords(info.name, locale) : { locale, texts: {} };
}

/** The game's drawing module, its stylesheet set on `css`; null without one. A failed import throws. */
export async function loadModule(info: GameInfo, css: HTMLLinkElement): Promise<GameModule | null> {
  css.removeAttribute("href");
  if (!info.module) return null;
  css.setAttribute("href", `/games/${info.name}/${info.name}.css`);
  const url = `/games/${info.name}/${info.name}.js`;
  return (await import(/* @vite-ignore */ url)) as GameModule;
}

// ------------------------------------------------------------------ hover and tap texts

/**
 * One floating box for every node with data-tip: shown while the pointer is over it or after a tap (a
 * click) on it, hidden by a tap elsewhere. The board is drawn again on every view: `follow()` then
 * moves the box to whatever node is under the same point.
 */
export function createTips(box: HTMLElement) {
  const pointer = { x: -1, y: -1, pinned: false };
  const tip = (node: HTMLElement, text?: string): HTMLElement => {
    if (text) node.dataset.tip = text;
    return node;
  };
  const show = (target: HTMLElement) => {
    box.textContent = target.dataset.tip ?? "";
    box.hidden = false;
    const r = target.getBoundingClientRect();
    const left = Math.min(window.innerWidth - box.offsetWidth - 8, Math.max(8, r.left));
    const below = r.bottom + box.offsetHeight + 8 < window.innerHeight;
    box.style.left = `${left + window.scrollX}px`;
    box.style.top = `${(below ? r.bottom + 4 : r.top - box.offsetHeight - 4) + window.scrollY}px`;
  };
  const hide = () => { box.hidden = true; };
  const tipped = (target: EventTarget | null) =>
    target instanceof Element ? (target.closest("[data-tip]") as HTMLElement | null) : null;
  const follow = () => {
    if (box.hidden) return;
    const target = tipped(document.elementFromPoint(pointer.x, pointer.y));
    if (target) show(target); else hide();
  };
  const wire = () => {
    document.addEventListener("pointermove", (ev) => {
      Object.assign(pointer, { x: ev.clientX, y: ev.clientY });
      const target = tipped(ev.target);
      if (target) show(target); else if (!pointer.pinned) hide();
    });
    document.addEventListener("click", (ev) => {
      Object.assign(pointer, { x: ev.clientX, y: ev.clientY });
      const target = tipped(ev.target);
      pointer.pinned = Boolean(target);
      if (target) show(target); else hide();
    });
  };
  return { tip, follow, wire, hide };
}

// ------------------------------------------------------------------ the generic drawing: the view as a tree

function scalar(value: unknown): string {
  if (value === null || value === undefined || value === "") return "-";
  return typeof value === "boolean" ? (value ? tr("steps.yes") : tr("steps.no")) : String(value);
}
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function treeItem(key: string, value: unknown): HTMLElement {
  if (Array.isArray(value) && value.some(isObject)) {
    const items = value.map((v, i) => treeItem(`${key} ${i + 1}`, v));
    return el("li", {}, el("details", { open: "" },
      el("summary", {}, el("span", { class: "k", text: key }), el("span", { class: "n", text: `(${value.length})` })),
      el("ul", {}, ...items)));
  }
  if (Array.isArray(value)) {
    return el("li", {}, el("span", { class: "k", text: key }), value.map(scalar).join(", ") || "-");
  }
  if (isObject(value)) {
    return el("li", {}, el("details", { open: "" }, el("summary", {}, el("span", { class: "k", text: key })),
      el("ul", {}, ...Object.entries(value).map(([k, v]) => treeItem(k, v)))));
  }
  return el("li", { "data-field": key }, el("span", { class: "k", text: key }), el("b", { text: scalar(value) }));
}

/** A view drawn as a readable tree, for a game without a module. */
export function renderTree(root: HTMLElement, reply: Json, seatName: (seat: number) => string): void {
  const toAct = (reply.seatsToAct || []).map(seatName).join(", ") || (reply.systemToAct ? tr("shell.system") : "-");
  const view = reply.view || {};
  root.replaceChildren(el("div", { class: "tree" }, el("ul", {}, treeItem(tr("shell.to_act"), toAct),
    ...Object.entries(view).map(([k, v]) => treeItem(k, v)))));
}

// ------------------------------------------------------------------ events in words

/** "placeFamilyMember" -> "place family member". */
export const words = (key: string): string => key.replace(/([A-Z])/g, " $1").toLowerCase().trim();

/** An enum value's name in words: "MEMBER_BLACK" -> "black". */
export const enumWord = (v: unknown): string =>
  String(v).replace(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*?_(?=[A-Z0-9]+$)/, "").toLowerCase().replace(/_/g, " ");

/** Protobuf JSON in words: "member black, space 5, value 3" (empty and zero fields are left out). */
export function phrase(value: unknown): string {
  if (Array.isArray(value)) return value.map(phrase).filter(Boolean).join("; ");
  if (isObject(value)) {
    return Object.entries(value).filter(([, v]) => v !== "" && v !== null && v !== 0 && v !== "0" && v !== false
      && !(Array.isArray(v) && !v.length) && !(isObject(v) && !phrase(v)))
      .map(([k, v]) => `${words(k)} ${phrase(v)}`).join(", ");
  }
  return typeof value === "string" && /^[A-Z][A-Z0-9_]+$/.test(value) ? enumWord(value) : String(value);
}

/** The generic wording of a MatchEvent: "Ada · family member placed: member black, space 5". */
export function genericWords(item: Json, seatName: (seat: number) => string): string {
  const [[kind, fields] = ["event", {}]] = Object.entries((item.event || {}) as Record<string, Json>);
  const { seat, ...rest } = fields || {};
  const detail = phrase(rest);
  const who = seat !== undefined ? `${seatName(num(seat))} · ` : "";
  return `${who}${words(kind)}${detail ? ": " + detail : ""}`;
}

/** A MatchEvent in words: a platform event's (the same in every game), else the module's, else the
 * generic wording. */
export function eventText(item: Json, module: GameModule | null, ctx: ModuleContext): string {
  if (item.platform?.seatResigned) return tr("shell.resigned", { seat: ctx.seatName(num(item.platform.seatResigned.seat)) });
  if (item.platform?.commandsUndone) {
    const undone = item.platform.commandsUndone;
    return tr("shell.undone", { seat: ctx.seatName(num(undone.seat)), version: num(undone.toVersion) });
  }
  if (module && module.describeEvent) {
    try {
      const text = module.describeEvent(item, ctx);
      if (text) return text;
    } catch {
      // the generic wording below
    }
  }
  return genericWords(item, ctx.seatName);
}

/** The final scores: a table of place, player and score, best first. */
export function outcomeTable(outcome: Json, chip: (seat: number) => HTMLElement): HTMLElement {
  const scores: number[] = outcome.scores || [];
  const placings: number[] = outcome.placings || [];
  const order = scores.map((_, seat) => seat).sort((a, b) => num(placings[a]) - num(placings[b]));
  const rows = order.map((seat) => el("tr", { class: num(placings[seat]) === 1 ? "winner" : "" },
    el("td", { text: String(placings[seat] ?? "") }), el("td", {}, chip(seat)), el("td", { text: String(scores[seat]) })));
  const head = el("tr", {}, ...["shell.place", "shell.player", "shell.score"].map((h) => el("th", { text: tr(h) })));
  return el("table", {}, head, ...rows);
}
