// Choosing one of many legal commands in small steps, built from the commands' own fields, as the
// terminal client does (services/client/steps.py, docs/client.md "Choosing a command: steps"):
// first the kind of command (the member of the game's `Command` oneof), then, among the commands of
// that kind that are left, the first field whose value differs, until one command is left. A field
// every remaining command agrees on is never asked. What was chosen is a list of field = value, not
// positions, so it survives a refresh: when the match moves, the steps are rebuilt from the new legal
// commands and the choices some command still matches are kept (keepLegal).
//
// Commands are protobuf JSON (GetViewResponse.legalCommands as the JSON client reads them); the
// descriptor of the game's Command message says which fields exist, their types and enum values. A
// game's module may word steps and values (Wording); otherwise the field names and values are put in
// words generically. Pure functions: tested in Node.js without a page (src/node/steps.test.ts).
import type { DescEnum, DescField, DescMessage } from "@bufbuild/protobuf";
import { enumWord, phrase, words } from "../shell.js";
import { tr } from "../i18n.js";

export type Json = any; // protobuf JSON of any game's command
export const KIND = ""; // the Choice key of the first step: which kind of command

/** One answer: the command kind (key KIND, value the oneof member's JSON name) or a field's value. */
export interface Choice {
  key: string;
  value: string;
}

export interface Option {
  label: string;
  choice: Choice;
  commands: Json[]; // the legal commands this option leaves
  hint: string; // what the option does (the command's comment), "" when nothing is known
  then?: Json[]; // a plan's commands sent after the chosen one, each while it is still legal
}

export interface Step {
  title: string;
  field: string; // the field's JSON name; "" for the kind step
  help: string; // the comments of the command and of the field asked
  options: Option[];
}

/** Optional words of a game's module (services/<game>/web/<game>.js): null keeps the generic words. */
export interface Wording {
  describeCommand?(command: Json, ctx: unknown): string | null;
  stepTitle?(kind: string, field: string, member: Json, ctx: unknown): string | null;
  optionText?(kind: string, field: string, member: Json, ctx: unknown): string | null;
  optionHint?(kind: string, field: string, member: Json, ctx: unknown): string | null; // what it costs and does
  plans?(commands: Json[], ctx: unknown): Plans | null; // one choice that stands for several commands in a row
}

/** A module's plans: one question whose options each send several commands, one after the other
 * (Trajan's sowing: the order of the markers). Each plan's first command is one of the legal ones. */
export interface Plans {
  title: string;
  help?: string; // what the choice does, under the question
  plans: { label: string; hint?: string; commands: Json[] }[];
}

/** What the picker knows of a game: its Command descriptor, its comments, its module and the seat names. */
export interface Game {
  command: DescMessage; // the game's Command message (a oneof of command messages)
  docs: Record<string, string>; // type name (and type name.field) -> its comment
  wording: Wording | null;
  ctx: () => unknown; // handed to the module's wording: the page's ModuleContext, with the view shown
  seatName: (seat: number) => string;
}

export const kindOf = (command: Json): string => Object.keys(command)[0] ?? "";
export const memberOf = (command: Json): Json => command[kindOf(command)] ?? {};

/** The message type of a command kind (a oneof member's JSON name). */
export function kindMessage(game: Game, kind: string): DescMessage | undefined {
  return game.command.fields.find((f) => f.jsonName === kind)?.message;
}

/** A field's value as a comparable key: its JSON text, or "-" when absent (an unset optional). */
export function fieldKey(member: Json, field: DescField): string {
  const value = member[field.jsonName];
  return value === undefined ? "-" : JSON.stringify(value);
}

export function matches(command: Json, choice: Choice, game: Game): boolean {
  if (choice.key === KIND) return kindOf(command) === choice.value;
  const field = kindMessage(game, kindOf(command))?.fields.find((f) => f.jsonName === choice.key);
  return field !== undefined && fieldKey(memberOf(command), field) === choice.value;
}

