// Colyseus 0.18 (@colyseus/core + the ws transport) with the swap game: binary,
// delta-encoded schema state; each hand is tagged view() and added only to its owner's
// StateView, the deck is never in the synchronised state. Patches are sent right after each
// move (patchRate null + broadcastPatch), as the other servers do, not on a 50 ms tick.
// Usage: node colyseus-server.mjs PORT
import { Room, Server } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { schema, t, StateView } from "@colyseus/schema";

const HAND = 5;
const MOVES = 200;
const CARDS = Array.from({ length: 30 }, (_, i) => `k${String(i + 1).padStart(2, "0")}`);

const Player = schema({ hand: t.array("string").view(), seat: t.uint8() }, "Player");
const State = schema(
  { players: t.map(Player), moves: t.uint16(), turn: t.uint8(), deckCount: t.uint8() },
  "State",
);

function shuffle(items) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

class SwapRoom extends Room {
  maxClients = 500;
  maxMessagesPerSecond = 1e9;
  patchRate = null;

  onCreate() {
    this.state = new State();
    this.state.moves = 0;
    this.state.turn = 0;
    this.deck = shuffle(CARDS.slice());
    this.seats = 0;
    this.state.deckCount = this.deck.length - 2 * HAND;
    this.onMessage("swap", (client, index) => {
      const seat = client.userData?.seat;
      if (seat === undefined || seat !== this.state.turn || this.state.moves >= MOVES) return;
      const player = this.state.players.get(String(seat));
      const given = player.hand[index];
      player.hand[index] = this.deck.shift();
      this.deck.push(given);
      this.state.moves += 1;
      this.state.turn = 1 - seat;
      this.broadcastPatch();
    });
  }

  onJoin(client, options) {
    client.view = new StateView();
    if (options && options.spectator) return;
    const seat = this.seats++;
    const player = new Player();
    player.seat = seat;
    for (const card of this.deck.splice(0, HAND)) player.hand.push(card);
    this.state.players.set(String(seat), player);
    client.userData = { seat };
    client.view.add(player);
  }
}

const port = Number(process.argv[2]);
const server = new Server({ transport: new WebSocketTransport() });
server.define("swap", SwapRoom);
await server.listen(port, "127.0.0.1");
console.log(`colyseus ready on ${port}`);
