"""The page checks of seen.py find what they look for: a page that breaks each rule is reported, a tidy one is not."""

from __future__ import annotations

from seen import measure

TIDY = """<header class="top" style="display: flex; gap: 8px"><span class="brand">scoutlab</span>
<nav><a href="#">Play</a> <a href="#">Rules</a></nav></header>
<table><tr><td>one</td><td>two</td></tr></table><button>Play</button>"""

# A header with more links than its width holds, a box that hides a table's second cell, a box wider than
# the window and a button too narrow for its label: each a problem a player would see.
BROKEN = """<header class="top" style="display: flex; gap: 8px; width: 300px"><span class="brand">scoutlab</span>
<nav>""" + " ".join(f'<a href="#">Link number {i}</a>' for i in range(8)) + """</nav></header>
<div style="height: 20px; overflow: hidden"><table><tr><td>one</td></tr><tr><td>two</td></tr></table></div>
<div style="width: 600px"><button style="width: 40px; white-space: nowrap; overflow: hidden">A long label</button></div>"""


def test_a_tidy_page_has_no_problem(page_at):
    page = page_at(390, 844)
    page.set_content(TIDY)
    assert measure(page) == []


def test_each_broken_rule_is_reported(page_at):
    page = page_at(390, 844)
    page.set_content(BROKEN)
    problems = "\n".join(measure(page))
    assert "the header is on more than one line" in problems
    assert "page is 608px wide in a 390px window" in problems
    assert 'cell "two" is hidden by' in problems
    assert 'control "A long label" is clipped' in problems
