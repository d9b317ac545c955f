// boardgame.io 0.50's own server (Koa + socket.io, InMemory storage) with the swap game.
// Usage: node bgio-server.cjs PORT
const { Server, Origins } = require("boardgame.io/server");
const { SwapGame } = require("./bgio-game.cjs");

const port = Number(process.argv[2]);
const server = Server({ games: [SwapGame], origins: [Origins.LOCALHOST, /127\.0\.0\.1/] });
server.run({ port, callback: () => console.log(`bgio ready on ${port}`) });
