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
//          excommunication and space with its English text) or null, el(tag, attrs, ...children),
//          seatName(seat), chip(seat), tip(node, text): the text shown on hover or tap}
// Every card, leader, personal bonus tile, excommunication tile and action space carries its GetContent
// text as its hover text. A node the picker may offer carries the command field's name: a tower floor or
// action space data-space, a family member in its player's panel data-member, a leader data-leader.

const GOODS = ["coins", "wood", "stone", "servants", "military", "faith", "victory"];
const CARD_LISTS = ["territories", "characters", "buildings", "ventures"];
const TOWERS = ["territory", "character", "building", "venture"];
const TOWER_TITLES = { territory: "Territories", character: "Characters", building: "Buildings", venture: "Ventures" };
const FINAL = ["before", "territories", "characters", "ventures", "military", "resources", "penalty", "total"];
const AREAS = [["market", "Market"], ["council", "Council palace"], ["harvest", "Harvest"], ["production", "Production"]];

const num = (v) => Number(v || 0);
const enumName = (value, prefix) => String(value || "").replace(prefix, "").toLowerCase().replace(/_/g, " ");
// {coins: 5, privileges: 2} -> "5 coins, 2 privileges"; zero amounts are left out.
const goodsText = (goods) => Object.entries(goods || {}).filter(([, n]) => num(n))
  .map(([k, n]) => `${num(n)} ${num(n) === 1 ? k.replace(/s$/, "") : k}`).join(", ");

function table(ctx, file, key) {
  const rows = ctx.content && ctx.content[file] && ctx.content[file][key];
  return new Map((rows || []).map((r) => [Number(r.id), r]));
}
const named = (ctx, file, key, what) => (id) => {
  const record = table(ctx, file, key).get(Number(id));
  return record && record.name ? record.name : `${what} #${id}`;
};

// GetContent's texts: "cards" 12 -> "Woods: territory card, period 1. ..." ("" when not known).
function texts(ctx, key, id = "id") {
  const rows = (ctx.texts && ctx.texts[key]) || [];
  return new Map(rows.map((r) => [Number(r[id] || 0), r.text || ""]));
}
const ROMAN = ["", "I", "II", "III"];
// An excommunication tile's printed code "2_5" as "II/5".
const tileLabel = (tile, id) => (tile && tile.code ? tile.code.replace(/^(\d)_/, (_, p) => `${ROMAN[Number(p)] || p}/`) : `#${id}`);
// An excommunication's penalty in words: its text after "Excommunication II/5: ".
const penaltyWords = (text) => text.replace(/^[^:]*:\s*/, "");

function boardSpaces(ctx) {
  const spaces = [...table(ctx, "board", "spaces").values()];
  if (spaces.length) return spaces;
  // Without content tables: the printed board's towers, four floors each (action spaces need the tables).
  return Array.from({ length: 16 }, (_, i) => ({ id: i + 1, kind: "tower", tower: TOWERS[Math.floor(i / 4)], floor: (i % 4) + 1 }));
}

function spaceName(ctx, id) {
  const s = table(ctx, "board", "spaces").get(Number(id));
  if (!s) return `space ${id}`;
  if (s.kind === "tower") return `the ${s.tower} tower, floor ${s.floor}`;
  if (s.kind === "council") return "the council palace";
  return `the ${s.modifier ? "large " : ""}${s.kind} space${s.kind === "market" && s.bonus ? ` (${goodsText(s.bonus)})` : ""}`;
}

// ------------------------------------------------------------------ drawing

function skeleton(root, el) {
  root.replaceChildren(
    el("section", { id: "summary", class: "lz-summary" }),
    el("section", { class: "lz-board" },
      el("div", { id: "towers", class: "towers" }),
      el("div", { id: "spaces", class: "areas" }),
      el("div", { id: "vatican", class: "vatican" })),
    el("section", {}, el("h2", { text: "Players" }), el("div", { id: "players", class: "players" })),
    el("section", { id: "final-scoring", class: "final-scoring", hidden: "" }));
}

function die(el, colour, value) {
  return el("span", { class: `die die-${colour}`, title: `${colour} die` }, String(value ?? "-"));
}

