""""Your matches": the matches this browser started, kept in a cookie, listed on the start page.

The cookie holds only tokens (newest first, at most `KEEP`), never a match's content;
anything in it that is not a token is ignored, and a token the server no longer knows
is left out of the list. The server keeps no list of matches: a token is still the
only way to reach one.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from scoutlab.text.i18n import Gettext
from scoutlab.text.variant_text import title as variant_title
from scoutlab.web.matches import Matches
from scoutlab.web.store import StoreError

COOKIE = "scoutlab_matches"
KEEP = 8
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,40}")  # what secrets.token_urlsafe(16) makes


def remembered(request: Request) -> list[str]:
    """The tokens in the browser's cookie, newest first; malformed parts are dropped."""
    raw = request.cookies.get(COOKIE, "")[: KEEP * 48]
    tokens = [t for t in raw.split(".") if _TOKEN.fullmatch(t)]
    return list(dict.fromkeys(tokens))[:KEEP]


def remember(request: Request, response: Response, token: str) -> None:
    """Put `token` first in the browser's list of matches."""
    tokens = [token, *(t for t in remembered(request) if t != token)][:KEEP]
    response.set_cookie(COOKIE, ".".join(tokens), max_age=180 * 24 * 3600, samesite="lax", httponly=True)


def your_matches(request: Request, matches: Matches, _: Gettext, lang: str) -> list[dict[str, Any]]:
    """Each remembered match the server still has: its address, variant (its title in `lang`), round and whose move it is."""
    out = []
    for token in remembered(request):
        try:
            match = matches.get(token)
        except StoreError:  # a match that no longer replays: its own page says why
            continue
        if match is None:
            continue
        with match.lock:
            view = match.state.view(match.seat)
            if view.phase == "over":
                where = _("The match is over.")
            else:
                where = _("Round {number} of {rounds}", number=view.round + 1, rounds=view.rounds)
            out.append({
                "url": f"/m/{token}",
                "variant": variant_title(match.rules.spec.doc, lang),
                "players": view.players,
                "where": where,
                "your_turn": match.your_turn,
            })
    return out
