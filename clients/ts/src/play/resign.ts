// Resigning a match (the rule service's Resign, the same in every game; docs/workers.md "Resigning"):
// a Resign button under the picker, then an in-page confirm (no browser dialog: a tap works on a
// phone), then the call, sent again as it is until answered. Once the view lists the seat as resigned
// the box says so; each resigned seat's chip is marked.
import { el, num } from "../shell.js";
import { commandId, refusal, type Json } from "./api.js";
import { tr } from "../i18n.js";

export class ResignBox {
  readonly node = el("section", { class: "resign", id: "resign" });
  private asking = false;
  private sending = false;
  private error = "";
  private reply: Json = null;
  private seat = -1;

  /** ``send``: Resign with this command id (one per confirmation), sent again until answered. */
  constructor(private readonly send: (commandId: string) => Promise<unknown>) {}

  /** The view on screen: the box for the seat played here, and a mark on each resigned seat's chip. */
  update(reply: Json, seat: number, seats: HTMLElement): void {
    this.reply = reply;
    this.seat = seat;
    const resigned: number[] = (reply.resigned || []).map(num);
    for (const node of seats.querySelectorAll<HTMLElement>("[data-seat]")) {
      if (resigned.includes(num(node.dataset.seat)) && !node.querySelector(".resigned")) {
        node.append(el("span", { class: "resigned", text: tr("resign.resigned") }));
      }
    }
    this.draw();
  }

  private draw(): void {
    const resigned = (this.reply?.resigned || []).map(num).includes(this.seat);
    this.node.hidden = !this.reply || (!!this.reply.outcome && !resigned);
    if (resigned) {
      this.node.replaceChildren(el("p", { class: "note", text: tr("resign.done") }));
      return;
    }
    const button = (text: string, id: string, go: () => void, cls = "") => {
      const b = el("button", { type: "button", id, text, class: cls }) as HTMLButtonElement;
      b.disabled = this.sending;
      b.addEventListener("click", go);
      return b;
    };
    const error = this.error ? el("p", { class: "message refused", text: tr("match.refused", { why: this.error }) }) : "";
    if (!this.asking) {
      this.node.replaceChildren(button(tr("resign.resign"), "resign-open", () => { this.asking = true; this.error = ""; this.draw(); }, "link"), error);
      return;
    }
    this.node.replaceChildren(
      el("p", { class: "question", text: tr("resign.question") }),
      el("div", { class: "buttons" },
        button(this.sending ? tr("resign.resigning") : tr("resign.yes"), "resign-confirm", () => this.confirm(), "primary"),
        button(tr("resign.cancel"), "resign-cancel", () => { this.asking = false; this.draw(); })),
      error);
  }

  private async confirm(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    this.draw();
    try {
      await this.send(commandId());
      this.asking = false;
    } catch (err) {
      this.error = refusal(err);
    } finally {
      this.sending = false;
      this.draw();
    }
  }
}
