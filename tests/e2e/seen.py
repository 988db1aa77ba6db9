"""What a player sees, measured in the page: one-row hand, nothing clipped, the message line in
view, the header on one line, no page overflow; the part of each card or gap a finger can tap
(hit_areas); and the axe-core accessibility check, injected from tests/e2e/node_modules."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"

# Shared by the page checks below, inside their function (it reports into their `problems`): whether an
# element is drawn, and whether it is in the window and not hidden by a box that scrolls or clips it.
IN_VIEW = """  const vw = innerWidth, vh = innerHeight;
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const inView = (e, name) => {
    // In the window, and not hidden by a box that scrolls or clips it (the table's middle scrolls when short).
    const r = e.getBoundingClientRect();
    if (r.top < -1 || r.left < -1 || r.bottom > vh + 1 || r.right > vw + 1)
      return problems.push(`${name} is out of view: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`);
    for (let box = e.parentElement; box && box !== document.body; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const b = box.getBoundingClientRect();
      if (r.top < b.top - 1 || r.bottom > b.bottom + 1 || r.left < b.left - 1 || r.right > b.right + 1)
        return problems.push(`${name} is hidden by ${box.id || box.className}: ${Math.round(r.top)}-${Math.round(r.bottom)} in ${Math.round(b.top)}-${Math.round(b.bottom)}`);
    }
  };
"""

# Runs in any page: the header on one line, nothing in it wrapped, scrolled out of sight or out of the window.
HEADER = """() => {
  const problems = [];
""" + IN_VIEW + """  // The header is one line: its parts side by side, each link's words on one line, no link scrolled out of sight.
  const header = document.querySelector('header.top');
  if (header) {
    const parts = [...header.querySelectorAll('.brand, nav a, .languages select')].filter(visible);
    const rects = parts.map((e) => e.getBoundingClientRect());
    if (Math.max(...rects.map((r) => r.top)) >= Math.min(...rects.map((r) => r.bottom)))
      problems.push(`the header is on more than one line (${Math.round(header.getBoundingClientRect().height)}px tall)`);
    for (const a of header.querySelectorAll('nav a')) {
      const range = document.createRange();
      range.selectNodeContents(a);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) problems.push(`the header link "${a.textContent.trim()}" is on ${lines.size} lines`);
    }
    const nav = header.querySelector('nav');
    if (nav && nav.scrollWidth > nav.clientWidth + 1) problems.push(`the header links are ${nav.scrollWidth}px wide in ${nav.clientWidth}px: some are out of sight`);
    parts.forEach((e) => inView(e, `header ${e.tagName.toLowerCase()} "${e.textContent.trim().split(/\\s{2,}/)[0]}"`));
  }
  return problems;
}"""

# Runs in the page; returns a list of problems in words (empty when all is well).
MEASURE = """() => {
  const problems = [];
""" + IN_VIEW + """  const doc = document.documentElement;
  if (doc.scrollWidth > vw) problems.push(`page is ${doc.scrollWidth}px wide in a ${vw}px window`);
  if (doc.scrollHeight > vh) problems.push(`page is ${doc.scrollHeight}px tall in a ${vh}px window`);
  const dialog = document.querySelector('dialog[open]');
  if (!dialog && document.querySelector('#game')) {
    const game = document.querySelector('#game');
    if (game.dataset.view === 'table') {
      const cards = [...document.querySelectorAll('#hand .card')].filter(visible);  // none when the hand gives way (a phone's final standings)
      const tops = new Set(cards.map((c) => Math.round(c.getBoundingClientRect().bottom)));
      const scouted = cards.some((c) => c.classList.contains('scouted') || c.classList.contains('selected'));
      if (cards.length && tops.size > (scouted ? 3 : 1)) problems.push(`the hand is on ${tops.size} rows`);
      const lefts = cards.map((c) => c.getBoundingClientRect().left);
      if (lefts.some((x, i) => i && x <= lefts[i - 1])) problems.push('the hand is not left to right');
      // A hand too long to tap card by card scrolls sideways: then its box must be in view, and each card level with it.
      const wrap = document.querySelector('.hand-wrap');
      if (wrap.scrollWidth > wrap.clientWidth + 1 && getComputedStyle(wrap).overflowX !== 'visible') {
        inView(wrap, 'the hand');
        const w = wrap.getBoundingClientRect();
        cards.forEach((c, i) => { const r = c.getBoundingClientRect(); if (r.top < w.top - 1 || r.bottom > w.bottom + 1) problems.push(`hand card ${i + 1} is cut off`); });
      } else cards.forEach((c, i) => inView(c, `hand card ${i + 1}`));
      for (const c of document.querySelectorAll('#active .card')) if (visible(c)) inView(c, 'an active card');
      for (const b of document.querySelectorAll('#controls button')) if (visible(b)) inView(b, `button ${b.id}`);
    }
    inView(document.querySelector('#message'), 'the message line');
    // Nothing drawn over anything else: the lines of the table's middle and of your side follow each other.
    for (const box of document.querySelectorAll('.center, .mine')) {
      const parts = [...box.children].filter((e) => visible(e) && getComputedStyle(e).position !== 'absolute');
      parts.forEach((part, i) => {
        if (part.scrollHeight > part.clientHeight + 1 && getComputedStyle(part).overflowY === 'visible')
          problems.push(`the text of ${part.id || part.className} spills out of its box`);
        const next = parts[i + 1];
        if (next && part.getBoundingClientRect().bottom > next.getBoundingClientRect().top + 1)
          problems.push(`${part.id || part.className} overlaps ${next.id || next.className}`);
      });
    }
    for (const o of document.querySelectorAll('.opponent, .mine, .center, .bar'))
      if (visible(o) && o.scrollWidth > o.clientWidth + 1) {
        const edge = o.getBoundingClientRect();
        const out = [...o.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > edge.right + 1 || e.getBoundingClientRect().left < edge.left - 1);
        const where = (e) => { const r = e.getBoundingClientRect(); return `${e.className || e.tagName}[${Math.round(r.left)}-${Math.round(r.right)}]`; };
        problems.push(`${o.className} overflows sideways by ${o.scrollWidth - o.clientWidth}px: ${where(o)} ${out.map(where).join(', ')}`);
      }
  }
  if (dialog) inView(dialog, 'the open dialog');
  // No clipped column: every visible table fits its box, and no cell's text spills out of its cell.
  for (const table of document.querySelectorAll('table')) {
    if (!visible(table)) continue;
    const box = table.parentElement;
    if (table.getBoundingClientRect().right > box.getBoundingClientRect().right + 1 || table.getBoundingClientRect().left < box.getBoundingClientRect().left - 1)
      problems.push(`table ${table.id || table.className} is wider than its box`);
    for (const cell of table.querySelectorAll('th, td'))
      if (cell.scrollWidth > cell.clientWidth + 1) problems.push(`cell "${cell.textContent}" is clipped`);
    if (!dialog || dialog.contains(table)) for (const cell of table.querySelectorAll('th, td')) inView(cell, `cell "${cell.textContent}"`);
  }
  for (const b of document.querySelectorAll('button, .button, select'))
    if (visible(b) && (!dialog || dialog.contains(b)) && b.scrollWidth > b.clientWidth + 1) problems.push(`control "${b.textContent.trim()}" is clipped`);
  return problems;
}"""


def measure(page) -> list[str]:
    """Problems a player would see on the page as it is now; [] when none."""
    return page.evaluate(MEASURE) + header_problems(page)


def header_problems(page) -> list[str]:
    """The header's problems (more than one line, a link wrapped or out of sight); [] when none."""
    return page.evaluate(HEADER)


