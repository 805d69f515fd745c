// Lorenzo il Magnifico on the spectator page: the whole board (summary, the four towers, market, council
// palace, harvest and production, the Vatican's excommunication tiles), each player's board, the final
// scoring, and the events in words. An ES module loaded by the page's shell (services/gateway/static/
// spectator.js) from /games/lorenzo/lorenzo.js; the shell calls
//   render(root, reply, ctx)      for every view it shows,
//   describeEvent(item, ctx)      for every event of the list (a MatchEvent as protobuf JSON), and
//   legend(ctx)                   once per match: [symbol, meaning] rows for the page's legend;
// and the play app (clients/ts/src/play/) also calls, for its step-by-step picker of legal commands,
//   stepTitle(kind, field, member, ctx), optionText(kind, field, member, ctx) and optionHint(...)
//                                 the question of a step, a command's value in words and what that value
//                                 costs and does (null: generic),
//   with ctx.reply the seat's GetView shown.
//   reply: GetView or Replay as protobuf JSON ({version, view, seatsToAct, systemToAct, outcome})
//   ctx:   {content: GET /content/lorenzo or null, texts: GetContent's content (every card, leader, tile,
//          excommunication and space with its name and text in the page's language) or null,
//          locale, t(key, values): Lorenzo's words in the page's language (services/lorenzo/texts.py,
//          the web.* and enum.* keys), el(tag, attrs, ...children), seatName(seat), chip(seat),
//          tip(node, text): the text shown on hover or tap}
// Every card, leader, personal bonus tile, excommunication tile and action space carries its GetContent
// text as its hover text. A node the picker may offer carries the command field's name: a tower floor or
// action space data-space, a family member in its player's panel data-member, a leader data-leader.

const GOODS = ["coins", "wood", "stone", "servants", "military", "faith", "victory"];
const CARD_LISTS = ["territories", "characters", "buildings", "ventures"];
const TOWERS = ["territory", "character", "building", "venture"];
const FINAL = ["before", "territories", "characters", "ventures", "military", "resources", "penalty", "total"];
const AREAS = ["market", "council", "harvest", "production"];

const num = (v) => Number(v || 0);
const enumName = (value, prefix) => String(value || "").replace(prefix, "").toLowerCase().replace(/_/g, " ");
// An enum value in the page's language: ("MEMBER_BLACK", "MEMBER_", "member") -> "black" (enum.member.black).
const enumWord = (ctx, value, prefix, name) => {
  const key = `enum.${name}.${enumName(value, prefix).replace(/ /g, "_")}`;
  const word = ctx.t(key);
  return word === key ? enumName(value, prefix) : word;
};
// {coins: 5, privileges: 2} -> "5 coins, 2 privileges"; zero amounts are left out.
const goodsText = (ctx, goods) => Object.entries(goods || {}).filter(([, n]) => num(n))
  .map(([k, n]) => {
    const key = `web.goods.${k}.${num(n) === 1 ? "one" : "other"}`;
    const text = ctx.t(key, { count: num(n) });
    return text === key ? `${num(n)} ${k}` : text;
  }).join(ctx.t("web.list"));

function table(ctx, file, key) {
  const rows = ctx.content && ctx.content[file] && ctx.content[file][key];
  return new Map((rows || []).map((r) => [Number(r.id), r]));
}
// GetContent's list of each content file's records (their names are in the page's language).
const TEXT_LISTS = { cards: "cards", leaders: "leaders", bonus_tiles: "bonusTiles" };
const named = (ctx, file, key, what) => {
  const localized = new Map(((ctx.texts && ctx.texts[TEXT_LISTS[file]]) || []).map((r) => [Number(r.id || 0), r.name]));
  return (id) => {
    const record = table(ctx, file, key).get(Number(id));
    return localized.get(Number(id)) || (record && record.name) || ctx.t("web.unknown", { what: ctx.t(`web.what.${what}`), id });
  };
};