export function narrow(commands: Json[], choices: Choice[], game: Game): Json[] {
  return commands.filter((c) => choices.every((choice) => matches(c, choice, game)));
}

/** The longest prefix of `choices` that some command still matches (after the match moved). */
export function keepLegal(commands: Json[], choices: Choice[], game: Game): Choice[] {
  const kept = [...choices];
  while (kept.length && !narrow(commands, kept, game).length) kept.pop();
  return kept;
}

function groups(commands: Json[], key: (c: Json) => string): Map<string, Json[]> {
  const out = new Map<string, Json[]>();
  for (const c of commands) {
    const k = key(c);
    out.set(k, [...(out.get(k) ?? []), c]);
  }
  return out;
}

// Values in their natural order: numbers by value, enums by number, the rest as they came.
function ordered(grouped: Map<string, Json[]>, field: DescField): Map<string, Json[]> {
  const rank = (k: string): number | undefined => {
    if (k === "-") return -Infinity;
    const value = JSON.parse(k);
    if (field.fieldKind === "enum") return field.enum.values.find((v) => v.name === value)?.number;
    if (typeof value === "number" || typeof value === "boolean") return Number(value);
    return typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : undefined; // int64
  };
  const keys = [...grouped.keys()];
  if (keys.some((k) => rank(k) === undefined)) return grouped;
  return new Map(keys.sort((a, b) => rank(a)! - rank(b)!).map((k) => [k, grouped.get(k)!]));
}

