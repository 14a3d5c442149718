/**
 * The Summon programs of the demo's Summon page: two parties, `alice` and `bob`, 16-bit numbers.
 * Each has its source (shown and editable on the page), example inputs, and a description.
 */
export const WIDTH = 16;

export const PROGRAMS = {
  millionaires: {
    title: "The millionaires' problem",
    about: 'Who is richer? Neither learns the other\'s wealth, only the answer.',
    source: `export default function main(io: Summon.IO) {
  const alice = io.input('alice', 'aliceWealth', summon.number());
  const bob = io.input('bob', 'bobWealth', summon.number());
  io.outputPublic('aliceIsRicher', alice > bob);
}
`,
    inputs: { alice: { aliceWealth: 1200 }, bob: { bobWealth: 870 } },
  },
  auction: {
    title: 'A sealed-bid second-price auction',
    about: 'Each party bids; the higher bid wins and pays the lower one. The losing bid is the price; the winning bid stays secret.',
    source: `export default function main(io: Summon.IO) {
  const a = io.input('alice', 'aliceBid', summon.number());
  const b = io.input('bob', 'bobBid', summon.number());
  io.outputPublic('aliceWins', a > b);
  io.outputPublic('price', a > b ? b : a);
}
`,
    inputs: { alice: { aliceBid: 420 }, bob: { bobBid: 385 } },
  },
  intersection: {
    title: 'A private intersection count',
    about: 'Each party holds four numbers; both learn how many numbers they have in common, and nothing else.',
    source: `export default function main(io: Summon.IO) {
  const a = [io.input('alice', 'a0', summon.number()), io.input('alice', 'a1', summon.number()),
             io.input('alice', 'a2', summon.number()), io.input('alice', 'a3', summon.number())];
  const b = [io.input('bob', 'b0', summon.number()), io.input('bob', 'b1', summon.number()),
             io.input('bob', 'b2', summon.number()), io.input('bob', 'b3', summon.number())];
  let common = 0;
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      if (a[i] == b[j]) { common += 1; }
    }
  }
  io.outputPublic('inCommon', common);
}
`,
    inputs: { alice: { a0: 3, a1: 17, a2: 42, a3: 99 }, bob: { b0: 42, b1: 7, b2: 3, b3: 1000 } },
  },
};