// GetContent's texts: "cards" 12 -> "Woods: territory card, period 1. ..." ("" when not known), in the page's language.
function texts(ctx, key, id = "id") {
  const rows = (ctx.texts && ctx.texts[key]) || [];
  return new Map(rows.map((r) => [Number(r[id] || 0), r.text || ""]));
}
const ROMAN = ["", "I", "II", "III"];
// An excommunication tile's printed code "2_5" as "II/5".
const tileLabel = (tile, id) => (tile && tile.code ? tile.code.replace(/^(\d)_/, (_, p) => `${ROMAN[Number(p)] || p}/`) : `#${id}`);
// An excommunication's penalty in words: its text after "Excommunication II/5: " (a Chinese colon too).
const penaltyWords = (text) => text.replace(/^[^:：]*[:：]\s*/, "");

function boardSpaces(ctx) {
  const spaces = [...table(ctx, "board", "spaces").values()];
  if (spaces.length) return spaces;
  // Without content tables: the printed board's towers, four floors each (action spaces need the tables).
  return Array.from({ length: 16 }, (_, i) => ({ id: i + 1, kind: "tower", tower: TOWERS[Math.floor(i / 4)], floor: (i % 4) + 1 }));
}

function spaceName(ctx, id) {
  const s = table(ctx, "board", "spaces").get(Number(id));
  if (!s) return ctx.t("web.space", { id });
  if (s.kind === "tower") return ctx.t("web.space.tower", { tower: ctx.t(`enum.card_type.${s.tower}`), floor: s.floor });
  if (s.kind === "council") return ctx.t("web.space.council");
  const market = s.kind === "market" && s.bonus;
  const key = market ? (s.modifier ? "web.space.market_large" : "web.space.market") : (s.modifier ? "web.space.large" : "web.space.area");
  return ctx.t(key, { kind: ctx.t(`space_kind.${s.kind}`), bonus: market ? goodsText(ctx, s.bonus) : "" });
}

// ------------------------------------------------------------------ drawing

function skeleton(root, el, ctx) {
  root.replaceChildren(
    el("section", { id: "summary", class: "lz-summary" }),
    el("section", { class: "lz-board" },
      el("div", { id: "towers", class: "towers" }),
      el("div", { id: "spaces", class: "areas" }),
      el("div", { id: "vatican", class: "vatican" })),
    el("section", {}, el("h2", { text: ctx.t("web.players") }), el("div", { id: "players", class: "players" })),
    el("section", { id: "final-scoring", class: "final-scoring", hidden: "" }));
}

function die(ctx, colour, value) {
  return ctx.el("span", { class: `die die-${colour}`, title: ctx.t("web.die", { colour: ctx.t(`enum.member.${colour}`) }) }, String(value ?? "-"));
}

function renderSummary(root, reply, view, ctx) {
  const { el } = ctx;
  const toAct = (reply.seatsToAct || []).map((s) => ctx.chip(s));
  const dice = view.dice || [];
  const order = (view.turnOrder || []).map((s) => ctx.chip(s));
  const item = (id, label, ...value) => el("div", {}, el("span", { class: "k", text: label }), el("b", { id }, ...value));
  root.querySelector("#summary").replaceChildren(
    item("round", ctx.t("web.summary.round"), String(view.round)),
    item("period", ctx.t("web.summary.period"), String(view.period)),
    item("phase", ctx.t("web.summary.phase"), enumWord(ctx, view.phase, "PHASE_", "phase")),
    item("dice", ctx.t("web.summary.dice"), ...(dice.length ? ["black", "white", "orange"].map((c, i) => die(ctx, c, dice[i])) : ["-"])),
    item("turn-order", ctx.t("web.summary.turn_order"), ...order),
    item("to-act", ctx.t("web.summary.to_act"), ...(toAct.length ? toAct : [reply.systemToAct ? ctx.t("web.summary.board_acts") : "-"])));
}

function occupantChip(ctx, o) {
  const member = enumName(o.member, "MEMBER_");
  const title = ctx.t("web.pawn", { colour: enumWord(ctx, o.member, "MEMBER_", "member") });
  return ctx.el("span", { class: "occupant" }, ctx.chip(o.seat), ctx.el("span", { class: `pawn pawn-${member}`, title }));
}

