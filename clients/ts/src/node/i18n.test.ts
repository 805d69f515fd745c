// The page's words of src/i18n.ts, without a server or a page: `t` over a package's templates (GET
// /texts/<name> answers them) fills `{name}` fields and returns an unknown key as it is, so a module's
// miss shows; the page's locale from the browser's languages. Run by tests/unit/client/test_ts_i18n.py
// (`node --test dist/node/i18n.test.js`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { fill, localeOf, negotiate, translator } from "../i18n.js";

const PT = {
  "web.position": "{seat} está na casa {square}",
  "web.goal": "Chegada: casa {goal}",
  "web.same": "{who} e {who}",
};

test("t fills a template's placeholders, each wherever it appears", () => {
  const t = translator(PT);
  assert.equal(t("web.position", { seat: "Ada", square: 7 }), "Ada está na casa 7");
  assert.equal(t("web.same", { who: "Bia" }), "Bia e Bia");
  assert.equal(t("web.goal", { goal: 0 }), "Chegada: casa 0"); // a zero is a value
});

test("an unknown key is returned as it is, and a value not given stays visible", () => {
  const t = translator(PT);
  assert.equal(t("web.no_such_key"), "web.no_such_key");
  assert.equal(t("web.no_such_key", { seat: "Ada" }), "web.no_such_key");
  assert.equal(t("web.position", { seat: "Ada" }), "Ada está na casa {square}");
  assert.equal(translator({})("web.goal", { goal: 3 }), "web.goal"); // no words at all (no texts for the game yet)
  assert.equal(t("constructor"), "constructor"); // nothing inherited counts as a template
});

test("fill leaves braces that are not placeholders alone", () => {
  assert.equal(fill("{a} {} {1x} {b}", { a: "A" }), "A {} {1x} {b}");
});

test("the page's locale is the first of the browser's languages that is ours", () => {
  assert.equal(negotiate(["fr-FR", "pt", "zh-CN"]), "pt-BR");
  assert.equal(negotiate(["zh-Hans-CN", "en"]), "zh-CN");
  assert.equal(negotiate(["zh-TW", "de"]), "en"); // Traditional Chinese is not Simplified
  assert.equal(negotiate([]), "en");
  assert.equal(localeOf("pt_BR"), "pt-BR");
  assert.equal(localeOf("en-GB"), "en");
});