function renderSummary(root, reply, view, ctx) {
  const { el } = ctx;
  const toAct = (reply.seatsToAct || []).map((s) => ctx.chip(s));
  const dice = view.dice || [];
  const order = (view.turnOrder || []).map((s) => ctx.chip(s));
  const item = (id, label, ...value) => el("div", {}, el("span", { class: "k", text: label }), el("b", { id }, ...value));
  root.querySelector("#summary").replaceChildren(
    item("round", "Round", String(view.round)),
    item("period", "Period", String(view.period)),
    item("phase", "Phase", enumName(view.phase, "PHASE_")),
    item("dice", "Dice", ...(dice.length ? ["black", "white", "orange"].map((c, i) => die(el, c, dice[i])) : ["-"])),
    item("turn-order", "Turn order", ...order),
    item("to-act", "To act", ...(toAct.length ? toAct : [reply.systemToAct ? "the board (round end)" : "-"])));
}

function occupantChip(ctx, o) {
  const member = enumName(o.member, "MEMBER_");
  return ctx.el("span", { class: "occupant" }, ctx.chip(o.seat), ctx.el("span", { class: `pawn pawn-${member}`, title: `${member} family member` }));
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
          el("span", { class: "value", text: space.value ? `${space.value}` : `floor ${space.floor}` }),
          el("span", { class: "bonus", text: space.bonus ? `+${goodsText(space.bonus)}` : "" })), spaceText.get(space.id)),
        ctx.tip(el("div", { class: "card", text: card ? cardName(card) : "(taken)" }), card ? cardText.get(card) : ""),
        el("div", { class: "who" }, ...here.map((o) => occupantChip(ctx, o))));
    });
    return el("div", { class: `tower tower-${name}`, "data-tower": name }, el("h3", { text: TOWER_TITLES[name] || name }), ...floors);
  }));
}

function renderAreas(root, view, ctx, bySpace) {
  const { el } = ctx;
  const seats = (view.players || []).length;
  const spaces = boardSpaces(ctx).filter((s) => s.kind !== "tower");
  const spaceText = texts(ctx, "spaces");
  root.querySelector("#spaces").replaceChildren(...AREAS.map(([kind, title]) => {
    const boxes = spaces.filter((s) => s.kind === kind).map((s) => {
      const here = bySpace.get(s.id) || [];
      const covered = num(s.min_players) > seats;  // rulebook: covered with fewer players
      const label = [s.modifier ? `large, ${s.modifier} to the action` : (kind === "harvest" || kind === "production" ? "small" : ""),
        s.bonus ? goodsText(s.bonus) : ""].filter(Boolean).join(" · ");
      return ctx.tip(el("div", { class: `space${here.length ? " occupied" : ""}${covered ? " covered" : ""}`, "data-space": String(s.id) },
        el("span", { class: "k", text: covered ? `covered below ${s.min_players} players` : (label || `value ${s.value}`) }),
        el("div", { class: "who" }, ...here.map((o) => occupantChip(ctx, o)))), spaceText.get(s.id));
    });
    return el("div", { class: `area area-${kind}`, "data-area": kind }, el("h3", { text: title }), ...boxes);
  }));
}