function renderTowers(root, view, ctx, bySpace) {
  const { el } = ctx;
  const cardName = named(ctx, "cards", "cards", "card");
  const cardText = texts(ctx, "cards"), spaceText = texts(ctx, "spaces");
  const cards = view.towers || [];
  const towers = new Map(TOWERS.map((t) => [t, []]));
  for (const space of boardSpaces(ctx).filter((s) => s.kind === "tower")) towers.get(space.tower).push(space);
  root.querySelector("#towers").replaceChildren(...[...towers].map(([name, spaces]) => {
    const floors = spaces.sort((a, b) => b.floor - a.floor).map((space) => {
      const card = num(cards[space.id - 1]);
      const here = bySpace.get(space.id) || [];
      return el("div", { class: `floor${card ? "" : " empty"}${here.length ? " occupied" : ""}`, "data-space": String(space.id) },
        ctx.tip(el("div", { class: "floor-head" },
          el("span", { class: "value", text: space.value ? `${space.value}` : ctx.t("web.floor", { floor: space.floor }) }),
          el("span", { class: "bonus", text: space.bonus ? ctx.t("web.bonus", { bonus: goodsText(ctx, space.bonus) }) : "" })), spaceText.get(space.id)),
        ctx.tip(el("div", { class: "card", text: card ? cardName(card) : ctx.t("web.taken") }), card ? cardText.get(card) : ""),
        el("div", { class: "who" }, ...here.map((o) => occupantChip(ctx, o))));
    });
    return el("div", { class: `tower tower-${name}`, "data-tower": name }, el("h3", { text: ctx.t(`web.tower.${name}`) }), ...floors);
  }));
}

function renderAreas(root, view, ctx, bySpace) {
  const { el } = ctx;
  const seats = (view.players || []).length;
  const spaces = boardSpaces(ctx).filter((s) => s.kind !== "tower");
  const spaceText = texts(ctx, "spaces");
  root.querySelector("#spaces").replaceChildren(...AREAS.map((kind) => {
    const boxes = spaces.filter((s) => s.kind === kind).map((s) => {
      const here = bySpace.get(s.id) || [];
      const covered = num(s.min_players) > seats;  // rulebook: covered with fewer players
      const label = [s.modifier ? ctx.t("web.large", { modifier: s.modifier }) : (kind === "harvest" || kind === "production" ? ctx.t("web.small") : ""),
        s.bonus ? goodsText(ctx, s.bonus) : ""].filter(Boolean).join(ctx.t("web.label_join"));
      return ctx.tip(el("div", { class: `space${here.length ? " occupied" : ""}${covered ? " covered" : ""}`, "data-space": String(s.id) },
        el("span", { class: "k", text: covered ? ctx.t("web.covered", { count: s.min_players }) : (label || ctx.t("web.value", { value: s.value })) }),
        el("div", { class: "who" }, ...here.map((o) => occupantChip(ctx, o)))), spaceText.get(s.id));
    });
    return el("div", { class: `area area-${kind}`, "data-area": kind }, el("h3", { text: ctx.t(`web.area.${kind}`) }), ...boxes);
  }));
}

function renderVatican(root, view, ctx) {
  const { el } = ctx;
  const tiles = table(ctx, "excommunications", "tiles");
  const text = texts(ctx, "excommunications");
  const drawn = view.excommunicationTiles || [];
  root.querySelector("#vatican").replaceChildren(el("h3", { text: ctx.t("web.vatican") }),
    ...drawn.map((id, i) => ctx.tip(el("div", { class: "tile", "data-excommunication": String(id) },
      el("span", { class: "k", text: ctx.t("web.period", { period: i + 1 }) }), el("b", { text: tileLabel(tiles.get(Number(id)), id) }),
      el("span", { class: "penalty", text: penaltyWords(text.get(Number(id)) || "") })), text.get(Number(id)))));
}

// Named components, each with its text on hover: "Woods, Village" as spans, "-" when none; `field`: the
// data attribute that carries each one's id (data-leader), for the picker.
function namedList(ctx, ids, name, text, field = "") {
  if (!ids.length) return ["-"];
  return ids.flatMap((id, i) => [i ? ", " : "", ctx.tip(ctx.el("span", { class: "named", text: name(id), ...(field ? { [`data-${field}`]: String(id) } : {}) }),
    text.get(Number(id)))]).filter(Boolean);
}