# Runs in the page: for each element, the width and height a tap lands on it, found by asking the page what
# lies under each pixel (document.elementFromPoint) along the lines through the middle of its visible part.
# Whatever covers it (the next card of an overlapped row, a gap) is not its area. A row that scrolls is
# scrolled to each element in turn, then put back.
HIT_AREAS = """(selector) => {
  const found = [...document.querySelectorAll(selector)];
  const scrollers = new Map();
  const out = found.map((e, i) => {
    for (let box = e.parentElement; box; box = box.parentElement)
      if (box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== 'visible') {
        if (!scrollers.has(box)) scrollers.set(box, box.scrollLeft);
        const b = box.getBoundingClientRect(), r = e.getBoundingClientRect();
        box.scrollLeft += r.left + r.width / 2 - (b.left + b.width / 2);  // this element in the middle of its box
      }
    const r = e.getBoundingClientRect();
    const mine = (x, y) => { const at = document.elementFromPoint(x, y); return !!at && (at === e || e.contains(at)); };
    // The longest unbroken run of pixels that are this element's, from `from` to `to` along one line.
    const run = (from, to, hits) => {
      let best = [0, from], start = null;
      for (let p = Math.floor(from); p <= Math.ceil(to); p++) {
        const hit = p < Math.ceil(to) && hits(p + 0.5);
        if (hit && start === null) start = p;
        if (!hit && start !== null) { if (p - start > best[0]) best = [p - start, start]; start = null; }
      }
      return best;
    };
    const [width, left] = run(r.left, r.right, (x) => mine(x, r.top + r.height / 2));
    const [height] = run(r.top, r.bottom, (y) => mine(left + width / 2, y));
    const name = e.dataset.gap !== undefined ? `gap ${e.dataset.gap}` : `card ${i + 1}`;
    return {name, width, height};
  });
  for (const [box, left] of scrollers) box.scrollLeft = left;
  return out;
}"""


def hit_areas(page, selector: str) -> list[dict]:
    """{"name", "width", "height"} of the part of each element matching `selector` that a tap reaches."""
    return page.evaluate(HIT_AREAS, selector)


def axe_violations(page, impacts=("serious", "critical")) -> list[str]:
    """axe-core's violations of these impacts, one line each ("rule: help (n nodes)")."""
    # Evaluated through the debugging protocol, not a <script> tag: the page's Content-Security-Policy allows no inline script.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    result = page.evaluate(
        "async () => (await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}}))"
        ".violations.map((v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3)}))"
    )
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in result if v["impact"] in impacts]