function renderVatican(root, view, ctx) {
  const { el } = ctx;
  const tiles = table(ctx, "excommunications", "tiles");
  const text = texts(ctx, "excommunications");
  const drawn = view.excommunicationTiles || [];
  root.querySelector("#vatican").replaceChildren(el("h3", { text: "Vatican" }),
    ...drawn.map((id, i) => ctx.tip(el("div", { class: "tile", "data-excommunication": String(id) },
      el("span", { class: "k", text: `period ${i + 1}` }), el("b", { text: tileLabel(tiles.get(Number(id)), id) }),
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
    return ctx.el("span", { class: `member${placed.has(member) ? " placed" : ""}`, "data-member": member,
      title: `${colour} family member, die ${value}${placed.has(member) ? ", placed" : ""}` },
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
      el("div", { class: "k", text: k }), el("div", { class: "v", text: String(num(goods[k])) }))));
  const cardText = texts(ctx, "cards"), leaderText = texts(ctx, "leaders");
  const cards = el("div", { class: "cards" }, ...CARD_LISTS.map((k) =>
    el("div", { "data-cards": k }, el("span", { class: "k", text: `${k} (${(p[k] || []).length}):` }),
      ...namedList(ctx, p[k] || [], cardName, cardText))));
  const excommunications = table(ctx, "excommunications", "tiles");
  const tileCode = (id) => tileLabel(excommunications.get(Number(id)), id);
  const bonusName = named(ctx, "bonus_tiles", "tiles", "tile");
  const hand = p.hand || [];  // a seat's own hand (a seat's link), else only how many
  cards.append(
    el("div", { "data-leaders": "played" }, el("span", { class: "k", text: "leaders played:" }),
      ...namedList(ctx, (p.played || []).map((l) => l.leader), leaderName, leaderText, "leader")),
    el("div", { "data-leaders": "hand" }, el("span", { class: "k", text: "in hand:" }),
      ...(hand.length ? namedList(ctx, hand, leaderName, leaderText, "leader") : [`${num(p.handSize)} leader${num(p.handSize) === 1 ? "" : "s"}`])),
    (p.draftHand || []).length ? el("div", { "data-leaders": "draft" }, el("span", { class: "k", text: "draft:" }),
      ...namedList(ctx, p.draftHand, leaderName, leaderText, "leader")) : "",
    el("div", {}, el("span", { class: "k", text: "personal bonus tile:" }),
      ...(num(p.bonusTile) ? namedList(ctx, [p.bonusTile], bonusName, texts(ctx, "bonusTiles")) : ["-"])),
    el("div", { class: "family" }, el("span", { class: "k", text: "family:" }), ...family(ctx, p, dice)),
    el("div", { "data-excommunications": "" }, el("span", { class: "k", text: "excommunications:" }),
      ...namedList(ctx, p.excommunications || [], tileCode, texts(ctx, "excommunications"))));
  return el("div", { class: `player${toAct ? " to-act" : ""}`, "data-seat": String(p.seat) },
    el("h3", {}, ctx.chip(p.seat), toAct ? el("span", { class: "acting", text: "to act" }) : ""), grid, cards);
}

function renderFinal(root, view, ctx) {
  const { el } = ctx;
  const box = root.querySelector("#final-scoring");
  const finals = view.final || [];
  box.hidden = !finals.length;
  if (!finals.length) return;
  const head = el("tr", {}, ...["player", ...FINAL].map((h) => el("th", { text: h })));
  const rows = finals.map((f) => el("tr", { "data-seat": String(f.seat) }, el("td", {}, ctx.chip(f.seat)),
    ...FINAL.map((k) => el("td", { text: String(f[k] ?? 0) }))));
  box.replaceChildren(el("h2", { text: "Final scoring" }), el("table", {}, head, ...rows));
}

export function render(root, reply, ctx) {
  const view = reply.view || {};
  if (!root.querySelector("#towers")) skeleton(root, ctx.el);
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
    [el("span", {}, die(el, "black", 5), die(el, "white", 3), die(el, "orange", 1)), "this round's dice: black, white, orange"],
    [el("span", {}, pawn("black"), pawn("white"), pawn("orange"), pawn("neutral")), "family members: black, white, orange, neutral"],
    [el("span", { class: "floor-head" }, el("span", { class: "value", text: "5" })), "the action value a tower floor needs"],
    [el("span", { class: "bonus", text: "+1 wood" }), "the floor's bonus, taken with its card"],
    [el("span", { class: "swatch occupied" }), "red border: a family member stands there"],
    [el("span", { class: "swatch covered" }), "covered: not used with this many players"],
    [el("b", { text: "II/5" }), "excommunication tile: period II, tile 5"],
  ];
}

// ------------------------------------------------------------------ events in words

const SOURCES = { SOURCE_TOWER_FEE: "the occupied tower's fee", SOURCE_FLOOR_BONUS: "the floor's bonus",
  SOURCE_CARD_COST: "the card's cost", SOURCE_CARD_EFFECT: "a card's effect" };
const source = (s) => SOURCES[s] || enumName(s, "SOURCE_");

// Words for Lorenzo's events; null lets the shell's generic wording speak.
export function describeEvent(item, ctx) {
  const [[kind, e] = []] = Object.entries(item.event || {});
  if (!kind) return null;
  const who = e.seat !== undefined ? ctx.seatName(num(e.seat)) : "";
  const card = named(ctx, "cards", "cards", "card");
  const leader = named(ctx, "leaders", "leaders", "leader");
  switch (kind) {
    case "gameStarted": return `The game starts with ${e.seats} players${e.advanced ? " (advanced rules)" : ""}`;
    case "resourcesGained": return goodsText(e.goods) ? `${who} gained ${goodsText(e.goods)} from ${source(e.source)}` : null;
    case "resourcesPaid": return goodsText(e.goods) ? `${who} paid ${goodsText(e.goods)} for ${source(e.source)}` : null;
    case "familyMemberPlaced":
      return `${who} placed the ${enumName(e.member, "MEMBER_")} family member (value ${num(e.value)}) on ${spaceName(ctx, e.space)}`;
    case "cardTaken": return `${who} took ${card(e.card)} (${enumName(e.cardType, "CARD_TYPE_")})`;
    case "diceRolled": return `Dice rolled: black ${num(e.black)}, white ${num(e.white)}, orange ${num(e.orange)}`;
    case "roundStarted": return `Round ${num(e.round)} begins`;
    case "roundEnded": return `Round ${num(e.round)} ends`;
    case "towersFilled": return `The towers are filled with ${(e.cards || []).filter(num).length} new cards`;
    case "placementPassed": return `${who} passed`;
    case "turnEnded": return `${who} ended the turn`;
    case "councilPrivilegesChosen":
      return `${who} chose the council privilege${(e.privileges || []).length > 1 ? "s" : ""} ${(e.privileges || []).map((p) => enumName(p, "PRIVILEGE_")).join(", ")}`;
    case "leadersDealt": return `${who} was dealt ${(e.leaders || []).map(leader).join(", ")}`;
    case "leaderDrafted": return `${who} drafted ${leader(e.leader)}`;
    case "leaderPlayed": return `${who} played ${leader(e.leader)}`;
    case "leaderDiscarded": return `${who} discarded ${leader(e.leader)}`;
    case "leaderActivated": return `${who} activated ${leader(e.leader)}`;
    case "vaticanAnswerGiven": return `${who} ${e.support ? "supports the Church" : "accepts excommunication"}`;
    case "churchSupported": return `${who} showed support for the Church: ${num(e.faith)} faith for ${num(e.victory)} victory points`;
    case "excommunicated": return `${who} was excommunicated`;
    case "faithPointsConverted": return `${who} converted ${num(e.faith)} faith into ${num(e.victory)} victory points`;
    case "phaseChanged": return `Phase: ${enumName(e.phase, "PHASE_")}`;
    case "finalScoreComputed": return `${ctx.seatName(num(e.score.seat))} scores ${num(e.score.total)} victory points in all`;
    case "gameEnded": return `The game ends: ${(e.scores || []).map((s, seat) => `${ctx.seatName(seat)} ${s}`).join(", ")}`;
    case "bonusTileChosen": return `${who} chose personal bonus tile ${num(e.tile)}`;
    case "bonusActionPerformed": return `${who} took the bonus action (value ${num(e.value)})`;
    case "bonusActionSkipped": return `${who} skipped the bonus action`;
    case "decisionsQueued":
      return `${who} must decide: ${(e.decisions || []).map((d) => `${enumName(d.kind, "DECISION_KIND_")}${num(d.count) > 1 ? ` ×${num(d.count)}` : ""}`).join(", ")}`;
    case "exchangeChosen": return `${who} used ${card(e.card)}${goodsText(e.paid) ? `, paying ${goodsText(e.paid)}` : ""}`;
    case "bonusCardActionTaken": return `${who} may take a card with a bonus action of value ${num(e.value)}`;
    case "excommunicationTilesDrawn": return `The Vatican's excommunication tiles are drawn`;
    case "decksShuffled": return "The card decks are shuffled";
    case "bonusTileSelectionStarted": return "Players choose their personal bonus tiles";
    case "familyMemberValueSet": return `${who}'s ${enumName(e.member, "MEMBER_")} family member is now worth ${num(e.value)}`;
    default: return null;
  }
}

// ------------------------------------------------------------------ the play app's picker

// The questions, as the terminal client asks them (services/lorenzo/presentation/steps.py).
const TITLES = {
  "member": "Which family member?", "placeFamilyMember.space": "Where do you place it?",
  "takeBonusCard.space": "Which card do you take?", "servants": "How many servants do you add?",
  "costOption": "Which cost do you pay?", "discountOption": "Which discount do you use?",
  "chooseCouncilPrivileges.privileges": "Which council privileges?", "chooseExchange.card": "Which building's exchange?",
  "chooseExchange.option": "Which exchange?", "chooseBonusTile.tile": "Which personal bonus tile?",
  "draftLeader.leader": "Which leader do you keep?", "playLeader.leader": "Which leader do you play?",
  "playLeader.copyOf": "Which played leader does it copy?",
  "discardLeader.leader": "Which leader do you discard (for a council privilege)?",
  "activateLeader.leader": "Whose ability do you use?", "activateLeader.member": "Which coloured member becomes 6?",
  "answerVaticanReport.support": "Do you support the Church?",
};

export function stepTitle(kind, field) {
  return TITLES[`${kind}.${field}`] || TITLES[field] || null;
}

const DICE = { MEMBER_BLACK: 0, MEMBER_WHITE: 1, MEMBER_ORANGE: 2 };

function towerCard(ctx, space) {
  const s = table(ctx, "board", "spaces").get(num(space));
  const view = (ctx.reply && ctx.reply.view) || {};
  return s && s.kind === "tower" ? num((view.towers || [])[num(space) - 1]) : 0;
}

function memberText(member, ctx) {
  const colour = enumName(member, "MEMBER_");
  const dice = ((ctx.reply && ctx.reply.view) || {}).dice || [];
  return member in DICE ? `${colour} member (die ${num(dice[DICE[member]])})` : `${colour} member (value 0)`;
}

// A value of a legal command as the player weighs it: a member with its die, a space with its card.
export function optionText(kind, field, m, ctx) {
  if (field === "member" && kind !== "activateLeader") return memberText(m.member, ctx);
  if (field === "space") {
    const card = towerCard(ctx, m.space);
    return card ? `${spaceName(ctx, m.space)}: ${named(ctx, "cards", "cards", "card")(card)}` : spaceName(ctx, m.space);
  }
  if (field === "servants") return num(m.servants) ? `${num(m.servants)} servant${num(m.servants) === 1 ? "" : "s"}` : "no servants";
  if (field === "costOption") return `cost alternative ${num(m.costOption) + 1}`;
  if (field === "discountOption") return `discount alternative ${num(m.discountOption) + 1}`;
  if (field === "leader" || (field === "copyOf" && m.copyOf !== undefined)) return named(ctx, "leaders", "leaders", "leader")(m[field]);
  if (field === "tile" && kind === "chooseBonusTile") return texts(ctx, "bonusTiles").get(num(m.tile)) || `tile ${m.tile}`;
  if (field === "privileges") {
    const words = new Map(((ctx.texts && ctx.texts.privileges) || []).map((p) => [p.privilege, p.text.replace(/^[^:]*:\s*/, "")]));
    return (m.privileges || []).map((p) => words.get(p) || enumName(p, "PRIVILEGE_")).join(" + ");
  }
  if (kind === "chooseExchange" && field === "card") return named(ctx, "cards", "cards", "card")(m.card);
  if (kind === "chooseExchange" && field === "option") return num(m.option) ? `exchange ${m.option}` : "skip this exchange";
  if (kind === "answerVaticanReport") return m.support ? "yes: score your faith points and go back to 0" : "no: keep your faith, take the excommunication";
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