const MEMBERS = [["MEMBER_BLACK", 0], ["MEMBER_WHITE", 1], ["MEMBER_ORANGE", 2], ["MEMBER_NEUTRAL", -1]];

// A player's family members as pawns, each with its die (the neutral one 0): those placed are dimmed.
function family(ctx, p, dice) {
  const placed = new Set(p.placed || []);
  return MEMBERS.map(([member, die]) => {
    const colour = enumName(member, "MEMBER_");
    const value = die < 0 ? 0 : num(dice[die]);
    const title = ctx.t(placed.has(member) ? "web.member_title_placed" : "web.member_title", { colour: enumWord(ctx, member, "MEMBER_", "member"), value });
    return ctx.el("span", { class: `member${placed.has(member) ? " placed" : ""}`, "data-member": member, title },
    ctx.el("span", { class: `pawn pawn-${colour}` }), String(value));
  });
}

function renderPlayer(p, toAct, ctx, dice) {
  const { el } = ctx;
  const cardName = named(ctx, "cards", "cards", "card");
  const leaderName = named(ctx, "leaders", "leaders", "leader");
  const goods = p.goods || {};
  const grid = el("div", { class: "goods" },
    ...GOODS.map((k) => el("div", { "data-good": k, class: `good good-${k}` },
      el("div", { class: "k", text: ctx.t(`web.good.${k}`) }), el("div", { class: "v", text: String(num(goods[k])) }))));
  const cardText = texts(ctx, "cards"), leaderText = texts(ctx, "leaders");
  const cards = el("div", { class: "cards" }, ...CARD_LISTS.map((k) =>
    el("div", { "data-cards": k }, el("span", { class: "k", text: ctx.t("web.card_list", { kind: ctx.t(`web.cards.${k}`), count: (p[k] || []).length }) }),
      ...namedList(ctx, p[k] || [], cardName, cardText))));
  const excommunications = table(ctx, "excommunications", "tiles");
  const tileCode = (id) => tileLabel(excommunications.get(Number(id)), id);
  const bonusName = named(ctx, "bonus_tiles", "tiles", "tile");
  const hand = p.hand || [];  // a seat's own hand (a seat's link), else only how many
  cards.append(
    el("div", { "data-leaders": "played" }, el("span", { class: "k", text: ctx.t("web.leaders_played") }),
      ...namedList(ctx, (p.played || []).map((l) => l.leader), leaderName, leaderText, "leader")),
    el("div", { "data-leaders": "hand" }, el("span", { class: "k", text: ctx.t("web.in_hand") }),
      ...(hand.length ? namedList(ctx, hand, leaderName, leaderText, "leader") : [ctx.t(`web.hand.${num(p.handSize) === 1 ? "one" : "other"}`, { count: num(p.handSize) })])),
    (p.draftHand || []).length ? el("div", { "data-leaders": "draft" }, el("span", { class: "k", text: ctx.t("web.draft") }),
      ...namedList(ctx, p.draftHand, leaderName, leaderText, "leader")) : "",
    el("div", {}, el("span", { class: "k", text: ctx.t("web.bonus_tile") }),
      ...(num(p.bonusTile) ? namedList(ctx, [p.bonusTile], bonusName, texts(ctx, "bonusTiles")) : ["-"])),
    el("div", { class: "family" }, el("span", { class: "k", text: ctx.t("web.family") }), ...family(ctx, p, dice)),
    el("div", { "data-excommunications": "" }, el("span", { class: "k", text: ctx.t("web.excommunications") }),
      ...namedList(ctx, p.excommunications || [], tileCode, texts(ctx, "excommunications"))));
  return el("div", { class: `player${toAct ? " to-act" : ""}`, "data-seat": String(p.seat) },
    el("h3", {}, ctx.chip(p.seat), toAct ? el("span", { class: "acting", text: ctx.t("web.to_act") }) : ""), grid, cards);
}

