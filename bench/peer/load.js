// The load client of the bench's `peer` suite: boardgame.io's own client (boardgame.io/client with
// its SocketIO transport, a socket each player, websocket only) against server.js.
//   node load.js URL CLIENTS SECONDS GOAL
// Each of CLIENTS drivers plays both seats of a match of its own (a new one when the race ends):
// the seat to move rolls once it has the match's latest state, and the move's latency runs from
// sending it until the mover's own client has the server's new state. Prints `ready` once every
// driver's first match is created, joined and synced, starts on a `go` line on stdin, plays for
// SECONDS (a move sent before the end is waited for) and prints one JSON line of results.
const readline = require('readline');
const { Client, LobbyClient } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Race } = require('./race');

const [url, clientsArg, secondsArg, goalArg] = process.argv.slice(2);
const clients = Number(clientsArg);
const seconds = Number(secondsArg);
const goal = Number(goalArg);
const WAIT_MS = 30000; // a frozen server fails the phase instead of hanging it
const lobby = new LobbyClient({ server: url });
const out = { moves: 0, latencies_ms: [], deliveries: 0, matches: 0, errors: 0, seconds: 0, client_cpu_ms: 0 };

// One player's client: the state it holds, and the waits on it.
class Player {
  constructor(matchID, playerID, credentials) {
    this.waiters = [];
    this.seen = -1;
    this.client = Client({
      game: Race,
      numPlayers: 2,
      multiplayer: SocketIO({ server: url, socketOpts: { transports: ['websocket'], forceNew: true } }),
      matchID,
      playerID,
      credentials,
      debug: false,
    });
    this.client.subscribe((state) => {
      if (!state || state._stateID <= this.seen) return;
      this.seen = state._stateID;
      if (counting && state._stateID > 0) out.deliveries += 1; // a move's state, not a sync's
      this.waiters = this.waiters.filter(([at, resolve]) => (state._stateID >= at ? resolve() : true));
    });
    this.client.start();
  }

  // Until this player's client holds state `at` or later.
  reach(at) {
    if (this.seen >= at) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no state ${at} in ${WAIT_MS} ms`)), WAIT_MS);
      this.waiters.push([at, () => (clearTimeout(timer), resolve())]);
    });
  }

  stop() {
    this.client.stop();
  }
}

async function newMatch() {
  const { matchID } = await lobby.createMatch('race', { numPlayers: 2, setupData: { goal } });
  const players = [];
  for (const playerID of ['0', '1']) {
    const joined = await lobby.joinMatch('race', matchID, { playerID, playerName: `p${playerID}` });
    players.push(new Player(matchID, playerID, joined.playerCredentials));
  }
  await Promise.all(players.map((p) => p.reach(0)));
  out.matches += 1;
  return players;
}

let counting = false;

async function drive(players, until) {
  let at = players[0].seen;
  while (performance.now() < until) {
    const state = players[0].client.getState();
    const mover = players[Number(state.ctx.currentPlayer)];
    try {
      await mover.reach(at);
      const started = performance.now();
      mover.client.moves.roll();
      await mover.reach(at + 1);
      out.latencies_ms.push(performance.now() - started);
      out.moves += 1;
      at += 1;
      await players[0].reach(at);
      if (!players[0].client.getState().ctx.gameover) continue;
    } catch (err) {
      out.errors += 1;
    }
    players.forEach((p) => p.stop());
    if (performance.now() >= until) return;
    players = await newMatch();
    at = players[0].seen;
  }
  players.forEach((p) => p.stop());
}

async function main() {
  const first = [];
  for (let i = 0; i < clients; i += 1) first.push(await newMatch());
  out.matches = 0; // the first matches are made before the clock starts
  console.log('ready');
  const lines = readline.createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once('line', resolve));
  lines.close();
  counting = true;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(first.map((players) => drive(players, started + seconds * 1000)));
  out.seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  out.client_cpu_ms = (used.user + used.system) / 1000;
  // a pipe is written asynchronously: exit once the whole line is out
  process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
