#!/usr/bin/env node
// A scoutlab bot in Node.js: it reads one JSON view per line (docs/engine-protocol.md)
// and answers one move in notation. It keeps its hand, shows as many cards as it can,
// and otherwise scouts the first way it is offered.
//   scoutlab game --bots external:examples/bots/greedy.js
const readline = require("readline");

// "show 3-5" covers 3 cards, "show 4" one; anything else (keep, scouts) covers none.
function shownCards(move) {
  const m = /^show (\d+)(?:-(\d+))?$/.exec(move);
  return m ? (m[2] ? Number(m[2]) - Number(m[1]) + 1 : 1) : 0;
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const view = JSON.parse(line);
  let best = view.legal[0];
  for (const move of view.legal) {
    if (shownCards(move) > shownCards(best)) best = move;
  }
  process.stdout.write(best + "\n");
});