/** Options worded alike read as one to the player (two copies of one card): the first is kept. */
function distinct(options: Option[]): Option[] {
  const first = new Map<string, Option>();
  for (const o of options) if (!first.has(o.label)) first.set(o.label, o);
  return [...first.values()];
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const fieldWords = (field: DescField): string => field.name.replace(/_/g, " ");

function enumValueWords(e: DescEnum, value: Json): string {
  return enumWord(e.values.find((v) => v.name === value)?.name ?? value);
}

/** One value of a field in words, generically: an enum by its name, a seat by its player's name. */
function valueWords(field: DescField, value: Json, game: Game): string {
  if (field.fieldKind === "enum" || (field.fieldKind === "list" && field.listKind === "enum")) {
    return enumValueWords(field.enum!, value);
  }
  if (/(^|_)seat$/.test(field.name) && typeof value === "number") return game.seatName(value);
  if (typeof value === "boolean") return value ? tr("steps.yes") : tr("steps.no");
  if (value !== null && typeof value === "object") return phrase(value) || tr("steps.nothing");
  return String(value);
}

/** A field's value of one command in words: the module's, else "servants 2", "member black". */
export function valueLabel(game: Game, kind: string, member: Json, field: DescField): string {
  const named = game.wording?.optionText?.(kind, field.jsonName, member, game.ctx());
  if (named) return named;
  const label = fieldWords(field);
  const value = member[field.jsonName];
  if (value === undefined) return tr("steps.no_value", { field: label });
  if (Array.isArray(value)) return value.map((v) => valueWords(field, v, game)).join(", ") || tr("steps.no_value", { field: label });
  const text = valueWords(field, value, game);
  return text.toLowerCase().startsWith(label) ? text : `${label} ${text}`;
}

/** A whole command in words: the module's, else "Place family member: member black, space 5". */
export function describe(game: Game, command: Json): string {
  const named = game.wording?.describeCommand?.(command, game.ctx());
  if (named) return named;
  const kind = kindOf(command);
  const message = kindMessage(game, kind);
  const member = memberOf(command);
  const title = capital(words(kind));
  if (!message) return title;
  const said = message.fields
    .filter((f) => { const v = member[f.jsonName]; return v !== undefined && v !== 0 && v !== "0" && v !== false && !(Array.isArray(v) && !v.length); })
    .map((f) => valueLabel(game, kind, member, f));
  return said.length ? `${title}: ${said.join(", ")}` : title;
}

function title(game: Game, kind: string, field: DescField | undefined, member: Json): string {
  const named = game.wording?.stepTitle?.(kind, field?.jsonName ?? "", member, game.ctx());
  if (named) return named;
  if (!kind) return tr("steps.what");
  return field ? tr("steps.which_field", { command: capital(words(kind)), field: fieldWords(field) }) : tr("steps.which_one", { command: capital(words(kind)) });
}

/** The question that splits `commands`; null when one command is left (or none). */
export function nextStep(game: Game, commands: Json[]): Step | null {
  if (commands.length < 2) return null;
  const kinds = groups(commands, kindOf);
  if (kinds.size > 1) {
    const options = [...kinds].map(([kind, group]) => {
      const type = kindMessage(game, kind)?.typeName ?? "";
      const label = group.length === 1 ? describe(game, group[0]) : tr("steps.ways", { command: capital(words(kind)), n: group.length });
      return { label, choice: { key: KIND, value: kind }, commands: group, hint: game.docs[type] ?? "" };
    });
    return { title: title(game, "", undefined, {}), field: "", help: "", options };
  }
  const kind = kindOf(commands[0]);
  const message = kindMessage(game, kind);
  const type = message?.typeName ?? "";
  for (const field of message?.fields ?? []) {
    const values = ordered(groups(commands, (c) => fieldKey(memberOf(c), field)), field);
    if (values.size < 2) continue;
    const options = distinct([...values].map(([key, group]) => ({
      label: valueLabel(game, kind, memberOf(group[0]), field),
      choice: { key: field.jsonName, value: key },
      commands: group,
      hint: game.wording?.optionHint?.(kind, field.jsonName, memberOf(group[0]), game.ctx()) ?? "",
    })));
    const help = [game.docs[type], game.docs[`${type}.${field.name}`]].filter(Boolean).join(" ");
    return { title: title(game, kind, field, memberOf(commands[0])), field: field.jsonName, help, options };
  }
  // Commands that agree on every field (not expected of legal commands): one option each.
  const options = distinct(commands.map((c) => ({ label: describe(game, c), choice: { key: KIND, value: kind }, commands: [c], hint: "" })));
  return { title: title(game, kind, undefined, memberOf(commands[0])), field: "", help: game.docs[type] ?? "", options };
}

/** The step to show for `commands` after `choices`: with a single command left, that command alone. */
export function stepFor(game: Game, commands: Json[], choices: Choice[]): Step | null {
  const left = narrow(commands, choices, game);
  if (!left.length) return null;
  const planned = choices.length ? null : planStep(game, commands);
  if (planned) return planned;
  const step = nextStep(game, left);
  if (step) return step;
  // One command left: a step of one option still asks (nothing is sent without a click).
  const only = left[0];
  const type = kindMessage(game, kindOf(only))?.typeName ?? "";
  const last = choices[choices.length - 1] ?? { key: KIND, value: kindOf(only) };
  return {
    title: choices.length ? tr("steps.send") : title(game, "", undefined, {}),
    field: "",
    help: "",
    options: [{ label: describe(game, only), choice: last, commands: [only], hint: game.docs[type] ?? "" }],
  };
}

/** The module's plans for the legal commands as one step (each option sends its plan); null: none. */
function planStep(game: Game, commands: Json[]): Step | null {
  const found = game.wording?.plans?.(commands, game.ctx());
  const legal = new Set(commands.map((c) => JSON.stringify(c)));
  const plans = (found?.plans ?? []).filter((p) => p.commands.length && legal.has(JSON.stringify(p.commands[0])));
  if (!found || plans.length < 2) return null;
  const kind = kindOf(plans[0].commands[0]);
  const options = plans.map((p) => ({
    label: p.label, choice: { key: KIND, value: kind }, commands: [p.commands[0]], then: p.commands.slice(1), hint: p.hint ?? "",
  }));
  return { title: found.title, field: "", help: found.help ?? game.docs[kindMessage(game, kind)?.typeName ?? ""] ?? "", options };
}
