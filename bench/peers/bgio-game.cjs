// The benchmark's swap game for boardgame.io 0.50: the same rules as bench/swapgame.py.
// Two players, a private hand of five each, a hidden deck; a move swaps a hand card with the
// top of the deck (the given card goes to the bottom); 200 moves a match. STRIP_SECRETS
// removes G.secret from every view and every other player's G.players entry.
const { PlayerView } = require("boardgame.io/core");

const HAND = 5;
const MOVES = 200;
const CARDS = Array.from({ length: 30 }, (_, i) => `k${String(i + 1).padStart(2, "0")}`);

const SwapGame = {
  name: "swap",
  minPlayers: 2,
  maxPlayers: 2,
  setup: ({ random }) => {
    const deck = random.Shuffle(CARDS.slice());
    return {
      secret: { deck: deck.slice(2 * HAND) },
      players: { 0: { hand: deck.slice(0, HAND) }, 1: { hand: deck.slice(HAND, 2 * HAND) } },
      moves: 0,
    };
  },
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    swap: {
      // client: false: the move needs the secret deck, so only the server runs it.
      client: false,
      move: ({ G, playerID }, index) => {
        const hand = G.players[playerID].hand;
        const given = hand[index];
        hand[index] = G.secret.deck.shift();
        G.secret.deck.push(given);
        G.moves += 1;
      },
    },
  },
  endIf: ({ G }) => (G.moves >= MOVES ? { done: true } : undefined),
  playerView: PlayerView.STRIP_SECRETS,
};

module.exports = { SwapGame, MOVES, HAND };
