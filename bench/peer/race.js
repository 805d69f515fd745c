// The dice race of tests/support/race/rules.py as a boardgame.io game: the same rulebook, written
// the way boardgame.io writes a game. The die and the secret bonuses come from the server's seeded
// ctx.random; a roll is a server-only move (`client: false`, as every random move is in effect); the
// round ends in the turn order's hooks, not by a move of its own: one roll a turn (maxMoves), and the
// last seat's turn ending bumps the round. The race ends (endIf) the moment a seat reaches the goal.

const MAX_GOAL = 100;

function roll({ G, ctx, random }) {
  const seat = Number(ctx.currentPlayer);
  G.positions[seat] += random.D6();
}

const Race = {
  name: 'race',
  minPlayers: 2,
  maxPlayers: 4,

  setup: ({ ctx, random }, setupData) => {
    const goal = Math.min(MAX_GOAL, Math.max(1, Number((setupData || {}).goal) || 20));
    const secrets = Array.from({ length: ctx.numPlayers }, () => random.Die(3));
    return { positions: Array(ctx.numPlayers).fill(0), secrets, round: 1, goal };
  },

  moves: { roll: { move: roll, client: false } },

  turn: {
    minMoves: 1,
    maxMoves: 1,
    onEnd: ({ G, ctx }) => {
      if (ctx.playOrderPos === ctx.numPlayers - 1) G.round += 1;
    },
  },

  endIf: ({ G }) => {
    if (!G.positions.some((p) => p >= G.goal)) return undefined;
    const scores = G.positions.map((p, i) => p + G.secrets[i]);
    return { scores, places: scores.map((s) => 1 + scores.filter((o) => o > s).length) };
  },

  // Every position, the round and the goal; a seat's own bonus only (a spectator sees none).
  playerView: ({ G, playerID }) => ({
    positions: G.positions,
    round: G.round,
    goal: G.goal,
    mySecret: playerID == null ? null : G.secrets[Number(playerID)],
  }),
};

module.exports = { Race };