function renderFinal(root, view, ctx) {
  const { el } = ctx;
  const box = root.querySelector("#final-scoring");
  const finals = view.final || [];
  box.hidden = !finals.length;
  if (!finals.length) return;
  const head = el("tr", {}, ...["player", ...FINAL].map((h) => el("th", { text: ctx.t(`web.final.${h}`) })));
  const rows = finals.map((f) => el("tr", { "data-seat": String(f.seat) }, el("td", {}, ctx.chip(f.seat)),
    ...FINAL.map((k) => el("td", { text: String(f[k] ?? 0) }))));
  box.replaceChildren(el("h2", { text: ctx.t("web.final") }), el("table", {}, head, ...rows));
}

export function render(root, reply, ctx) {
  const view = reply.view || {};
  if (!root.querySelector("#towers")) skeleton(root, ctx.el, ctx);
  const bySpace = new Map();
  for (const o of view.occupants || []) bySpace.set(o.space, [...(bySpace.get(o.space) || []), o]);
  const toAct = new Set(reply.seatsToAct || []);
  renderSummary(root, reply, view, ctx);
  renderTowers(root, view, ctx, bySpace);
  renderAreas(root, view, ctx, bySpace);
  renderVatican(root, view, ctx);
  root.querySelector("#players").replaceChildren(...(view.players || []).map((p) => renderPlayer(p, toAct.has(p.seat), ctx, view.dice || [])));
  renderFinal(root, view, ctx);
}

// ------------------------------------------------------------------ the legend

export function legend(ctx) {
  const { el } = ctx;
  const pawn = (m) => el("span", { class: `pawn pawn-${m}` });
  return [
    [el("span", {}, die(ctx, "black", 5), die(ctx, "white", 3), die(ctx, "orange", 1)), ctx.t("web.legend.dice")],
    [el("span", {}, pawn("black"), pawn("white"), pawn("orange"), pawn("neutral")), ctx.t("web.legend.members")],
    [el("span", { class: "floor-head" }, el("span", { class: "value", text: "5" })), ctx.t("web.legend.value")],
    [el("span", { class: "bonus", text: ctx.t("web.legend.bonus_sample") }), ctx.t("web.legend.bonus")],
    [el("span", { class: "swatch occupied" }), ctx.t("web.legend.occupied")],
    [el("span", { class: "swatch covered" }), ctx.t("web.legend.covered")],
    [el("b", { text: "II/5" }), ctx.t("web.legend.tile")],
  ];
}

// ------------------------------------------------------------------ events in words

// The sources a gain or payment names in words of their own (web.source.*); the others by their enum word.
const SOURCES = ["SOURCE_TOWER_FEE", "SOURCE_FLOOR_BONUS", "SOURCE_CARD_COST", "SOURCE_CARD_EFFECT"];
const source = (ctx, s) => (SOURCES.includes(s) ? ctx.t(`web.source.${enumName(s, "SOURCE_").replace(/ /g, "_")}`) : enumWord(ctx, s, "SOURCE_", "source"));

