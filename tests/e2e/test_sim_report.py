"""The simulator's HTML report as a reader sees it in Chromium: findings on top, charts at full width, links that land."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoutlab.cli import main

SIZES = [(1366, 768), (390, 844)]


@pytest.fixture(scope="module")
def report_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    code = main(["compare", "official", "two-player", "house-wrap", "--games", "30", "--workers", "1",
                 "--strong", "greedy", "--weak", "random", "--advantage-games", "10", "--report", str(path)])
    assert code == 0
    return path


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_report_reads_top_down_with_full_width_charts(page_at, report_file, width, height, tmp_path):
    page = page_at(width, height)
    page.goto(report_file.as_uri())
    headings = page.locator("h2").all_inner_texts()
    assert headings[:2] == ["Findings", "Every metric"] and "Charts" in headings and "Definitions" in headings
    content = page.evaluate("document.querySelector('figure').getBoundingClientRect().width")
    for img in page.locator("figure img").all():
        assert img.bounding_box()["width"] == pytest.approx(content, abs=3)  # every chart as wide as the text
    # The page itself never scrolls sideways: the wide table scrolls inside its own box.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(tmp_path / f"report-{width}.png"), full_page=False)


def test_every_metric_link_lands_on_its_definition(page_at, report_file):
    page = page_at(1366)
    page.goto(report_file.as_uri())
    targets = set(page.eval_on_selector_all("a[href^='#def-']", "links => links.map(a => a.getAttribute('href'))"))
    assert "#def-skill-depth" in targets and "#def-how-rounds-end" in targets
    for target in targets:
        assert page.locator(target).count() == 1, f"{target} has no definition on the page"
    page.click("a[href='#def-skill-depth']")
    assert page.evaluate("location.hash") == "#def-skill-depth"
    assert page.locator("#def-skill-depth").is_visible()
