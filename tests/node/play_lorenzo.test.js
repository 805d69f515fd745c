// A Tabula client that is not the server's own code: Node.js, @grpc/grpc-js and @grpc/proto-loader
// reading the repo's .proto files. It signs in to the lobby as a guest, creates a Lorenzo room with
// three bots, starts it and plays its seat to the end, choosing among the legal commands from
// GetView. Bots and system steps are played by the Celery workers and the reactor.
//
// Run by tests/e2e/test_node_client.py, which starts the services and sets:
//   TABULA_PROTO_ROOT   the repo's proto/ folder
//   TABULA_LOBBY_ADDR   host:port of the lobby
//   TABULA_LORENZO_ADDR host:port of the Lorenzo rule service
//   TABULA_NODE_BUDGET_S  how long the whole match may take (default 240)
"use strict";

const assert = require("node:assert/strict");
const crypto = require("node:crypto");
const path = require("node:path");
const { test } = require("node:test");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO_ROOT = process.env.TABULA_PROTO_ROOT || path.resolve(__dirname, "../../proto");
const LOBBY_ADDR = process.env.TABULA_LOBBY_ADDR || "127.0.0.1:50051";
const LORENZO_ADDR = process.env.TABULA_LORENZO_ADDR || "127.0.0.1:50061";
const BUDGET_MS = 1000 * Number(process.env.TABULA_NODE_BUDGET_S || "240");
const CALL_MS = 10_000; // the deadline of every unary call

function load() {
  const definition = protoLoader.loadSync(
    ["tabula/lobby/v1/lobby.proto", "tabula/lorenzo/v1/lorenzo.proto"],
    { includeDirs: [PROTO_ROOT], keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true },
  );
  return grpc.loadPackageDefinition(definition).tabula;
}

function auth(token) {
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${token}`);
  return metadata;
}

// One unary call as a promise, always with a deadline.
function call(client, method, request, token) {
  return new Promise((resolve, reject) => {
    const metadata = token ? auth(token) : new grpc.Metadata();
    client[method](request, metadata, { deadline: Date.now() + CALL_MS }, (err, reply) =>
      err ? reject(err) : resolve(reply));
  });
}

// Resolves when the match moves past `version` (an event or a keepalive with a newer head), or after
// `ms`; the WatchMatch stream is cancelled either way.
function waitForChange(lorenzo, matchId, version, token, ms) {
  return new Promise((resolve) => {
    const stream = lorenzo.WatchMatch(
      { match_id: matchId, from_version: version + 1 }, auth(token), { deadline: Date.now() + ms + 5000 });
    let done = false;
    const finish = (why) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.cancel();
      resolve(why);
    };
    const timer = setTimeout(() => finish("timeout"), ms);
    stream.on("data", (item) => {
      if (item.event || (item.keepalive && item.keepalive.head_version > version)) finish("moved");
    });
    stream.on("error", () => finish("stream ended"));
    stream.on("end", () => finish("stream ended"));
  });
}

const pick = (items) => items[crypto.randomInt(items.length)];

async function setUpRoom(lobby) {
  const guest = await call(lobby, "SignInGuest", { display_name: "node client" });
  assert.ok(guest.token, "the lobby issues a guest token");
  const created = await call(lobby, "CreateRoom", {
    game: "lorenzo", seats: 4, options: {}, turn_seconds: 0, visibility: "ROOM_VISIBILITY_PUBLIC",
  }, guest.token);
  const roomId = created.room.room_id;
  for (let i = 0; i < 3; i++) {
    await call(lobby, "AddBot", { room_id: roomId, level: "BOT_LEVEL_RANDOM" }, guest.token);
  }
  const room = (await call(lobby, "GetRoom", { room_id: roomId }, guest.token)).room;
  assert.equal(room.seats.filter((s) => s.bot === "BOT_LEVEL_RANDOM").length, 3);
  const started = await call(lobby, "StartRoom", { room_id: roomId }, guest.token);
  assert.ok(started.match_id && started.seat_token, "starting gives a match and the host's seat token");
  return { guest, started };
}

// Play our seat until the match has an outcome; returns the final view and how many commands we sent.
async function playToTheEnd(lorenzo, matchId, seat, token) {
  const deadline = Date.now() + BUDGET_MS;
  let sent = 0;
  for (;;) {
    assert.ok(Date.now() < deadline, `the match did not end within ${BUDGET_MS / 1000} s (${sent} commands sent)`);
    const view = await call(lorenzo, "GetView", { match_id: matchId }, token);
    if (view.outcome) return { view, sent };
    if (view.seats_to_act.includes(seat) && view.legal_commands.length > 0) {
      const request = {
        match_id: matchId, expected_version: view.version, command_id: crypto.randomUUID(),
        command: pick(view.legal_commands),
      };
      try {
        await call(lorenzo, "SubmitCommand", request, token);
        sent += 1;
      } catch (err) {
        // another actor (a bot, the system) moved first: look again
        if (err.code !== grpc.status.ABORTED) throw err;
      }
    } else {
      await waitForChange(lorenzo, matchId, view.version, token, 2000);
    }
  }
}

test("a Node.js client plays a full Lorenzo match against three bots through the lobby", async () => {
  const tabula = load();
  const lobby = new tabula.lobby.v1.LobbyService(LOBBY_ADDR, grpc.credentials.createInsecure());
  const lorenzo = new tabula.lorenzo.v1.LorenzoService(LORENZO_ADDR, grpc.credentials.createInsecure());
  try {
    const { started } = await setUpRoom(lobby);
    const { view, sent } = await playToTheEnd(lorenzo, started.match_id, started.seat, started.seat_token);
    assert.ok(sent > 0, "our seat played");
    assert.equal(view.view.phase, "PHASE_FINISHED");
    assert.equal(view.outcome.scores.length, 4);
    assert.ok(view.outcome.placings.includes(1));
    const seats = view.view.players.map((p) => p.seat);
    assert.deepEqual(seats, [0, 1, 2, 3]);
    console.log(`match ${started.match_id}: ${sent} commands from seat ${started.seat}, ` +
      `version ${view.version}, scores ${view.outcome.scores.join("/")}`);
  } finally {
    lobby.close();
    lorenzo.close();
  }
});
