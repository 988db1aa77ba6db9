"""What every match shares: the static files (scripts, styles) and How to play for each shipped variant."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from scoutlab.spec.variant import load_spec, shipped_variants
from scoutlab.web.context import gettext_of, language, web_context
from scoutlab.web.inputs import excerpt
from scoutlab.web.matches import rules_for
from scoutlab.web.rulespage import rules_sections, variant_words

router = APIRouter()
router.mount("/static", StaticFiles(directory=str(resources.files("scoutlab.web") / "static")), name="static")


@router.get("/rules/{variant}", response_class=HTMLResponse)
def rules_page(request: Request, variant: str):
    web = web_context(request)
    _ = gettext_of(request)
    if variant not in {name for name, _d in shipped_variants()}:
        return web.page(request, "message.html", 404, message=_("There is no variant called {name}.", name=excerpt(variant)[1:-1]))
    rules = rules_for(load_spec(variant))
    return web.page(request, "rules.html", rules=rules, sections=rules_sections(rules, _), words=variant_words(rules, language(request)))