// Words for Lorenzo's events; null lets the shell's generic wording speak.
export function describeEvent(item, ctx) {
  const [[kind, e] = []] = Object.entries(item.event || {});
  if (!kind) return null;
  const t = ctx.t;
  const seat = e.seat !== undefined ? ctx.seatName(num(e.seat)) : "";
  const card = named(ctx, "cards", "cards", "card");
  const leader = named(ctx, "leaders", "leaders", "leader");
  const list = (items) => items.join(t("web.list"));
  const colour = (member) => enumWord(ctx, member, "MEMBER_", "member");
  switch (kind) {
    case "gameStarted": return t(e.advanced ? "web.event.game_started_advanced" : "web.event.game_started", { seats: e.seats });
    case "resourcesGained": return goodsText(ctx, e.goods) ? t("web.event.gained", { seat, goods: goodsText(ctx, e.goods), source: source(ctx, e.source) }) : null;
    case "resourcesPaid": return goodsText(ctx, e.goods) ? t("web.event.paid", { seat, goods: goodsText(ctx, e.goods), source: source(ctx, e.source) }) : null;
    case "familyMemberPlaced":
      return t("web.event.placed", { seat, colour: colour(e.member), value: num(e.value), space: spaceName(ctx, e.space) });
    case "cardTaken": return t("web.event.card_taken", { seat, card: card(e.card), type: enumWord(ctx, e.cardType, "CARD_TYPE_", "card_type") });
    case "diceRolled": return t("web.event.dice", { black: num(e.black), white: num(e.white), orange: num(e.orange) });
    case "roundStarted": return t("web.event.round_started", { round: num(e.round) });
    case "roundEnded": return t("web.event.round_ended", { round: num(e.round) });
    case "towersFilled": return t("web.event.towers_filled", { count: (e.cards || []).filter(num).length });
    case "placementPassed": return t("web.event.passed", { seat });
    case "turnEnded": return t("web.event.turn_ended", { seat });
    case "councilPrivilegesChosen": {
      const privileges = list((e.privileges || []).map((p) => enumWord(ctx, p, "PRIVILEGE_", "privilege")));
      return t(`web.event.privileges.${(e.privileges || []).length > 1 ? "other" : "one"}`, { seat, privileges });
    }
    case "leadersDealt": return t("web.event.leaders_dealt", { seat, leaders: list((e.leaders || []).map(leader)) });
    case "leaderDrafted": return t("web.event.leader_drafted", { seat, leader: leader(e.leader) });
    case "leaderPlayed": return t("web.event.leader_played", { seat, leader: leader(e.leader) });
    case "leaderDiscarded": return t("web.event.leader_discarded", { seat, leader: leader(e.leader) });
    case "leaderActivated": return t("web.event.leader_activated", { seat, leader: leader(e.leader) });
    case "vaticanAnswerGiven": return t(e.support ? "web.event.supports" : "web.event.accepts", { seat });
    case "churchSupported": return t("web.event.church_supported", { seat, faith: num(e.faith), victory: num(e.victory) });
    case "excommunicated": return t("web.event.excommunicated", { seat });
    case "faithPointsConverted": return t("web.event.faith_converted", { seat, faith: num(e.faith), victory: num(e.victory) });
    case "phaseChanged": return t("web.event.phase", { phase: enumWord(ctx, e.phase, "PHASE_", "phase") });
    case "finalScoreComputed": return t("web.event.final_score", { seat: ctx.seatName(num(e.score.seat)), total: num(e.score.total) });
    case "gameEnded": return t("web.event.game_ended", { scores: list((e.scores || []).map((s, i) => `${ctx.seatName(i)} ${s}`)) });
    case "bonusTileChosen": return t("web.event.bonus_tile_chosen", { seat, tile: num(e.tile) });
    case "bonusActionPerformed": return t("web.event.bonus_action", { seat, value: num(e.value) });
    case "bonusActionSkipped": return t("web.event.bonus_action_skipped", { seat });
    case "decisionsQueued": {
      const decisions = list((e.decisions || []).map((d) => `${enumWord(ctx, d.kind, "DECISION_KIND_", "decision_kind")}${num(d.count) > 1 ? ` ×${num(d.count)}` : ""}`));
      return t("web.event.must_decide", { seat, decisions });
    }
    case "exchangeChosen":
      return goodsText(ctx, e.paid) ? t("web.event.exchange_paid", { seat, card: card(e.card), goods: goodsText(ctx, e.paid) }) : t("web.event.exchange", { seat, card: card(e.card) });
    case "bonusCardActionTaken": return t("web.event.bonus_card_action", { seat, value: num(e.value) });
    case "excommunicationTilesDrawn": return t("web.event.tiles_drawn");
    case "decksShuffled": return t("web.event.decks_shuffled");
    case "bonusTileSelectionStarted": return t("web.event.tile_selection");
    case "familyMemberValueSet": return t("web.event.member_value", { seat, colour: colour(e.member), value: num(e.value) });
    default: return null;
  }
}

// ------------------------------------------------------------------ the play app's picker

