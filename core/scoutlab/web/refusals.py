"""What the doors say before any route runs (a Host not ours, a body too large or too slow, a write from another site).

One sentence in the request's language, as the routes answer: a small page where a browser navigates or posts a
form (it would show JSON as text), else JSON `{"error": ...}`. `wants_page` decides it for the app's own refusals too.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

from starlette.requests import Request

from scoutlab.text import i18n
from scoutlab.web.context import language


def wants_page(request: Request) -> bool:
    """Whether a refusal is a page: for a browser's navigation or form post, never under the JSON APIs."""
    return not request.url.path.startswith(("/api/", "/lab/api/")) and "text/html" in request.headers.get("accept", "")


def refusal(scope: dict[str, Any], status: int, say: Callable[[i18n.Gettext], str]) -> tuple[bytes, bytes]:
    """(body, content type) of a refusal whose sentence `say(_)` words in the request's language."""
    request = Request(scope)
    lang = language(request)
    error = say(i18n.gettext_for(lang))
    if wants_page(request):
        direction = "rtl" if i18n.is_rtl(lang) else "ltr"
        page = (f'<!doctype html><html lang="{lang}" dir="{direction}"><meta charset="utf-8">'
                f"<title>{status}</title><p>{html.escape(error)}</p></html>")
        return page.encode(), b"text/html; charset=utf-8"
    return json.dumps({"error": error}, ensure_ascii=False).encode(), b"application/json"
