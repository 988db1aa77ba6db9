"""The page's scripts run under the server's Content-Security-Policy (no inline script): the language menu,
moved from an inline onchange handler into static/lang.js, still changes the language."""

from __future__ import annotations


def test_the_language_menu_works_under_the_csp(server, page_at):
    page = page_at(1366, 768)
    answer = page.goto(f"{server}/?lang=en")
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    with page.expect_navigation():
        page.select_option("#lang", "bg")
    assert page.get_attribute("html", "lang") == "bg"
