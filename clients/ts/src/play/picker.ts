// The picker's DOM: the question of the step, what was chosen so far (each undone by "back"), the
// options as buttons with what each does, and the board's own nodes as targets where the step picks a
// value the board shows (a node with data-<field>="<value>": a tower floor's data-space, a bowl's
// data-bowl), so a tap on the board chooses as the button does.
import { el } from "../shell.js";
import { kindOf, type Option, type Step } from "./steps.js";

export interface Picked {
  label: string;
}

export interface PickerHandlers {
  choose: (option: Option) => void;
  back: () => void;
}

export function drawPicker(root: HTMLElement, step: Step, picked: Picked[], disabled: boolean, on: PickerHandlers): void {
  const trail = picked.length ? el("div", { class: "trail" }, ...picked.map((p) => el("span", { class: "picked", text: p.label })),
    button("back", "back", disabled, on.back)) : "";
  const options = step.options.map((option, i) => {
    const b = button(option.label, "option", disabled, () => on.choose(option));
    b.dataset.option = String(i);
    if (option.commands.length === 1) b.classList.add("sends");
    return el("li", {}, b, option.hint ? el("small", { class: "hint", text: option.hint }) : "");
  });
  root.replaceChildren(
    el("h2", { class: "question", text: step.title }),
    step.help ? el("p", { class: "help", text: step.help }) : "",
    trail,
    el("ol", { class: "options", "data-field": step.field }, ...options));
  root.dataset.ready = disabled ? "" : "1";
}

function button(text: string, kind: string, disabled: boolean, click: () => void): HTMLButtonElement {
  const b = el("button", { type: "button", class: kind, text }) as HTMLButtonElement;
  b.disabled = disabled;
  b.addEventListener("click", click);
  return b;
}

const TARGET = "pick-target"; // the class of a board node a tap chooses with (the modules' own classes differ)
const attribute = (field: string) => `data-${field.replace(/([A-Z])/g, "-$1").toLowerCase()}`;

/**
 * Marks the board's nodes that stand for the step's values and makes a tap on one choose it. A node in
 * a player's panel (inside a `data-seat` node: a Trajan mat's bowls, a Florenza district's slots) counts
 * only in the panel of `seat`, the seat the commands are about. A node with `data-commands` (command
 * kinds, space-separated) counts only for those kinds: a field that names different things by command
 * (a forum tile in the forum to take, one on the mat to spend).
 */
export function boardTargets(board: HTMLElement, step: Step | null, disabled: boolean, seat: number, choose: (option: Option) => void): number {
  for (const node of board.querySelectorAll(`.${TARGET}`)) node.classList.remove(TARGET);
  if (!step || !step.field || disabled) return 0;
  const name = attribute(step.field);
  let marked = 0;
  for (const option of step.options) {
    if (option.choice.value === "-") continue; // an unset optional: nothing on the board stands for it
    const value = JSON.parse(option.choice.value);
    if (typeof value !== "number" && typeof value !== "string") continue;
    const kind = kindOf(option.commands[0]);
    for (const node of board.querySelectorAll<HTMLElement>(`[${name}="${CSS.escape(String(value))}"]`)) {
      const panel = node.parentElement?.closest<HTMLElement>("[data-seat]");
      if (panel && board.contains(panel) && panel.dataset.seat !== String(seat)) continue;
      if (node.dataset.commands !== undefined && !node.dataset.commands.split(" ").includes(kind)) continue;
      node.classList.add(TARGET);
      node.dataset.sends = option.commands.length === 1 ? "1" : "";
      node.onclick = (ev) => {
        if (!node.classList.contains(TARGET)) return;
        ev.stopPropagation();
        choose(option);
      };
      marked += 1;
    }
  }
  return marked;
}
