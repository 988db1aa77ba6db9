// The table: draws what the server says this seat may see, animates each move, and sends moves in
// the game's notation. The server checks every move; this script only helps to build them.
// No inline script or style: positions go through the CSS object model (element.style), which a
// strict Content-Security-Policy allows.
"use strict";
(function () {
  const game = document.getElementById("game");
  const token = game.dataset.token;
  const lang = game.dataset.lang;
  const serverDelay = Number(game.dataset.delay) || 0;
  const S = JSON.parse(document.getElementById("strings").textContent);
  const $ = (id) => document.getElementById(id);
  const handWrap = game.querySelector(".hand-wrap"); // the hand and its gaps
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
  const isolate = (text) => "\u2066" + text + "\u2069";

  let state = null;
  let selected = new Set(); // positions (0-based) of the hand as drawn
  let scout = null; // {end, flip, gap, confirmed} while a scout is built; gap is null until chosen
  let timer = null;
  let sending = false;
  let animating = null; // a Promise while a move is animated; newer states wait for it
  let pending = null; // the newest state that arrived during an animation
  let lastEvent = null; // the move highlighted and captioned
  let myLastEvent = null; // this seat's own last move, highlighted until its next one
  let skipping = false; // "skip to my turn": bots move at once, without animation
  let roving = 0; // the hand's card that Tab reaches (the others are a keyboard arrow away: one Tab stop for the hand)
  const baseTitle = document.title;
  const seenKey = "scoutlab-round-ends-" + token;
  const stored = localStorage.getItem(seenKey);
  let seenEnds = stored === null ? -1 : Number(stored);

  // The pace: the server's bot delay is "normal"; the choice is kept in this browser.
  const PACE = { slow: 2.5, normal: 1, fast: 0.35, instant: 0 };
  let pace = localStorage.getItem("scoutlab-pace");
  if (!(pace in PACE)) pace = "normal";
  $("pace").value = pace;
  const paceDelay = () => (skipping ? 0 : Math.round(Math.max(serverDelay, 300) * PACE[pace]));
  const animTime = () => (skipping || pace === "instant" || document.hidden ? 0 : Math.min(650, Math.round(paceDelay() * 0.55)));

  // -- talking to the server ---------------------------------------------------------------

  function url(path) {
    // Only the log lines the page lacks are sent back.
    return "/api/m/" + token + path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang)
      + "&log_from=" + $("log").children.length;
  }

  async function call(method, path, body) {
    const options = { method, headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    try {
      const response = await fetch(url(path), options);
      return { ok: response.ok, data: await response.json() };
    } catch (error) {
      return { ok: false, data: { error: S.offline }, offline: true };
    }
  }

  async function load() {
    const answer = await call("GET", "");
    if (answer.ok) { say(""); receive(answer.data, { force: true }); }
    else if (answer.offline) { say(S.offline); setTimeout(load, 2000); }
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
      receive(answer.data, { force: true }); // drawn even if the live stream brought this state first
    } else {
      if (answer.data.state) receive(answer.data.state, { keepMove: true });
      say(answer.data.error);
    }
  }

  async function advance() {
    timer = null;
    const answer = await call("POST", "/advance");
    if (answer.ok) receive(answer.data);
    else setTimeout(load, 2000);
  }

  // Every open tab follows the server: server-sent events, or polling where they fail.
  let stream = null;
  let poller = null;

  function follow() {
    if (!window.EventSource) return poll();
    stream = new EventSource(url("/events"));
    stream.addEventListener("state", (event) => {
      stopPolling();
      receive(JSON.parse(event.data));
    });
    stream.addEventListener("error", () => {
      // Closed by the server after its lifetime, refused, or the network: poll, then try again.
      stream.close();
      stream = null;
      poll();
      setTimeout(follow, 5000);
    });
  }

  function poll() {
    if (poller === null) poller = setInterval(() => { if (!sending) load(); }, 2500);
  }

  function stopPolling() {
    if (poller !== null) clearInterval(poller);
    poller = null;
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

  function cardName(card) {
    return isolate(card.t + "/" + card.b);
  }

  function takenCard() {
    const active = state.active;
    const card = scout.end ? active[active.length - 1] : active[0];
    return scout.flip ? flipped(card) : card;
  }

  function shownHand() {
    // The hand as drawn: with the scouted card in its chosen place while a scout is built.
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
    // Whether a Scout & Show's show is allowed: only the server knows the hand with the scouted card in it.
    const mine = ++asked;
    const answer = await call("GET", "/explain?action=" + encodeURIComponent(action));
    if (mine === asked && answer.ok) say(answer.data.legal ? S.legal : S.not_yet, answer.data.legal ? "is-ok" : "is-guide");
  }

  function guideSelection() {
    // Cards being picked are not a move yet: one calm line on what they can become. The rule a show breaks is
    // said when it is tried (onShow: the server's refusal).
    const run = span();
    asked++;
    if (!selected.size) return say("");
    if (!run) return say(S.side_by_side, "is-guide");
    if (scout) return explain(scoutText() + " " + showText(run));
    const shows = state.legal.shows;
    if (shows.some((s) => s[0] === run[0] && s[1] === run[1])) return say(S.legal, "is-ok");
    const grows = shows.some((s) => s[0] <= run[0] && run[0] + run[1] <= s[0] + s[1]);
    say(grows ? S.grow : S.no_show, "is-guide");
  }

  function onSelect(index) {
    if (selected.has(index)) selected.delete(index);
    else selected.add(index);
    guideSelection();
    draw();
  }

  function onTake(end) {
    selected = new Set();
    scout = { end, flip: false, gap: null, confirmed: false };
    say(fill(S.taken, { card: cardName(takenCard()) }), "is-guide");
    draw();
    // The hand's side grows while a card is placed; where that leaves the table's middle short, it scrolls to the active set.
    $("active").scrollIntoView({ block: "nearest", inline: "nearest" });
    const first = $("gaps").querySelector("button");
    if (first) first.focus({ preventScroll: true });
  }

  function place(gap) {
    scout.gap = Math.max(0, Math.min(state.hand.length, gap));
    say(fill(S.placed, { card: cardName(takenCard()), number: scout.gap + 1 }), "is-guide");
    draw();
  }

  function onConfirm() {
    if (!scout || scout.gap === null) return;
    if ($("sns").checked && state.legal.scout_show) {
      scout.confirmed = true;
      say(S.sns_pick, "is-guide");
      draw();
      const marked = $("hand").querySelector("button.scouted");
      if (marked) marked.focus();
    } else {
      send(scoutText());
    }
  }

  function undo() {
    resetMove();
    say("");
    draw();
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
    // A card that is not a button is a picture with words: role img carries its label.
    const role = tag === "button" ? {} : { role: "img" };
    const node = el(tag || "div", Object.assign({ class: "card n" + card.t, "aria-label": label, title: label }, role, attributes || {}), [
      el("span", { class: "top", text: card.t, "aria-hidden": "true" }),
      el("span", { class: "bottom", text: card.b, "aria-hidden": "true" }),
    ]);
    // Each half in its number's colour (n: the top one, bn: the bottom one); the big middle numbers come from data-t, data-b.
    node.classList.add("bn" + card.b);
    node.dataset.t = card.t;
    node.dataset.b = card.b;
    return node;
  }

  // The tone is a class of the message line: is-ok for "This show is allowed.", is-guide for what to do next,
  // is-refused (the default) for a reason.
  function say(text, tone) {
    $("message").textContent = text || "";
    $("message").className = "message " + (tone || "is-refused");
  }

  function fitRow(row) {
    // One row at every width: cards shrink to fit, then overlap; never wrap, never scroll. Overlapped, each card
    // still shows a strip with its two corner numbers (at 390 px a hand of 15 leaves each card about 22 px).
    const cards = [...row.children].filter((c) => c.classList.contains("card"));
    const n = cards.length;
    const style = getComputedStyle(row);
    const max = parseFloat(style.getPropertyValue("--card-max")) || 64;
    const min = parseFloat(style.getPropertyValue("--card-min")) || 36;
    const gap = 4;
    const width = row.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    let w = n ? Math.min(max, (width - (n - 1) * gap) / n) : max;
    let step = gap;
    if (w < min) {
      w = Math.min(min, width);
      step = n > 1 ? (width - w) / (n - 1) - w : 0;
    }
    row.style.setProperty("--cw", Math.floor(w) + "px");
    row.style.setProperty("--step", Math.floor(step) + "px");
    row.classList.toggle("tight", step < 0);
    row.classList.toggle("small", w < 50); // too small for the big middle numbers: the corners say it all
  }

  function captionOverflows(caption) {
    // The text's own width against the room inside the caption's padding, unrounded: scrollWidth and clientWidth
    // are whole pixels, and a fraction of a pixel too wide is enough for the ellipsis to take the last word (the
    // box itself is laid out in 1/64 px, hence the 1/32 px allowed).
    const range = document.createRange();
    range.selectNodeContents(caption);
    const style = getComputedStyle(caption);
    const room = caption.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
    return range.getBoundingClientRect().width > room + 1 / 32;
  }

  function fitCaption() {
    // One line on every screen: the whole sentence where it fits, else the server's brief one, else smaller type.
    // Screen readers hear the whole sentence from its own live region, once per move, whatever is shown.
    const caption = $("caption"), said = $("caption-said");
    const full = lastEvent ? lastEvent.caption : "";
    if (said.textContent !== full) said.textContent = full;
    caption.style.fontSize = "";
    caption.textContent = full;
    if (!lastEvent || !captionOverflows(caption)) return;
    if (lastEvent.brief) caption.textContent = lastEvent.brief;
    let size = parseFloat(getComputedStyle(caption).fontSize);
    while (captionOverflows(caption) && size > 11) {
      size -= 0.5;
      caption.style.fontSize = size + "px";
    }
  }

  function fitAll() {
    fitCaption();
    followLog();
    for (const row of game.querySelectorAll(".row")) fitRow(row);
    drawGaps();
    // While a card is placed your side grows (the scout's buttons, a longer message): the active set stays in view.
    if (scout && !scout.confirmed) $("active").scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function draw() {
    if (!state) return; // a control used while the page still waits for the match (the pace, on a slow line)
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    $("round").textContent = state.round_text;
    $("skip").hidden = !state.bot_to_act || skipping || pace === "instant";
    drawOpponents();
    drawActive();
    drawHand();
    drawControls();
    drawList($("hints"), state.over ? [] : state.hints);
    drawLog();
    drawSheet();
    drawFinal();
    fitAll(); // the caption too
    drawRoundEnd();
    drawStatus();
    if (focusKey) {
      const again = game.querySelector('[data-key="' + focusKey + '"]');
      if (again && !again.disabled) again.focus();
    }
  }

  function drawStatus() {
    // While a round's end is on screen no bot moves (schedule waits for Continue): the status says so, not "thinking".
    const paused = $("round-end").open && state.bot_to_act;
    $("status").textContent = paused ? S.paused : state.status;
  }

  function facts(seat) {
    // Chips as tokens, the Scout & Show chip, the captured pile and the score, each with words for screen readers.
    const chips = [];
    for (let i = 0; i < Math.min(seat.chips, 5); i++) chips.push(el("span", { class: "chip", "aria-hidden": "true" }));
    if (seat.chips > 5) chips.push(el("span", { class: "more", "aria-hidden": "true", text: "+" + (seat.chips - 5) }));
    const parts = [
      el("span", { class: "fact chips", title: fill(S.chips, { count: seat.chips }) }, [
        ...chips, seat.chips ? "" : el("span", { class: "none", "aria-hidden": "true", text: "0" }),
        el("span", { class: "visually-hidden", text: fill(S.chips, { count: seat.chips }) }),
      ]),
    ];
    if (state.has_scout_show) {
      const text = seat.scout_show ? S.sns_yes : S.sns_no;
      parts.push(el("span", { class: "fact sns" + (seat.scout_show ? "" : " used"), title: text }, [
        el("span", { "aria-hidden": "true", text: S.sns_badge }), el("span", { class: "visually-hidden", text }),
      ]));
    }
    parts.push(el("span", { class: "fact pile", "data-pile": seat.seat, title: fill(S.captured, { count: seat.captured }) }, [
      el("span", { class: "pile-icon", "aria-hidden": "true" }),
      el("span", { "aria-hidden": "true", text: seat.captured }),
      el("span", { class: "visually-hidden", text: fill(S.captured, { count: seat.captured }) }),
    ]));
    parts.push(el("span", { class: "fact score", title: fill(S.score, { count: seat.total }) }, [
      el("span", { "aria-hidden": "true", text: fill(S.score_badge, { count: isolate(String(seat.total)) }) }),
      el("span", { class: "visually-hidden", text: fill(S.score, { count: isolate(String(seat.total)) }) }),
    ]));
    return parts;
  }

  const PLACES = { 1: ["top"], 2: ["top-left", "top-right"], 3: ["left", "top", "right"], 4: ["left", "top-left", "top-right", "right"] };

  function drawOpponents() {
    // Everyone else, in seat order from the seat after yours: the order the turn goes round.
    const n = state.players;
    const boxes = [];
    for (let k = 1; k < n; k++) {
      const seat = state.seats[(state.seat + k) % n];
      const backs = [];
      for (let i = 0; i < seat.hand_size; i++) backs.push(el("span", { class: "back" }));
      const cls = "opponent" + (seat.to_act ? " to-act" : "") + (seat.owner ? " owner" : "")
        + (lastEvent && lastEvent.seat === seat.seat && lastEvent.kind !== "round_end" ? " moved" : "");
      boxes.push(el("li", { class: cls, "data-seat": seat.seat }, [
        el("div", { class: "who" }, [
          el("strong", { text: seat.name }),
          // a bot with options (mcts:seconds=0.8) may break after its colon and commas, never mid-word
          seat.bot ? el("small", {}, [el("span", { class: "sep", text: " · " }), seat.bot.replace(/([:,])/g, "$1\u200b")]) : "",
          seat.to_act ? el("span", { class: "visually-hidden", text: " · " + S.to_act }) : "",
          seat.owner ? el("span", { class: "visually-hidden", text: " · " + S.owner }) : "",
        ]),
        el("div", { class: "fan", "data-fan": seat.seat, title: fill(S.in_hand, { count: seat.hand_size }) }, [
          el("span", { class: "backs", "aria-hidden": "true" }, backs),
          el("span", { class: "count", "aria-hidden": "true", text: seat.hand_size }),
          el("span", { class: "visually-hidden", text: fill(S.in_hand, { count: seat.hand_size }) }),
        ]),
        el("div", { class: "seat-facts" }, facts(seat)),
      ]));
    }
    // Seated around the felt by their number (style.css): the next seat on your left, then across, then on your right.
    const places = PLACES[boxes.length] || [];
    boxes.forEach((box, i) => { if (places[i]) box.dataset.place = places[i]; });
    $("opponents").replaceChildren(...boxes);
    $("opponents").dataset.count = String(n - 1);
    $("felt").dataset.count = String(n - 1);
    const me = state.seats[state.seat];
    $("me").replaceChildren(...facts(me));
    game.querySelector(".mine").classList.toggle("to-act", me.to_act);
  }

  function drawActive() {
    $("active-text").textContent = state.active_text;
    const ends = state.your_turn && !scout ? state.legal.scout_ends : [];
    const last = state.active.length - 1;
    const fresh = lastEvent && ["show", "scout_and_show"].includes(lastEvent.kind) && lastEvent.cards.length === state.active.length;
    const nodes = state.active.map((card, i) => {
      const end = i === 0 ? 0 : i === last ? 1 : null;
      const cls = "card n" + card.t + (fresh ? " fresh" : "");
      if (scout && end === scout.end) { // the card being scouted: shown where it will leave from
        return cardNode(card, "div", { class: cls + " leaving" });
      }
      if (end !== null && ends.includes(end)) {
        const label = fill(end ? S.take_right : S.take_left, { card: cardName(card) });
        return cardNode(card, "button", {
          type: "button", class: cls + " end", "data-end": end, "data-key": "end" + end, "aria-label": label, title: label,
          draggable: "true", onclick: () => onTake(end), ondragstart: (event) => dragStart(event, "end:" + end),
        });
      }
      return cardNode(card, "div", { class: cls });
    });
    $("active").replaceChildren(...nodes);
    $("active").classList.toggle("empty", !state.active.length);
    $("sns").disabled = !!(scout && scout.confirmed);
    if (!scout) $("sns").checked = false;
  }

  function drawHand() {
    const hand = shownHand();
    const placing = scout && !scout.confirmed;
    const choosing = state.your_turn && state.phase === "play" && !placing;
    const mineLast = myLastEvent && myLastEvent.round === state.round && myLastEvent.kind === "scout" && !scout;
    const freshAt = mineLast ? myLastEvent.gap : null;
    roving = Math.max(0, Math.min(hand.length - 1, roving));
    const nodes = hand.map((card, i) => {
      const scouted = scout && scout.gap === i;
      const label = fill(S.position, { number: i + 1 }) + ": " + fill(S.card, { top: card.t, bottom: card.b });
      const cls = "card n" + card.t + (selected.has(i) ? " selected" : "") + (scouted ? " scouted" : "") + (freshAt === i ? " fresh" : "");
      if (choosing) {
        return cardNode(card, "button", {
          type: "button", class: cls, "data-index": i, "data-key": "card" + i, "aria-pressed": selected.has(i) ? "true" : "false",
          "aria-label": label, title: label, tabindex: i === roving ? "0" : "-1",
          onclick: () => onSelect(i), onfocus: () => { roving = i; },
        });
      }
      const extra = scouted && placing ? { draggable: "true", ondragstart: (event) => dragStart(event, "placed") } : {};
      return cardNode(card, "div", Object.assign({ class: cls, "aria-label": label, title: label, "data-index": i }, extra));
    });
    $("hand").replaceChildren(...nodes);
    $("hand").classList.toggle("placing", !!placing);
    game.querySelector(".hand-wrap").classList.toggle("placing", !!placing);
    // At round start, the hand as it would be after a flip, to compare before choosing.
    const flipping = state.your_turn && state.phase === "flip";
    $("flip-preview").hidden = !flipping;
    if (flipping) {
      const turned = state.hand.map(flipped);
      if (state.flip_reverses) turned.reverse();
      $("flipped").replaceChildren(...turned.map((card) => cardNode(card)));
    }
  }

  function gapPoints() {
    // Where each gap of the hand is, as x offsets within .hand-wrap: gap k has k cards on its left.
    const wrap = handWrap.getBoundingClientRect();
    const cards = [...$("hand").children];
    const n = state.hand.length;
    const at = (k) => (scout && scout.gap !== null && k > scout.gap ? k + 1 : k); // shown index of card k
    // Halfway across the space between cards (none when they overlap), so the gaps are evenly spaced, the last one too.
    const half = Math.max(0, parseFloat($("hand").style.getPropertyValue("--step")) || 0) / 2;
    const points = [];
    for (let k = 0; k <= n; k++) {
      let x;
      if (scout && scout.gap === k) {
        const r = cards[k].getBoundingClientRect();
        x = r.left + r.width / 2;
      } else if (k < n) {
        x = cards[at(k)].getBoundingClientRect().left - half;
      } else {
        const shown = cards[cards.length - 1];
        x = shown ? shown.getBoundingClientRect().right + half : wrap.left;
      }
      points.push(x - wrap.left);
    }
    return points;
  }

  function drawGaps() {
    const gaps = $("gaps");
    const placing = state && scout && !scout.confirmed;
    if (!placing) { gaps.replaceChildren(); gaps.hidden = true; return; }
    gaps.hidden = false;
    const points = gapPoints();
    const n = points.length - 1;
    const pitch = n > 0 ? Math.max(14, (points[n] - points[0]) / (n + 1)) : 48;
    const extent = handWrap.clientWidth;
    const buttons = points.map((x, k) => {
      const text = k === 0 ? S.gap_first : k === n ? fill(S.gap_last, { number: n }) : fill(S.gap, { left: k, right: k + 1 });
      const button = el("button", {
        type: "button", class: "gap" + (scout.gap === k ? " chosen" : ""), "data-gap": k, "data-key": "gap" + k,
        "aria-label": text, title: text, "aria-pressed": scout.gap === k ? "true" : "false", onclick: () => place(k),
        tabindex: k === (scout.gap === null ? 0 : scout.gap) ? "0" : "-1", // one Tab stop; arrows go from gap to gap
      }, [el("span", { "aria-hidden": "true", text: "+" })]);
      // Side by side, each as wide as a card's step, kept inside the hand's (scrolled) box.
      const left = Math.max(0, x - pitch / 2);
      const right = Math.min(extent, x + pitch / 2);
      button.style.left = Math.round(left) + "px";
      button.style.width = Math.round(right - left) + "px";
      return button;
    });
    gaps.replaceChildren(...buttons);
  }

  // Drag and drop with a mouse: an end card of the active set, or the card being placed, onto the hand.
  function dragStart(event, what) {
    event.dataTransfer.setData("text/plain", what);
    event.dataTransfer.effectAllowed = "move";
  }

  function nearestGap(clientX) {
    const wrap = handWrap.getBoundingClientRect();
    const x = clientX - wrap.left; // as gapPoints
    if (!scout || scout.gap === null) {
      // Before a card is placed the row holds the hand alone: card k's left edge is gap k.
      const cards = [...$("hand").children];
      const edges = cards.map((c) => c.getBoundingClientRect().left - wrap.left);
      edges.push(cards.length ? cards[cards.length - 1].getBoundingClientRect().right - wrap.left : 0);
      return edges.reduce((best, e, k) => (Math.abs(e - x) < Math.abs(edges[best] - x) ? k : best), 0);
    }
    const points = gapPoints();
    return points.reduce((best, p, k) => (Math.abs(p - x) < Math.abs(points[best] - x) ? k : best), 0);
  }

  handWrap.addEventListener("dragover", (event) => {
    if (!state || !state.your_turn) return;
    event.preventDefault();
    handWrap.classList.add("drop");
  });
  handWrap.addEventListener("dragleave", () => handWrap.classList.remove("drop"));
  handWrap.addEventListener("drop", (event) => {
    event.preventDefault();
    handWrap.classList.remove("drop");
    const what = event.dataTransfer.getData("text/plain");
    if (what.startsWith("end:") && state.legal.scout_ends.includes(Number(what.slice(4)))) {
      const gap = nearestGap(event.clientX);
      onTake(Number(what.slice(4)));
      place(gap);
    } else if (what === "placed" && scout && !scout.confirmed) {
      place(nearestGap(event.clientX));
    }
  });

  // On a touch screen the hand is one control a finger slides along, since an overlapped card is a strip
  // narrower than a fingertip: the card under the finger lifts, whole and larger, and lifting the finger
  // picks it; while a scouted card is placed, the finger carries it from gap to gap and leaves it where it
  // lifts. A slip shows before it counts. A mouse and the keyboard pick as before.
  let slide = null; // {id, placing, at}: the pointer, and the card (or gap) under it
  let swallowUntil = 0; // the click that ends a slide has been answered already

  function cardUnder(clientX) {
    // An overlapped card shows the strip left of the next one: the last card whose left edge is left of x.
    const cards = [...$("hand").children];
    let at = 0;
    cards.forEach((card, i) => { if (card.getBoundingClientRect().left <= clientX) at = i; });
    return at;
  }

  function slideTo(clientX) {
    if (slide.placing) {
      const gap = nearestGap(clientX);
      if (gap !== scout.gap) place(gap);
      return;
    }
    const at = cardUnder(clientX);
    if (at === slide.at) return;
    slide.at = at;
    for (const card of $("hand").children) card.classList.toggle("lifted", Number(card.dataset.index) === at);
  }

  function endSlide(pick) {
    if (!slide) return;
    const { placing, at } = slide;
    slide = null;
    for (const card of $("hand").querySelectorAll(".lifted")) card.classList.remove("lifted");
    swallowUntil = performance.now() + 600;
    if (pick && !placing && at !== null) onSelect(at);
  }

  handWrap.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch" || !state || !state.your_turn || state.phase !== "play" || slide) return;
    const placing = !!(scout && !scout.confirmed);
    if (!placing && scout) return; // a confirmed scout waits for the server
    slide = { id: event.pointerId, placing, at: null };
    handWrap.setPointerCapture(event.pointerId);
    slideTo(event.clientX);
  });
  handWrap.addEventListener("pointermove", (event) => {
    if (slide && event.pointerId === slide.id) slideTo(event.clientX);
  });
  handWrap.addEventListener("pointerup", (event) => { if (slide && event.pointerId === slide.id) endSlide(true); });
  handWrap.addEventListener("pointercancel", (event) => { if (slide && event.pointerId === slide.id) endSlide(false); });
  handWrap.addEventListener("click", (event) => {
    if (performance.now() < swallowUntil) { event.stopPropagation(); event.preventDefault(); swallowUntil = 0; }
  }, true);

  function drawControls() {
    const mine = state.your_turn;
    const flipping = mine && state.phase === "flip";
    const placing = !!(scout && !scout.confirmed);
    $("keep").hidden = $("flip").hidden = !flipping;
    $("show").hidden = !(mine && state.phase === "play" && !placing);
    $("scouting").hidden = !placing;
    $("cancel").hidden = !scout;
    if (placing) {
      const placed = scout.gap !== null;
      $("move-left").disabled = !placed || scout.gap === 0;
      $("move-right").disabled = !placed || scout.gap === state.hand.length;
      $("confirm").disabled = !placed;
      $("sns-label").hidden = !state.legal.scout_show;
    }
    if (!mine && !sending) say("");
  }

  function drawList(list, items) {
    list.replaceChildren(...items.map((text) => el("li", { text })));
  }

  function drawLog() {
    const log = $("log");
    if (state.log_from > log.children.length) return load(); // a gap: fetch what is missing
    while (log.children.length > state.log_from) log.lastChild.remove(); // lines the server sent again
    for (const line of state.log) log.append(el("li", { text: line }));
  }

  // The move log shows the newest move whenever it is on screen, unless the player scrolled up to read: then it
  // stays put until they scroll back down. Scrolled once everything is drawn (the score sheet above it takes its
  // room first), and again when the log's box changes (a phone's Moves tab opened, the sheet grown).
  let logFollows = true;
  let logScrolledTo = null; // where followLog last put it: that scroll is not the player's

  function followLog() {
    const log = $("log");
    if (!logFollows || !log.clientHeight) return; // hidden (a phone's other tab): done when it shows
    log.scrollTop = log.scrollHeight;
    logScrolledTo = log.scrollTop;
  }

  $("log").addEventListener("scroll", () => {
    const log = $("log");
    if (!log.clientHeight || log.scrollTop === logScrolledTo) return;
    logFollows = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
  });
  new ResizeObserver(followLog).observe($("log"));

  function sign(n) {
    return isolate((n > 0 ? "+" : "") + n);
  }

  function drawSheet() {
    // Each round's score per player, the running total under it; the current round still open.
    const me = state.seat;
    const name = (seat) => (seat.seat === me ? fill(S.player_you, { player: seat.name }) : seat.name);
    $("sheet-head").replaceChildren(el("th", { scope: "col", text: "" }),
      // The seat's number on screen (the columns stay narrow in every language), its name for screen readers.
      ...state.seats.map((seat) => el("th", { scope: "col", class: seat.seat === me ? "me" : "", title: name(seat) }, [
        el("span", { "aria-hidden": "true", text: String(seat.seat + 1) }),
        el("span", { class: "visually-hidden", text: name(seat) }),
      ])));
    const running = state.seats.map(() => 0);
    const rows = state.round_ends.map((end) => el("tr", {}, [
      el("th", { scope: "row", text: fill(S.round_col, { number: end.round }) }),
      ...end.lines.map((line) => {
        running[line.seat] += line.score;
        return el("td", { class: line.seat === me ? "me" : "" }, [
          el("span", { class: "points", text: sign(line.score) }),
          el("span", { class: "running", text: isolate(String(running[line.seat])) }),
        ]);
      }),
    ]));
    if (!state.over) {
      rows.push(el("tr", { class: "open" }, [
        el("th", { scope: "row", text: fill(S.round_col, { number: Math.min(state.round, state.rounds) }) }),
        ...state.seats.map((seat) => el("td", { class: seat.seat === me ? "me" : "", text: "…" })),
      ]));
    }
    labelColumns($("sheet-head"), S.players, state.seats.length, false);
    $("sheet-body").replaceChildren(...rows);
    $("sheet-total").replaceChildren(el("th", { scope: "row", text: S.total }),
      ...state.seats.map((seat) => el("td", { class: seat.seat === me ? "me" : "", text: isolate(String(seat.total)) })));
  }

  function labelColumns(head, label, span, total) {
    // A heading over a table's numbered columns, so a bare number reads as what it counts: the players on the score
    // sheet, the rounds in the final standings.
    const row = el("tr", { class: "group" }, [el("td"), el("th", { scope: "colgroup", colspan: span, text: label }), total ? el("td") : ""]);
    const old = head.parentNode.querySelector("tr.group");
    if (old) old.replaceWith(row);
    else head.before(row);
  }

  function drawRoundEnd() {
    const dialog = $("round-end");
    if (seenEnds < 0) {
      // First visit of this match in this browser: earlier rounds are on the score sheet already.
      seenEnds = state.over ? state.round_ends.length - 1 : state.round_ends.length;
      localStorage.setItem(seenKey, String(seenEnds));
    }
    if (dialog.open || state.round_ends.length <= seenEnds) return;
    const end = state.round_ends[seenEnds];
    $("round-end-title").textContent = end.title;
    $("round-end-text").textContent = end.text;
    $("round-end-exempt").textContent = end.exempt || "";
    $("round-end-lines").replaceChildren(...end.lines.map((line) => el("tr", { class: line.seat === state.seat ? "me" : "" }, [
      el("th", { scope: "row", text: line.seat === state.seat ? fill(S.player_you, { player: line.name }) : line.name }),
      el("td", { text: line.captured }),
      el("td", { text: line.chips_received }),
      el("td", { text: line.chips_held }),
      el("td", { text: line.exempt ? fill(S.in_hand_exempt, { count: line.in_hand }) : String(line.in_hand) }),
      el("td", { class: "score", text: sign(line.score) }),
    ])));
    dialog.dataset.round = String(seenEnds + 1);
    skipping = false;
    dialog.showModal();
  }

  function drawFinal() {
    $("final").hidden = !state.over;
    game.classList.toggle("over", state.over);
    if (!state.over) return;
    const me = state.seat;
    const name = (seat) => (seat === me ? fill(S.player_you, { player: state.seats[seat].name }) : state.seats[seat].name);
    // The podium: a step per player, the highest in the middle (style.css orders them); the sentence for screen readers.
    $("standings").replaceChildren(...state.standings.map((row) => {
      const mine = row.seat === me;
      const text = fill(mine ? S.rank_you : S.rank, { rank: row.rank, name: state.seats[row.seat].name, total: isolate(String(row.total)) });
      return el("li", { class: "place-" + Math.min(row.rank, 5) + (row.winner ? " winner" : "") + (mine ? " me" : "") }, [
        el("span", { class: "visually-hidden", text: text + (row.winner ? " · " + S.winner : "") }),
        el("span", { class: "name", "aria-hidden": "true", text: name(row.seat) }),
        el("span", { class: "total", "aria-hidden": "true", text: isolate(String(row.total)) }),
        el("span", { class: "step", "aria-hidden": "true", text: String(row.rank) }),
      ]);
    }));
    const winners = state.standings.filter((s) => s.winner).length;
    $("shared").hidden = winners < 2;
    $("shared").textContent = winners > 1 ? S.shared : "";
    // Each player's score in each round, in the order of the standings, and the total.
    const head = $("breakdown-head");
    head.replaceChildren(head.firstElementChild, ...state.round_ends.map((end) => el("th", { scope: "col" }, [
      el("span", { "aria-hidden": "true", text: String(end.round) }),
      el("span", { class: "visually-hidden", text: fill(S.round_col, { number: end.round }) }),
    ])), el("th", { scope: "col", class: "total", text: S.total }));
    labelColumns(head, S.rounds, state.round_ends.length, true);
    $("breakdown-body").replaceChildren(...state.standings.map((row) => el("tr", { class: row.seat === me ? "me" : "" }, [
      el("th", { scope: "row", text: name(row.seat) }),
      ...state.round_ends.map((end) => {
        const line = end.lines.find((l) => l.seat === row.seat);
        return el("td", { text: line ? sign(line.score) : "" });
      }),
      el("td", { class: "total", text: isolate(String(row.total)) }),
    ])));
  }

  // -- following the server: new states, animated moves, the bots' pace ---------------------

  function rects(selector) {
    return [...game.querySelectorAll(selector)].map((node) => ({ node, rect: node.getBoundingClientRect() }));
  }

  function snapshot() {
    // Where things were before a redraw, for the cards to travel from.
    const seatRect = (attr) => Object.fromEntries(rects("[" + attr + "]").map(({ node, rect }) => [node.getAttribute(attr), rect]));
    return {
      active: rects("#active .card"),
      hand: rects("#hand .card").map((x) => x.rect),
      fans: seatRect("data-fan"),
      piles: seatRect("data-pile"),
      handRect: $("hand").getBoundingClientRect(),
    };
  }

  function flyFrom(node, from, duration) {
    // The card is already in its new place: animate it in from where it was (the FLIP technique).
    const to = node.getBoundingClientRect();
    if (!from || !to.width) return;
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    const scale = Math.max(0.2, Math.min(2, from.width / to.width));
    node.animate([
      { transform: "translate(" + dx + "px," + dy + "px) scale(" + scale + ")", opacity: 0.7 },
      { transform: "none", opacity: 1 },
    ], { duration, easing: "ease-out" });
  }

  function ghost(node, from, to, duration) {
    // A copy of a card that leaves the table: from its old place to `to` (a hand or a captured pile).
    if (!from || !to) return;
    const copy = node.cloneNode(true);
    copy.removeAttribute("id");
    copy.classList.add("ghost");
    copy.setAttribute("aria-hidden", "true");
    copy.style.left = from.left + "px";
    copy.style.top = from.top + "px";
    copy.style.width = from.width + "px";
    copy.style.height = from.height + "px";
    document.body.append(copy);
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    const animation = copy.animate([
      { transform: "none", opacity: 1 },
      { transform: "translate(" + dx + "px," + dy + "px) scale(0.3)", opacity: 0.2 },
    ], { duration, easing: "ease-in" });
    animation.finished.then(() => copy.remove(), () => copy.remove());
  }

  function animate(event, before, duration) {
    if (!event || !duration || event.kind === "round_end") return;
    const me = event.seat === state.seat;
    const fan = (seat) => before.fans[String(seat)] || (seat === state.seat ? before.handRect : null);
    const pileOf = (seat) => {
      const node = game.querySelector('[data-pile="' + seat + '"]');
      return node ? node.getBoundingClientRect() : null;
    };
    if (event.kind === "scout" || event.kind === "scout_and_show") {
      const taken = event.end ? before.active[before.active.length - 1] : before.active[0];
      if (taken && me && event.kind === "scout") flyFrom($("hand").children[event.gap], taken.rect, duration);
      else if (taken) ghost(taken.node, taken.rect, fan(event.seat) || before.handRect, duration);
    }
    if (event.kind === "show" || event.kind === "scout_and_show") {
      const left = event.kind === "scout_and_show" ? before.active.filter((x, i) => i !== (event.end ? before.active.length - 1 : 0)) : before.active;
      if (event.captured) for (const old of left) ghost(old.node, old.rect, pileOf(event.seat), duration);
      [...$("active").children].forEach((node, i) => {
        const from = me && event.kind === "show" && before.hand[event.start + i] ? before.hand[event.start + i] : fan(event.seat);
        flyFrom(node, from, duration);
      });
    }
  }

  function newEvents(next) {
    // The events of lines this page has not drawn yet.
    const have = $("log").children.length;
    return next.events.slice(Math.max(0, have - next.log_from));
  }

  function receive(next, options) {
    options = options || {};
    if (state && next.ply < state.ply) return; // an older answer overtaken by a newer one
    if (state && next.ply === state.ply && !options.force) {
      if (next.log_size === $("log").children.length) return; // nothing new
    }
    if (animating) { pending = { next, options }; return; }
    const fresh = newEvents(next);
    const moved = !state || next.ply !== state.ply;
    const newTurn = !state || state.to_act !== next.to_act || state.round !== next.round || state.phase !== next.phase;
    const before = state ? snapshot() : null;
    const first = !state;
    state = next;
    // Any move made changes the hand or the table: a move being built is void (in a two-player game the
    // same seat acts again after a scout, so a new turn is not the only sign).
    if (!options.keepMove && moved) resetMove();
    const events = state.events.filter((e) => e.kind !== "round_end");
    if (fresh.length || first) lastEvent = fresh.length ? fresh[fresh.length - 1] : state.events[state.events.length - 1] || null;
    for (const event of first ? state.events : fresh) if (event.seat === state.seat) myLastEvent = event;
    if (skipping && (state.your_turn || state.over)) skipping = false;
    const wasMine = !first && mineNow;
    draw();
    signal(first, wasMine);
    const duration = first || !fresh.length ? 0 : animTime();
    if (duration && lastEvent && events.length) {
      animate(lastEvent, before, duration);
      animating = new Promise((resolve) => setTimeout(resolve, duration));
      animating.then(() => {
        animating = null;
        const waiting = pending;
        pending = null;
        if (waiting) receive(waiting.next, waiting.options);
        else schedule(duration);
      });
    } else {
      schedule(0);
    }
    // Your turn again and the focus is nowhere: put it on your hand, for keyboard players.
    if (newTurn && state.your_turn && document.activeElement === document.body && !$("round-end").open) {
      const target = state.phase === "flip" ? $("keep") : $("hand").querySelector('button[tabindex="0"]');
      if (target) target.focus();
    }
  }

  // Your turn, outside the page too: the tab's title says so, and (if chosen) a short beep.
  let mineNow = false;

  function signal(first, wasMine) {
    mineNow = !!(state.your_turn && !state.over);
    document.title = mineNow ? "\u25CF " + S.your_turn + " \u2014 " + baseTitle : baseTitle;
    if (mineNow && !wasMine && !first && sound) beep();
  }

  let sound = localStorage.getItem("scoutlab-sound") === "on"; // off unless chosen
  let audio = null;

  function beep() {
    // 880 Hz for a fifth of a second, faded in and out: made by the Web Audio API, no sound file.
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      const now = audio.currentTime;
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.2);
      tone.connect(gain).connect(audio.destination);
      tone.start(now);
      tone.stop(now + 0.22);
    } catch (error) { /* no audio here: the title still says it */ }
  }

  function drawSound() {
    $("sound").setAttribute("aria-pressed", String(sound));
  }

  // A browser starts audio only after a gesture on the page: with the sound on from an earlier visit, the first
  // click or key press wakes it, so the next turn's beep is heard.
  function wakeAudio() {
    if (sound && !audio) {
      try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (error) { /* no audio here */ }
    }
    if (audio && audio.state === "suspended") audio.resume();
  }
  document.addEventListener("pointerdown", wakeAudio, { once: true, capture: true });
  document.addEventListener("keydown", wakeAudio, { once: true, capture: true });

  function schedule(spent) {
    if (!state || !state.bot_to_act || $("round-end").open || timer !== null) return;
    timer = setTimeout(advance, Math.max(0, paceDelay() - (spent || 0)));
  }

  // -- wiring ------------------------------------------------------------------------------

  $("keep").addEventListener("click", () => send("keep"));
  $("flip").addEventListener("click", () => send("flip"));
  $("show").addEventListener("click", onShow);
  $("cancel").addEventListener("click", undo);
  $("confirm").addEventListener("click", onConfirm);
  $("turn").addEventListener("click", () => {
    scout.flip = !scout.flip;
    if (scout.gap !== null) say(fill(S.placed, { card: cardName(takenCard()), number: scout.gap + 1 }), "is-guide");
    else say(fill(S.taken, { card: cardName(takenCard()) }), "is-guide");
    draw();
  });
  $("move-left").addEventListener("click", () => place(scout.gap - 1));
  $("move-right").addEventListener("click", () => place(scout.gap + 1));
  $("pace").addEventListener("change", () => {
    pace = $("pace").value in PACE ? $("pace").value : "normal";
    localStorage.setItem("scoutlab-pace", pace);
    if (timer !== null) { clearTimeout(timer); timer = null; schedule(0); }
    draw();
  });
  $("skip").addEventListener("click", () => {
    skipping = true;
    if (timer !== null) { clearTimeout(timer); timer = null; }
    draw();
    schedule(0);
  });
  for (const tab of game.querySelectorAll(".tabs button")) {
    tab.addEventListener("click", () => {
      game.dataset.view = tab.dataset.view;
      for (const other of game.querySelectorAll(".tabs button")) other.setAttribute("aria-pressed", String(other === tab));
      if (state) fitAll();
    });
  }
  $("round-end").addEventListener("close", () => {
    seenEnds = Math.max(seenEnds, Number($("round-end").dataset.round || 0));
    localStorage.setItem(seenKey, String(seenEnds));
    draw();
    schedule(0);
  });
  $("sound").addEventListener("click", () => {
    sound = !sound;
    localStorage.setItem("scoutlab-sound", sound ? "on" : "off");
    drawSound();
    if (sound) beep(); // what it will sound like (and the click lets the browser start the audio)
  });
  drawSound();

  // -- the keyboard: arrows, Space, Enter, S, F, Escape (the help line under the buttons says so) ---------

  function focusCard(index) {
    const cards = [...$("hand").querySelectorAll("button.card")];
    if (!cards.length) return;
    roving = Math.max(0, Math.min(cards.length - 1, index));
    cards.forEach((card, i) => { card.tabIndex = i === roving ? 0 : -1; });
    cards[roving].focus();
  }

  function scoutKey() {
    // S takes an end card of the active set and puts it before the card in focus; S again takes the other end.
    const ends = state.legal.scout_ends;
    if (!ends.length || (scout && scout.confirmed)) return;
    if (!scout) {
      const gap = roving;
      onTake(ends.includes(0) ? 0 : ends[0]);
      place(gap);
    } else if (ends.includes(1 - scout.end)) {
      scout.end = 1 - scout.end;
      place(scout.gap === null ? 0 : scout.gap);
    }
    focusChosenGap();
  }

  function focusChosenGap() {
    const chosen = $("gaps").querySelector("button.chosen");
    if (chosen) chosen.focus({ preventScroll: true });
  }

  function turnKey() {
    if (scout && !scout.confirmed) $("turn").click();
  }

  document.addEventListener("keydown", (event) => {
    if (!state || event.ctrlKey || event.metaKey || event.altKey || $("round-end").open) return;
    const target = event.target instanceof Element ? event.target : document.body;
    if (target.closest("input, select, textarea")) return;
    const onCard = target.closest("#hand button.card");
    const onGap = target.closest("#gaps button");
    const onControl = !onCard && !onGap && target.closest("button, a, summary");
    if (event.key === "Escape") {
      if (scout || selected.size) { undo(); event.preventDefault(); }
      return;
    }
    if (!state.your_turn || state.phase !== "play") return;
    const placing = !!(scout && !scout.confirmed);
    const key = event.key;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      // The cards lie left to right in every language: the arrows follow them.
      const delta = key === "ArrowRight" ? 1 : -1;
      if (placing && scout.gap !== null) { place(scout.gap + delta); focusChosenGap(); }
      else if (onGap) {
        const gaps = [...$("gaps").querySelectorAll("button")];
        const next = gaps[gaps.indexOf(onGap) + delta];
        if (next) next.focus();
      } else if (onCard) focusCard(roving + delta);
      else if (!onControl && !placing) focusCard(roving);
      else return;
      event.preventDefault();
    } else if (key === " " && !onCard && !onGap && !onControl && !placing) {
      focusCard(roving);
      onSelect(roving);
      event.preventDefault();
    } else if (key === "Enter" && placing && scout.gap !== null && !onControl && (!onGap || onGap.classList.contains("chosen"))) {
      onConfirm();
      event.preventDefault();
    } else if (key === "Enter" && !placing && (onCard || (!onGap && !onControl))) {
      onShow();
      event.preventDefault();
    } else if (event.code === "KeyS" || key === "s" || key === "S") {
      scoutKey();
      event.preventDefault();
    } else if (event.code === "KeyF" || key === "f" || key === "F") {
      turnKey();
      event.preventDefault();
    }
  });
  new ResizeObserver(() => { if (state) fitAll(); }).observe(game);
  load().then(follow);
})();
