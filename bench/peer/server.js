// The peer of the bench's `peer` suite: boardgame.io's Server serving the race, on 127.0.0.1 only.
//   node server.js memory            in-memory storage (boardgame.io's default)
//   node server.js flatfile DIR      boardgame.io's FlatFile storage (node-persist) in DIR
// Listens on a free loopback port and prints `listening PORT` once it serves.
const { Server, FlatFile, Origins } = require('boardgame.io/server');
const { Race } = require('./race');

const [mode, dir] = process.argv.slice(2);
if (mode !== 'memory' && !(mode === 'flatfile' && dir)) {
  console.error('usage: node server.js memory | flatfile DIR');
  process.exit(2);
}
const db = mode === 'flatfile' ? new FlatFile({ dir, logging: false }) : undefined;
const server = Server({ games: [Race], db, origins: [Origins.LOCALHOST] });

// Server.run listens on every interface; the bench's traffic stays on loopback.
const listen = server.app.listen.bind(server.app);
server.app.listen = (port, callback) => listen(port, '127.0.0.1', callback);

server.run(0).then(({ appServer }) => {
  console.log(`listening ${appServer.address().port}`);
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