// The questions, as the terminal client asks them (services/lorenzo/presentation/steps.py): the step.* keys.
const TITLES = {
  "member": "step.member", "placeFamilyMember.space": "step.place_family_member.space",
  "takeBonusCard.space": "step.take_bonus_card.space", "servants": "step.servants",
  "costOption": "step.cost_option", "discountOption": "step.discount_option",
  "chooseCouncilPrivileges.privileges": "step.choose_council_privileges.privileges", "chooseExchange.card": "step.choose_exchange.card",
  "chooseExchange.option": "step.choose_exchange.option", "chooseBonusTile.tile": "step.choose_bonus_tile.tile",
  "draftLeader.leader": "step.draft_leader.leader", "playLeader.leader": "step.play_leader.leader",
  "playLeader.copyOf": "step.play_leader.copy_of",
  "discardLeader.leader": "step.discard_leader.leader",
  "activateLeader.leader": "step.activate_leader.leader", "activateLeader.member": "step.activate_leader.member",
  "answerVaticanReport.support": "step.answer_vatican_report.support",
};

export function stepTitle(kind, field, member, ctx) {
  const key = TITLES[`${kind}.${field}`] || TITLES[field];
  return key ? ctx.t(key) : null;
}

const DICE = { MEMBER_BLACK: 0, MEMBER_WHITE: 1, MEMBER_ORANGE: 2 };

function towerCard(ctx, space) {
  const s = table(ctx, "board", "spaces").get(num(space));
  const view = (ctx.reply && ctx.reply.view) || {};
  return s && s.kind === "tower" ? num((view.towers || [])[num(space) - 1]) : 0;
}

function memberText(member, ctx) {
  const colour = enumWord(ctx, member, "MEMBER_", "member");
  const dice = ((ctx.reply && ctx.reply.view) || {}).dice || [];
  return member in DICE ? ctx.t("web.member_die", { colour, die: num(dice[DICE[member]]) }) : ctx.t("web.member_zero", { colour });
}

// A value of a legal command as the player weighs it: a member with its die, a space with its card.
export function optionText(kind, field, m, ctx) {
  if (field === "member" && kind !== "activateLeader") return memberText(m.member, ctx);
  if (field === "space") {
    const card = towerCard(ctx, m.space);
    return card ? ctx.t("web.space_card", { space: spaceName(ctx, m.space), card: named(ctx, "cards", "cards", "card")(card) }) : spaceName(ctx, m.space);
  }
  if (field === "servants") return num(m.servants) ? ctx.t(`web.servants.${num(m.servants) === 1 ? "one" : "other"}`, { count: num(m.servants) }) : ctx.t("web.no_servants");
  if (field === "costOption") return ctx.t("web.cost_alternative", { number: num(m.costOption) + 1 });
  if (field === "discountOption") return ctx.t("web.discount_alternative", { number: num(m.discountOption) + 1 });
  if (field === "leader" || (field === "copyOf" && m.copyOf !== undefined)) return named(ctx, "leaders", "leaders", "leader")(m[field]);
  if (field === "tile" && kind === "chooseBonusTile") return texts(ctx, "bonusTiles").get(num(m.tile)) || ctx.t("web.tile_option", { tile: m.tile });
  if (field === "privileges") {
    const words = new Map(((ctx.texts && ctx.texts.privileges) || []).map((p) => [p.privilege, p.text.replace(/^[^:：]*[:：]\s*/, "")]));
    return (m.privileges || []).map((p) => words.get(p) || enumWord(ctx, p, "PRIVILEGE_", "privilege")).join(ctx.t("web.privilege_join"));
  }
  if (kind === "chooseExchange" && field === "card") return named(ctx, "cards", "cards", "card")(m.card);
  if (kind === "chooseExchange" && field === "option") return num(m.option) ? ctx.t("web.exchange_option", { option: m.option }) : ctx.t("web.skip_exchange");
  if (kind === "answerVaticanReport") return ctx.t(m.support ? "web.support" : "web.no_support");
  return null;
}

// What a value costs and does, under its option: the card on a space (else the space), a leader.
export function optionHint(kind, field, m, ctx) {
  if (field === "space") {
    const card = towerCard(ctx, m.space);
    return (card ? texts(ctx, "cards").get(card) : texts(ctx, "spaces").get(num(m.space))) || null;
  }
  if (field === "leader" || field === "copyOf") return texts(ctx, "leaders").get(num(m[field])) || null;
  if (kind === "chooseExchange" && field === "card") return texts(ctx, "cards").get(num(m.card)) || null;
  return null;
}
