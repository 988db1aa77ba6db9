// The table: draws what the server says this seat may see, and sends moves in the game's notation.
// The server checks every move; this script only helps to build them.
"use strict";
(function () {
  const game = document.getElementById("game");
  const token = game.dataset.token;
  const lang = game.dataset.lang;
  const botDelay = Number(game.dataset.delay) || 0;
  const S = JSON.parse(document.getElementById("strings").textContent);
  const $ = (id) => document.getElementById(id);
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));

  let state = null;
  let selected = new Set(); // positions (0-based) of the hand as drawn
  let scout = null; // {end, flip, gap} while a scout is being built; gap is null until chosen
  let timer = null;
  let sending = false;
  const seenKey = "scoutlab-round-ends-" + token;
  let seenEnds = Number(sessionStorage.getItem(seenKey) || -1);

  // -- talking to the server ---------------------------------------------------------------

  async function call(method, path, body) {
    // Only the log lines the page lacks are sent back.
    const url = "/api/m/" + token + path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang)
      + "&log_from=" + $("log").children.length;
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    try {
      const response = await fetch(url, options);
      return { ok: response.ok, data: await response.json() };
    } catch (error) {
      return { ok: false, data: { error: S.offline }, offline: true };
    }
  }

  async function load() {
    const answer = await call("GET", "");
    if (answer.ok) update(answer.data);
    else if (answer.offline) setTimeout(load, 2000);
    else say(answer.data.error);
  }

  async function send(action) {
    if (sending) return;
    sending = true;
    const answer = await call("POST", "/act", { action });
    sending = false;
    if (answer.ok) {
      resetMove();
      say("");
      update(answer.data);
    } else {
      if (answer.data.state) update(answer.data.state, true);
      say(answer.data.error);
    }
  }

  async function advance() {
    timer = null;
    const answer = await call("POST", "/advance");
    if (answer.ok) update(answer.data);
    else setTimeout(load, 2000);
  }

  // -- building a move ---------------------------------------------------------------------

  function resetMove() {
    selected = new Set();
    scout = null;
  }

  function span() {
    // The selected positions as [start, length] when they sit next to each other, else null.
    const chosen = [...selected].sort((a, b) => a - b);
    if (!chosen.length) return null;
    const start = chosen[0];
    return chosen.every((p, i) => p === start + i) ? [start, chosen.length] : null;
  }

  function showText(run) {
    const first = run[0] + 1;
    return run[1] === 1 ? "show " + first : "show " + first + "-" + (first + run[1] - 1);
  }

  function scoutText() {
    return "scout " + (scout.end ? "right" : "left") + (scout.flip ? " flip " : " ") + scout.gap;
  }

  function flipped(card) {
    return { t: card.b, b: card.t };
  }

  function takenCard() {
    const active = state.active;
    const card = scout.end ? active[active.length - 1] : active[0];
    return scout.flip ? flipped(card) : card;
  }

  function shownHand() {
    // The hand as drawn: with the scouted card in place while a Scout & Show is being built.
    if (scout && scout.gap !== null) {
      const hand = state.hand.slice();
      hand.splice(scout.gap, 0, takenCard());
      return hand;
    }
    return state.hand;
  }

  function onShow() {
    const run = span();
    if (!run) return say(selected.size ? S.pick_adjacent : S.pick_some);
    send(scout ? scoutText() + " " + showText(run) : showText(run));
  }

  let asked = 0; // the latest explanation asked for; older answers are dropped

  async function explain(action) {
    const mine = ++asked;
    const answer = await call("GET", "/explain?action=" + encodeURIComponent(action));
    if (mine === asked && answer.ok) say(answer.data.legal ? S.legal : answer.data.reason, answer.data.legal ? "is-ok" : "is-refused");
  }

  function onSelect(index) {
    if (selected.has(index)) selected.delete(index);
    else selected.add(index);
    const run = span();
    asked++;
    if (!selected.size) say("");
    else if (!run) say(S.pick_adjacent);
    else if (!scout && state.legal.shows.some((s) => s[0] === run[0] && s[1] === run[1])) say(S.legal, "is-ok");
    else explain(scout ? scoutText() + " " + showText(run) : showText(run)); // the server says which rule it breaks
    draw();
  }

  function onTake(end) {
    selected = new Set();
    scout = { end, flip: false, gap: null };
    say("");
    draw();
    const first = $("hand").querySelector("button.gap");
    if (first) first.focus();
  }

  function onGap(gap) {
    scout.gap = gap;
    if ($("sns").checked) {
      say(S.sns_pick);
      draw();
      const marked = $("hand").querySelector("button.scouted");
      if (marked) marked.focus();
    } else {
      send(scoutText());
    }
  }

  // -- drawing -----------------------------------------------------------------------------

  function el(tag, attributes, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  function cardNode(card, tag, attributes) {
    const label = fill(S.card, { top: card.t, bottom: card.b });
    return el(tag || "div", Object.assign({ class: "card n" + card.t, "aria-label": label, title: label }, attributes || {}), [
      el("span", { class: "top", text: card.t, "aria-hidden": "true" }),
      el("span", { class: "bottom", text: card.b, "aria-hidden": "true" }),
    ]);
  }

  // The tone is a class of the message line: is-ok for "This show is allowed.", is-refused (the default) for a reason.
  function say(text, tone) {
    $("message").textContent = text || "";
    $("message").className = "message " + (tone || "is-refused");
  }

  function update(next, keepMove) {
    const newTurn = !state || state.to_act !== next.to_act || state.round !== next.round || state.phase !== next.phase;
    state = next;
    if (!keepMove && newTurn) resetMove();
    if (seenEnds < 0) seenEnds = state.over ? state.round_ends.length - 1 : state.round_ends.length;
    draw();
    schedule();
    // Your turn again and the focus is nowhere: put it on your hand, for keyboard players.
    if (newTurn && state.your_turn && document.activeElement === document.body && !$("round-end").open) {
      const first = state.phase === "flip" ? $("keep") : $("hand").querySelector("button");
      if (first) first.focus();
    }
  }

  function schedule() {
    const dialogOpen = $("round-end").open;
    if (state.bot_to_act && !dialogOpen && timer === null) timer = setTimeout(advance, botDelay);
  }

  function draw() {
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    $("round").textContent = state.round_text;
    $("status").textContent = state.status;
    drawSeats();
    drawActive();
    drawHand();
    drawControls();
    drawList($("hints"), state.hints);
    drawLog();
    drawRoundEnd();
    drawFinal();
    if (focusKey) {
      const again = game.querySelector('[data-key="' + focusKey + '"]');
      if (again && !again.disabled) again.focus();
    }
  }

  function drawSeats() {
    const rows = state.seats.map((seat) => {
      const notes = [];
      if (seat.seat === state.seat) notes.push(S.you);
      if (seat.to_act) notes.push(S.to_act);
      if (seat.owner) notes.push(S.owner);
      const name = el("th", { scope: "row" }, [
        el("span", { text: seat.name }),
        seat.bot ? el("small", { text: " (" + seat.bot + ")" }) : "",
        notes.length ? el("em", { class: "note", text: " · " + notes.join(" · ") }) : "",
      ]);
      const cells = [name, el("td", { text: seat.hand_size }), el("td", { text: seat.chips })];
      if (state.has_scout_show) cells.push(el("td", { text: seat.scout_show ? "●" : "–", "aria-label": seat.scout_show ? S.yes : S.no }));
      cells.push(el("td", { text: seat.captured }), el("td", { text: seat.total }));
      return el("tr", { class: (seat.to_act ? "to-act " : "") + (seat.seat === state.seat ? "me" : "") }, cells);
    });
    $("seats").replaceChildren(...rows);
  }

  function drawActive() {
    $("active-text").textContent = state.active_text;
    const ends = state.your_turn && !scout ? state.legal.scout_ends : [];
    const last = state.active.length - 1;
    const nodes = state.active.map((card, i) => {
      const end = i === 0 ? 0 : i === last ? 1 : null;
      if (end !== null && ends.includes(end)) {
        const label = fill(end ? S.take_right : S.take_left, { card: card.t + "/" + card.b });
        return cardNode(card, "button", { type: "button", class: "card n" + card.t + " end", "data-end": end, "data-key": "end" + end, "aria-label": label, title: label, onclick: () => onTake(end) });
      }
      return cardNode(card);
    });
    $("active").replaceChildren(...nodes);
    const taking = scout !== null;
    $("taken").hidden = !taking;
    if (taking) {
      const card = takenCard();
      $("taken-text").textContent = fill(S.taken, { card: card.t + "/" + card.b });
      $("taken-card").replaceChildren(cardNode(card));
      $("turn").disabled = scout.gap !== null;
      $("sns-label").hidden = !state.legal.scout_show;
      $("sns").disabled = scout.gap !== null;
    } else {
      $("sns").checked = false;
    }
  }

  function drawHand() {
    const hand = shownHand();
    const placing = scout && scout.gap === null;
    const choosing = state.your_turn && state.phase === "play" && !placing;
    const nodes = [];
    const gapButton = (gap) => {
      const text = gap === 0 ? S.gap_first : gap === hand.length ? fill(S.gap_last, { number: hand.length }) : fill(S.gap, { left: gap, right: gap + 1 });
      return el("button", { type: "button", class: "gap", "data-gap": gap, "data-key": "gap" + gap, "aria-label": text, title: text, text: "+", onclick: () => onGap(gap) });
    };
    hand.forEach((card, i) => {
      if (placing) nodes.push(gapButton(i));
      const scouted = scout && scout.gap === i;
      const label = fill(S.position, { number: i + 1 }) + ": " + fill(S.card, { top: card.t, bottom: card.b });
      if (choosing) {
        nodes.push(cardNode(card, "button", {
          type: "button", class: "card n" + card.t + (selected.has(i) ? " selected" : "") + (scouted ? " scouted" : ""),
          "data-index": i, "data-key": "card" + i, "aria-pressed": selected.has(i) ? "true" : "false", "aria-label": label, title: label,
          onclick: () => onSelect(i), onkeydown: arrows,
        }));
      } else {
        nodes.push(cardNode(card, "div", { "aria-label": label, title: label, "data-index": i }));
      }
    });
    if (placing) nodes.push(gapButton(hand.length));
    $("hand").replaceChildren(...nodes);
    $("hand").classList.toggle("placing", !!placing);
    // At round start, the hand as it would be after a flip, to compare before choosing.
    const flipping = state.your_turn && state.phase === "flip";
    $("flip-preview").hidden = !flipping;
    if (flipping) {
      const turned = state.hand.map(flipped);
      if (state.flip_reverses) turned.reverse();
      $("flipped").replaceChildren(...turned.map((card) => cardNode(card)));
    }
  }

  function arrows(event) {
    // Left and right arrows move along the hand, as the cards lie.
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const buttons = [...$("hand").querySelectorAll("button")];
    const at = buttons.indexOf(event.currentTarget) + (event.key === "ArrowRight" ? 1 : -1);
    if (buttons[at]) buttons[at].focus();
    event.preventDefault();
  }

  function drawControls() {
    const mine = state.your_turn;
    const flipping = mine && state.phase === "flip";
    $("keep").hidden = $("flip").hidden = !flipping;
    $("show").hidden = !(mine && state.phase === "play" && (!scout || scout.gap !== null));
    $("cancel").hidden = !scout;
    if (!mine) say("");
  }

  function drawList(list, items) {
    list.replaceChildren(...items.map((text) => el("li", { text })));
  }

  function drawLog() {
    const log = $("log");
    if (state.log_from > log.children.length) return load(); // a gap: fetch what is missing
    while (log.children.length > state.log_from) log.lastChild.remove(); // lines the server sent again
    for (const line of state.log) log.append(el("li", { text: line }));
    log.scrollTop = log.scrollHeight;
  }

  function drawRoundEnd() {
    const dialog = $("round-end");
    if (dialog.open || state.round_ends.length <= seenEnds) return;
    const end = state.round_ends[state.round_ends.length - 1];
    $("round-end-title").textContent = end.title;
    $("round-end-text").textContent = end.text;
    $("round-end-exempt").textContent = end.exempt || "";
    $("round-end-lines").replaceChildren(...end.lines.map((line) => el("tr", { class: line.seat === state.seat ? "me" : "" }, [
      el("th", { scope: "row", text: line.name }),
      el("td", { text: line.captured }),
      el("td", { text: line.chips_received }),
      el("td", { text: line.chips_held }),
      el("td", { text: line.in_hand + (line.exempt ? " (0)" : "") }),
      el("td", { text: (line.score > 0 ? "+" : "") + line.score }),
    ])));
    seenEnds = state.round_ends.length;
    sessionStorage.setItem(seenKey, String(seenEnds));
    dialog.showModal();
  }

  function drawFinal() {
    $("final").hidden = !state.over;
    if (!state.over) return;
    const winners = state.standings.filter((s) => s.winner).length;
    const items = state.standings.map((row) => el("li", { class: row.winner ? "winner" : "" }, [
      fill(S.rank, { rank: row.rank, name: state.seats[row.seat].name, total: "\u2066" + row.total + "\u2069" }),
      row.winner ? el("strong", { text: " · " + S.winner }) : "",
    ]));
    if (winners > 1) items.push(el("li", { class: "shared", text: S.shared }));
    $("standings").replaceChildren(...items);
  }

  // -- wiring ------------------------------------------------------------------------------

  $("keep").addEventListener("click", () => send("keep"));
  $("flip").addEventListener("click", () => send("flip"));
  $("show").addEventListener("click", onShow);
  $("cancel").addEventListener("click", () => { resetMove(); say(""); draw(); });
  $("turn").addEventListener("click", () => { scout.flip = !scout.flip; draw(); });
  $("round-end").addEventListener("close", () => { draw(); schedule(); });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && scout) { resetMove(); say(""); draw(); }
  });
  load();
})();
