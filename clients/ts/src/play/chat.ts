// Chat (docs/chat.md): a panel showing one channel of the lobby's chat (a room's, a match's players'
// or its spectators'), its last messages and then live (WatchChat, resumed after the last message seen),
// with a box to write in. A message is sent with its own client message id, so however often a lost
// answer makes it be sent again, it is stored once.
import { el } from "../shell.js";
import { follow, resumable, type App } from "./app.js";
import { commandId, persist, refusal, type Json } from "./api.js";
import { pageLocale, tr } from "../i18n.js";

const PAGE = 50; // messages read when the panel opens
const SHOWN = 200; // messages kept on screen
const MAX_TEXT = 200; // the lobby's bound (domain/chat.py MAX_TEXT)

export interface ChatPanel {
  element: HTMLElement;
  close(): void;
}

/** A panel for `channel` ("room:<id>", "match:<id>" ...); `canWrite` false: read only. */
export function chatPanel(app: App, channel: string, title: string, canWrite = true): ChatPanel {
  const abort = new AbortController();
  const log = el("ol", { class: "chat-log", "aria-live": "polite" });
  const status = el("p", { class: "status-line chat-status" });
  const input = el("input", {
    name: "chat-text", maxlength: String(MAX_TEXT), autocomplete: "off", placeholder: tr("chat.placeholder"), "aria-label": title,
  }) as HTMLInputElement;
  const form = el("form", { class: "chat-form" }, input, el("button", { type: "submit", name: "chat-send", text: tr("chat.send") }));
  const element = el("section", { class: "chat panel", "data-channel": channel },
    el("h2", { text: title }), log, canWrite ? form : "", status);
  const shown = new Set<string>(); // message ids on screen (a message may come from its answer and the stream)
  let last = ""; // the newest message id the stream told of: it resumes after it

  const add = (m: Json) => {
    if (!m?.messageId || shown.has(m.messageId)) return;
    shown.add(m.messageId);
    const at = new Date(Number(m.sentAtMs || 0)).toLocaleTimeString(pageLocale(), { hour: "2-digit", minute: "2-digit" });
    log.append(el("li", { class: `chat-msg${m.playerId === app.guest.playerId ? " mine" : ""}`, "data-message-id": m.messageId },
      el("span", { class: "chat-at", text: at }), " ", el("b", { class: "chat-name", text: m.displayName || "?" }), " ",
      el("span", { class: "chat-text", text: m.text })));
    while (log.children.length > SHOWN) log.firstElementChild?.remove();
    log.scrollTop = log.scrollHeight;
  };

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const request = { channel, text, clientMessageId: commandId() }; // one id for every retry of this message
    input.value = "";
    status.textContent = "";
    try {
      const reply = (await persist(() => app.lobby().call("SendChatMessage", request))) as Json;
      add(reply.message);
    } catch (err) {
      status.textContent = refusal(err);
      if (!input.value) input.value = text;
    }
  });

  (async () => {
    try {
      const page = (await app.lobby().call("ListChatMessages", { channel, limit: PAGE })) as Json;
      for (const m of page.messages || []) add(m);
      last = page.head || "0-0";
    } catch (err) {
      status.textContent = refusal(err);
      return;
    }
    follow((request, signal) => app.lobby().stream("WatchChat", request, signal), () => ({ channel, after: last }), (item) => {
      if (item.message) {
        add(item.message);
        last = item.message.messageId;
      }
      if (status.textContent === tr("chat.reconnecting")) status.textContent = "";
    }, abort.signal, (err) => {
      status.textContent = resumable(err) ? tr("chat.reconnecting") : refusal(err);
      return resumable(err);
    });
  })();
  return { element, close: () => abort.abort() };
}
