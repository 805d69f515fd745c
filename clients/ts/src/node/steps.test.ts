// The play app's step-by-step picker (src/play/steps.ts) over Lorenzo's generated Command descriptor and
// legal commands as protobuf JSON, without a page or a server: the kind first, then the first field
// whose values differ (in their natural order), a field every command agrees on never asked, the
// commands' comments beside them, choices kept across a refresh while some command still matches, a
// module's plans (one choice for several commands).
// Run by tests/unit/client/test_ts_play_steps.py (`node --test dist/node/steps.test.js`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { CommandSchema } from "../gen/tabula/lorenzo/v1/lorenzo_pb.js";
import { docs } from "../gen/tabula/lorenzo/v1/lorenzo_docs.js";
import { KIND, describe, keepLegal, narrow, nextStep, stepFor, type Game } from "../play/steps.js";
import { useAppWords } from "../i18n.js";

// The picker's English (services/gateway/web_words.py: the page reads them as GET /texts/play)
useAppWords({
  "steps.yes": "yes", "steps.no": "no", "steps.nothing": "nothing", "steps.no_value": "no {field}",
  "steps.what": "What do you do?", "steps.which_field": "{command}: {field}?", "steps.which_one": "{command}: which one?",
  "steps.ways": "{command} ({n} ways)", "steps.send": "Send this command?",
});

const NAMES = ["Ada", "Bruno"];
const game: Game = { command: CommandSchema, docs, wording: null, ctx: () => null, seatName: (s) => NAMES[s] ?? `seat ${s}` };
const place = (member: string, space: number, servants = 0) =>
  ({ placeFamilyMember: { member, space, servants, costOption: 0, discountOption: 0 } });
const LEGAL = [
  place("MEMBER_WHITE", 1), place("MEMBER_BLACK", 1), place("MEMBER_BLACK", 2), place("MEMBER_BLACK", 2, 1),
  { discardLeader: { leader: 3 } }, { endTurn: {} },
];

test("the first step is the kind of command, with each kind's comment", () => {
  const step = nextStep(game, LEGAL)!;
  assert.equal(step.title, "What do you do?");
  assert.deepEqual(step.options.map((o) => o.label), ["Place family member (4 ways)", "Discard leader: leader 3", "End turn"]);
  assert.match(step.options[0].hint, /^Place a member on a space/);
  assert.deepEqual(step.options.map((o) => o.commands.length), [4, 1, 1]);
});

test("then the first field whose values differ, enum values in their declared order", () => {
  const chosen = [{ key: KIND, value: "placeFamilyMember" }];
  const step = stepFor(game, LEGAL, chosen)!;
  assert.equal(step.field, "member");
  assert.equal(step.title, "Place family member: member?");
  assert.deepEqual(step.options.map((o) => o.label), ["member black", "member white"]); // BLACK = 2, WHITE = 3
  assert.match(step.help, /servants/);
  const black = [...chosen, step.options[0].choice];
  const next = stepFor(game, LEGAL, black)!;
  assert.equal(next.field, "space"); // servants differ too, but space comes first; cost options never differ
  assert.deepEqual(next.options.map((o) => [o.label, o.commands.length]), [["space 1", 1], ["space 2", 2]]);
  const servants = stepFor(game, LEGAL, [...black, next.options[1].choice])!;
  assert.deepEqual(servants.options.map((o) => o.label), ["servants 0", "servants 1"]);
});

test("one command left is still asked, as a single option that sends it", () => {
  const step = stepFor(game, [{ endTurn: {} }], [])!;
  assert.equal(step.options.length, 1);
  assert.equal(step.options[0].label, "End turn");
  assert.match(step.options[0].hint, /^Finish the turn/);
});

test("after a refresh the choices some command still matches are kept, the rest dropped from the end", () => {
  const chosen = [{ key: KIND, value: "placeFamilyMember" }, { key: "member", value: JSON.stringify("MEMBER_WHITE") }];
  assert.equal(narrow(LEGAL, chosen, game).length, 1);
  const moved = [place("MEMBER_BLACK", 5), { endTurn: {} }];
  assert.deepEqual(keepLegal(moved, chosen, game), chosen.slice(0, 1));
  assert.deepEqual(keepLegal([{ endTurn: {} }], chosen, game), []);
});

test("an unset optional field and a seat are put in words", () => {
  const play = [{ playLeader: { leader: 4 } }, { playLeader: { leader: 4, copyOf: 7 } }];
  const step = nextStep(game, play)!;
  assert.deepEqual(step.options.map((o) => o.label), ["no copy of", "copy of 7"]);
  assert.equal(describe(game, { playLeader: { leader: 4, copyOf: 7 } }), "Play leader: leader 4, copy of 7");
});

test("a module's plans are one step whose options each send their commands one after the other", () => {
  const legal = [{ endTurn: {} }, { discardLeader: { leader: 3 } }];
  const plans = (commands: unknown[]) => ({
    title: "Which way?",
    plans: [
      { label: "discard, then end", commands: [commands[1], commands[0]] },
      { label: "end", commands: [commands[0]] },
      { label: "not legal", commands: [{ discardLeader: { leader: 9 } }] }, // left out: not a legal first command
    ],
  });
  const planned: Game = { ...game, wording: { plans } };
  const step = stepFor(planned, legal, [])!;
  assert.equal(step.title, "Which way?");
  assert.deepEqual(step.options.map((o) => [o.label, o.commands, o.then]),
    [["discard, then end", [legal[1]], [legal[0]]], ["end", [legal[0]], []]]);
  // Once a choice is made, or without plans, the usual steps.
  assert.equal(stepFor(planned, legal, [{ key: KIND, value: "endTurn" }])!.title, "Send this command?");
  assert.equal(stepFor({ ...game, wording: { plans: () => null } }, legal, [])!.title, "What do you do?");
});
