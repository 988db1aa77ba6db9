"""What a player sees, measured in the page: one-row hand, nothing clipped, the message line in
view, no page overflow; and the axe-core accessibility check, injected from tests/e2e/node_modules."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"

# Runs in the page; returns a list of problems in words (empty when all is well).
MEASURE = """() => {
  const problems = [];
  const vw = innerWidth, vh = innerHeight;
  const doc = document.documentElement;
  if (doc.scrollWidth > vw) problems.push(`page is ${doc.scrollWidth}px wide in a ${vw}px window`);
  if (doc.scrollHeight > vh) problems.push(`page is ${doc.scrollHeight}px tall in a ${vh}px window`);
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const inView = (e, name) => {
    const r = e.getBoundingClientRect();
    if (r.top < -1 || r.left < -1 || r.bottom > vh + 1 || r.right > vw + 1)
      problems.push(`${name} is out of view: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`);
  };
  const dialog = document.querySelector('dialog[open]');
  if (!dialog && document.querySelector('#game')) {
    const game = document.querySelector('#game');
    if (game.dataset.view === 'table') {
      const cards = [...document.querySelectorAll('#hand .card')];
      const tops = new Set(cards.map((c) => Math.round(c.getBoundingClientRect().bottom)));
      const scouted = cards.some((c) => c.classList.contains('scouted') || c.classList.contains('selected'));
      if (cards.length && tops.size > (scouted ? 3 : 1)) problems.push(`the hand is on ${tops.size} rows`);
      const lefts = cards.map((c) => c.getBoundingClientRect().left);
      if (lefts.some((x, i) => i && x <= lefts[i - 1])) problems.push('the hand is not left to right');
      cards.forEach((c, i) => inView(c, `hand card ${i + 1}`));
      for (const c of document.querySelectorAll('#active .card')) inView(c, 'an active card');
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
    return page.evaluate(MEASURE)


def axe_violations(page, impacts=("serious", "critical")) -> list[str]:
    """axe-core's violations of these impacts, one line each ("rule: help (n nodes)")."""
    # Evaluated through the debugging protocol, not a <script> tag: the page's Content-Security-Policy allows no inline script.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    result = page.evaluate(
        "async () => (await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}}))"
        ".violations.map((v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3)}))"
    )
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in result if v["impact"] in impacts]
