"""The app's answers to what a route raises: a damaged match, a full disk, a request FastAPI cannot read,
an address or a method no route takes.

Each is one sentence in the request's language: a page to a browser's navigation or form post, JSON under the
APIs and to any other client (`refusals.wants_page`); never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect

from scoutlab.web.context import error, gettext_of, web_context
from scoutlab.web.refusals import wants_page
from scoutlab.web.store import MatchDamaged, StorageFull

log = logging.getLogger("scoutlab.web")


def refused(request: Request, status: int, message: str) -> Response:
    """The sentence as a page to a browser's navigation or form post, else as JSON."""
    if wants_page(request):
        return web_context(request).page(request, "message.html", status, message=message)
    return error(status, message)


def match_damaged(request: Request, exc: Exception) -> Response:
    # Only this match: the others in the file are read on their own and go on. Why is for whoever runs the
    # server (the engine's and the database's English, a bot's name); the player reads one sentence.
    log.warning("%s: this match cannot be restored: %s", request.url.path, exc)
    _ = gettext_of(request)
    return refused(request, 503, _("This match cannot be restored: the server's copy of it is damaged."))


def storage_full(request: Request, exc: Exception) -> Response:
    _ = gettext_of(request)
    return refused(request, 503, _("The server could not store this: its disk is full or unavailable. Nothing was changed; try again later."))


def http_refusal(request: Request, exc: Exception) -> Response:
    """The framework's own refusals (no such address, a method an address does not take, a form it cannot parse),
    said as the app's own are, where Starlette would answer `{"detail": "Not Found"}` in English."""
    assert isinstance(exc, HTTPException)
    _ = gettext_of(request)
    if exc.status_code == 404:
        message = _("There is no page at this address.")
    elif exc.status_code == 405:
        message = _("This address does not answer that kind of request.")
    else:
        message = _("The request is not one this server understands.")
    answer = refused(request, exc.status_code, message)
    answer.headers.update(exc.headers or {})  # a 405's Allow
    return answer


def bad_request(request: Request, exc: Exception) -> Response:
    # FastAPI's own answer would quote the input back; one sentence instead.
    _ = gettext_of(request)
    return error(400, _("The request is not one this server understands."))


def client_gone(request: Request, exc: Exception) -> Response:
    # The client hung up mid-body: nobody reads the answer, and a traceback in the log for each would let any
    # client fill it.
    return Response(status_code=400)


#: What the app answers for each exception a route lets out (added by create_app).
HANDLERS: dict[type[Exception], Callable[[Request, Exception], Response]] = {
    MatchDamaged: match_damaged,
    StorageFull: storage_full,
    RequestValidationError: bad_request,
    HTTPException: http_refusal,
    ClientDisconnect: client_gone,
}
