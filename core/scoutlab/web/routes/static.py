"""What every match shares: the static files (scripts, styles) and How to play for each shipped variant."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from scoutlab.spec.variant import load_spec, shipped_variants
from scoutlab.web.context import gettext_of, language, web_context
from scoutlab.web.inputs import excerpt
from scoutlab.web.matches import rules_for
from scoutlab.web.rulespage import rules_sections, variant_words


class WholeFiles(StaticFiles):
    """The static files, always whole: they are small, and HTTP lets a server answer a Range with the whole file,
    where Starlette answered a malformed one in its own English and an unsatisfiable one with an empty 416."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k.lower() not in (b"range", b"if-range")]}
        await super().__call__(scope, receive, send)

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if "accept-ranges" in response.headers:
            del response.headers["accept-ranges"]  # no ranges are offered
        return response


router = APIRouter()
router.mount("/static", WholeFiles(directory=str(resources.files("scoutlab.web") / "static")), name="static")


@router.get("/rules/{variant}", response_class=HTMLResponse)
def rules_page(request: Request, variant: str):
    web = web_context(request)
    _ = gettext_of(request)
    if variant not in {name for name, _d in shipped_variants()}:
        return web.page(request, "message.html", 404, message=_("There is no variant called {name}.", name=excerpt(variant)[1:-1]))
    rules = rules_for(load_spec(variant))
    return web.page(request, "rules.html", rules=rules, sections=rules_sections(rules, _), words=variant_words(rules, language(request)))
