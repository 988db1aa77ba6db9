"""The table's message line tells good news from a refusal by a class, never by wording alone.

"This show is allowed." is a confirmation: the script marks it `is-ok`, and the style
sheet draws `is-ok` unlike the accent colour of a refused move (`is-refused`).
"""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "core" / "scoutlab" / "web" / "static"


def test_the_allowed_show_note_is_never_shown_as_a_refusal():
    script = (STATIC / "table.js").read_text()
    uses = re.findall(r"say\(([^;]*S\.legal[^;]*)\);", script)
    assert uses, "table.js shows S.legal somewhere"
    assert all('"is-ok"' in use for use in uses), uses


def test_the_style_sheet_draws_ok_unlike_a_refusal():
    css = (STATIC / "style.css").read_text()
    ok = re.search(r"\.message\.is-ok\s*\{([^}]*)\}", css)
    base = re.search(r"\.message\s*\{([^}]*)\}", css)
    assert ok and base
    colour = re.search(r"color:\s*([^;]+);", ok.group(1))
    assert colour and colour.group(1).strip() != re.search(r"color:\s*([^;]+);", base.group(1)).group(1).strip()
