// Taking back the seat's latest command (the rule service's Undo, the same in every game;
// docs/workers.md "Undo"): an Undo button beside the picker while the view says `undoable`, then the
// call with the view's version, sent again as it is until answered. A refusal is said in words.
import { el } from "../shell.js";
import { commandId, refusal, type Json } from "./api.js";
import { tr } from "../i18n.js";

export class UndoBox {
  readonly node = el("section", { class: "undo", id: "undo", hidden: "" });
  private sending = false;
  private error = "";
  private reply: Json = null;

  /** ``send``: Undo at this version with this command id (one per click), sent again until answered. */
  constructor(private readonly send: (version: string, commandId: string) => Promise<unknown>) {}

  /** The view on screen: the button shows while the seat may take back its latest command. */
  update(reply: Json): void {
    this.reply = reply;
    if (reply?.undoable) this.error = "";
    this.draw();
  }

  private draw(): void {
    const undoable = !!this.reply?.undoable && !this.reply.outcome;
    this.node.hidden = !undoable && !this.error;
    const button = el("button", { type: "button", id: "undo-button", class: "link",
      text: this.sending ? tr("undo.sending") : tr("undo.button") }) as HTMLButtonElement;
    button.disabled = this.sending || !undoable;
    button.addEventListener("click", () => this.go());
    const error = this.error ? el("p", { class: "message refused", text: tr("match.refused", { why: this.error }) }) : "";
    this.node.replaceChildren(...(undoable ? [button] : []), error);
  }

  private async go(): Promise<void> {
    if (this.sending || !this.reply) return;
    this.sending = true;
    this.draw();
    try {
      await this.send(String(this.reply.version), commandId());
    } catch (err) {
      this.error = refusal(err);
    } finally {
      this.sending = false;
      this.draw();
    }
  }
}
