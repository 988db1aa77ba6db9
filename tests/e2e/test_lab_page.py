"""The variant lab in Chromium, the whole path a designer takes, at 1366x768 and 390x844:

open the lab (it starts from the official rules), change a knob in the form and see the YAML change,
type a bad value and see `LINE: $.path: message`, start a long comparison, see its progress, reload
mid-run and find it again, cancel it; run a small comparison, read its findings and charts, download
its per-game data; click Play and land on a table playing the variant. At each step the page is
measured (nothing wider than the window, no control clipped or on two lines, the header on one
line) and checked by axe-core; the Arabic page is measured too (right to left).
Screenshots: artifacts/screenshots/lab-*.png.
"""

from __future__ import annotations

import io

import pytest
from driver import screenshot
from seen import AXE, axe_violations, header_problems

from scoutlab.text.i18n import gettext_for
from scoutlab.web.lab_spec import BUILTIN_END_CONDITIONS, KNOBS, PLUGIN_LABELS, condition_label, offered_plugins

SIZES = [(1366, 768), (390, 844)]

# Runs in the page: nothing wider than the window, no visible control or label clipped, no button on two lines.
LAB_MEASURE = """() => {
  const problems = [];
  const vw = innerWidth;
  const doc = document.documentElement;
  if (doc.scrollWidth > vw) problems.push(`page is ${doc.scrollWidth}px wide in a ${vw}px window`);
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const name = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${(e.textContent || e.value || '').trim().slice(0, 30)}"`;
  for (const e of document.querySelectorAll('#lab button, #lab select, #lab input, #lab label, #lab summary, #lab h1, #lab h2, #lab h3, #lab a, #lab progress, #lab textarea, #lab td')) {
    if (!visible(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.left < -1 || r.right > vw + 1) problems.push(`${name(e)} reaches out of the window: ${Math.round(r.left)} to ${Math.round(r.right)}`);
    if (e.tagName !== 'TEXTAREA' && e.tagName !== 'TD' && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible' && e.clientWidth)
      problems.push(`${name(e)} is clipped: ${e.scrollWidth}px of text in ${e.clientWidth}px`);
    if (e.tagName === 'BUTTON' && !e.classList.contains('lab-line')) {
      const range = document.createRange();
      range.selectNodeContents(e);
      const lines = new Set([...range.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
      if (lines.size > 1) problems.push(`the button ${name(e)} is on ${lines.size} lines`);
    }
  }
  for (const box of document.querySelectorAll('#lab .panel'))
    if (box.scrollWidth > box.clientWidth + 1) problems.push(`${box.className} overflows sideways by ${box.scrollWidth - box.clientWidth}px`);
  return problems;
}"""


def look(page, name: str) -> None:
    """Screenshot, then fail on anything wider than the window, clipped or wrapped, and on axe-core's serious findings."""
    screenshot(page, name)
    problems = page.evaluate(LAB_MEASURE)
    page.evaluate("scrollTo(0, 0)")  # the header is measured where a reader finds it, at the top
    problems += header_problems(page)
    assert problems == [], name
    if AXE.exists():
        assert axe_violations(page) == [], name


def status(page) -> str:
    return page.locator("#lab-status").inner_text()


def wait_valid(page) -> None:
    page.wait_for_function("() => document.querySelector('#lab-status').classList.contains('good')", timeout=30_000)


def context_for(browser, width: int, height: int):
    phone = width < 700
    return browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone, accept_downloads=True)


def watched_page(context):
    """A new page and the list its script errors and CSP refusals are written to (the tests assert it stays empty)."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: "Content Security Policy" in message.text and errors.append(message.text))
    page.set_default_timeout(30_000)
    return page, errors


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_designer_writes_measures_and_plays_a_house_rule(server, browser, size, tmp_path):
    width, height = size
    context = context_for(browser, width, height)
    page, errors = watched_page(context)
    tag = f"lab-{width}"
    page.goto(f"{server}/?lang=en")
    page.click("a[href='/lab']")  # the start page's link
    page.wait_for_url("**/lab")
    wait_valid(page)
    assert "extends: official" in page.input_value("#lab-text")
    assert page.locator("#lab-diff-none").is_visible()  # a fresh house rule changes nothing yet
    look(page, f"{tag}-1-start")

    # A knob changed in the form is written into the YAML and shows in the diff against the parent.
    chips = page.locator("input[data-path='scoring.chip_received']")
    chips.fill("2")
    chips.press("Tab")
    page.wait_for_function("() => document.querySelector('#lab-text').value.includes('chip_received: 2')")
    page.wait_for_function("() => document.querySelector('#lab-diff tbody').textContent.includes('$.scoring.chip_received')")
    assert page.locator("#lab-diff tbody tr").count() == 1
    text = page.input_value("#lab-text")

    # A bad value typed into the YAML: the problem as `scoutlab validate` words it, with its line.
    line = text.split("\n").index(next(row for row in text.split("\n") if "chip_received" in row)) + 1
    page.fill("#lab-text", text.replace("chip_received: 2", "chip_received: two"))
    problem = page.locator("#lab-problems li").first
    problem.wait_for()
    assert problem.inner_text().startswith(f"{line}: $.scoring.chip_received: expected a whole number, got the string 'two'")
    assert page.is_disabled("#lab-run-button")
    look(page, f"{tag}-2-problem")
    page.fill("#lab-text", text)
    wait_valid(page)

    # A long comparison: progress, a reload that finds it again, and a cancel that stops it.
    page.fill("#lab-games", "2000")
    page.click("#lab-run-button")
    page.wait_for_function("() => /job=/.test(location.search) && document.querySelector('#lab-progress').value > 0", timeout=90_000)
    job_id = page.evaluate("new URL(location.href).searchParams.get('job')")
    assert page.locator("#lab-job-status").inner_text().startswith("Games played: ")
    assert page.is_disabled("#lab-run-button")  # one run per page at a time
    look(page, f"{tag}-3-running")
    page.reload()
    page.wait_for_function("() => document.querySelector('#lab-progress').value > 0 && !document.querySelector('#lab-cancel').hidden")
    assert page.evaluate("new URL(location.href).searchParams.get('job')") == job_id
    assert "chip_received: 2" in page.input_value("#lab-text")  # the run's own variant, back in the editor
    page.click("#lab-cancel")
    page.wait_for_function("() => document.querySelector('#lab-job-status').textContent.startsWith('Cancelled')")
    assert page.request.get(f"{server}/lab/api/jobs/{job_id}").json()["state"] == "cancelled"
    assert page.is_enabled("#lab-run-button")

    # A small comparison to the end: findings with intervals, charts, and the per-game data to download.
    page.fill("#lab-games", "8")
    page.click("#lab-run-button")
    page.wait_for_function("() => document.querySelector('#lab-job-status').textContent.startsWith('Finished')", timeout=120_000)
    findings = page.locator("#lab-findings li").all_inner_texts()
    assert any("[" in line and "my-official" in line for line in findings), findings
    page.wait_for_function("() => [...document.querySelectorAll('#lab-charts img')].every((img) => img.complete && img.naturalWidth > 0)")
    assert page.locator("#lab-charts img").count() >= 3
    with page.expect_download() as caught:
        page.click("#lab-files a[href$='games.csv']")
    saved = tmp_path / f"games-{width}.csv"
    caught.value.save_as(saved)
    assert saved.read_text(encoding="utf-8").startswith("variant,spec,players,game,game_seed,kind,seat,bot,score,won")
    assert any(line.startswith("Caveat: the skilled bots of my-official") for line in findings), findings  # untuned
    look(page, f"{tag}-4-findings")

    # The same comparison with the bots fitted to the variant first: the tuning's progress, then its finding.
    page.check("#lab-tune")
    page.click("#lab-run-button")
    page.wait_for_function("() => document.querySelector('#lab-job-status').textContent"
                           ".startsWith('Fitting the bots to the variant first. Games played: ')", timeout=90_000)
    page.wait_for_function("() => document.querySelector('#lab-job-status').textContent.startsWith('Finished')", timeout=180_000)
    findings = page.locator("#lab-findings li").all_inner_texts()
    assert findings[0].startswith("Fitted first: a quick tuning of the skilled bots of my-official at 3 players"), findings
    assert not any(line.startswith("Caveat: the skilled bots of") for line in findings), findings
    look(page, f"{tag}-4-fitted")
    page.uncheck("#lab-tune")

    # One click: a table playing this variant against bots.
    page.click("#lab-play-button")
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#keep:not([hidden]), #show:not([hidden])")
    token = page.url.rsplit("/", 1)[1]
    rules = page.request.get(f"{server}/m/{token}/rules?lang=en").text()
    assert "my-official" in rules
    screenshot(page, f"{tag}-5-table")
    assert not errors, errors
    context.close()


# Runs in the page: each end condition and plugin the form offers, [its YAML key, the words shown, the key's lang and dir].
OPTIONS = """() => [...document.querySelectorAll('.lab-set[data-kind=conditions] label, .lab-set[data-kind=plugins] label')].map((o) => {
  const key = o.querySelector('.lab-key'), words = o.cloneNode(true);
  words.querySelector('.lab-key')?.remove();
  return [o.querySelector('input').value, words.textContent.trim(), key && key.lang, key && key.dir];
})"""

# Runs in the page: the diff's rows as a designer reads them, [rule, its parent's value, this variant's], the YAML keys
# (secondary, marked English) left out, and the keys themselves.
DIFF_ROWS = """() => [...document.querySelectorAll('#lab-diff tbody tr')].map((tr) => [...tr.cells].map((td) => {
  const words = td.cloneNode(true);
  words.querySelectorAll('code[lang=en]').forEach((c) => c.remove());
  const items = [...words.querySelectorAll('li')];
  return items.length ? items.map((li) => li.textContent.trim()).join('\\n') : words.textContent.trim();
}).concat([[...tr.querySelectorAll('code')].map((c) => `${c.textContent} ${c.lang} ${c.dir}`).join(' ')]))"""

# Runs in the page: the problem list's boxes, relative to the list, and each item's first and last line (from the
# first and last letter drawn), to find each bullet in a screenshot of the list.
PROBLEM_BOXES = """() => {
  const list = document.querySelector('#lab-problems'), at = list.getBoundingClientRect();
  const letter = (node, i) => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1); return r.getBoundingClientRect(); };
  return {width: at.width, items: [...list.children].map((li) => {
    const texts = [], walk = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) if (walk.currentNode.textContent.trim()) texts.push(walk.currentNode);
    const first = letter(texts[0], 0), last = letter(texts.at(-1), texts.at(-1).textContent.length - 1), box = li.getBoundingClientRect();
    return {left: box.left - at.left, right: box.right - at.left, top: box.top - at.top, bottom: box.bottom - at.top,
            firstBottom: first.bottom - at.top, lastTop: last.top - at.top, text: li.textContent};
  })};
}"""


def bullets_off_their_first_line(page) -> tuple[list[str], int]:
    """(the wrapped problems whose bullet is not beside their first line, as the eye sees it, and how many wrapped):
    the bullet is the dark ink in the list's padding, beside the item."""
    image_module = pytest.importorskip("PIL.Image", reason="Pillow (with the sim extra) reads the screenshot")
    page.locator("#lab-problems").scroll_into_view_if_needed()
    image = image_module.open(io.BytesIO(page.locator("#lab-problems").screenshot())).convert("L")
    boxes = page.evaluate(PROBLEM_BOXES)
    scale = image.width / boxes["width"]
    rtl = page.get_attribute("html", "dir") == "rtl"
    off, wrapped = [], 0
    for item in boxes["items"]:
        if item["lastTop"] < item["firstBottom"] - 2:
            continue  # one line: its bullet cannot be anywhere else
        wrapped += 1
        xs = range(round(item["right"] * scale), image.width) if rtl else range(round(item["left"] * scale))
        ink = [y for y in range(round(item["top"] * scale), round(item["bottom"] * scale))
               if any(image.getpixel((x, y)) < 140 for x in xs)]
        if not ink or max(ink) > item["firstBottom"] * scale + 1:
            off.append(f"{item['text'][:40]!r}: its bullet at {ink and [min(ink), max(ink)]}, its first line ends at "
                       f"{round(item['firstBottom'] * scale)}")
    return off, wrapped


# Runs in the page: each chart caption's English, its lines' left edges against its figure's (left aligned, as
# English reads, in every page's direction).
CAPTION_EDGES = """() => [...document.querySelectorAll('#lab-charts figcaption')].map((caption) => {
  const note = [...caption.querySelectorAll('[lang=en]')].at(-1), range = document.createRange();
  range.selectNodeContents(note);
  const left = caption.getBoundingClientRect().left;
  return {lang: note.lang, direction: getComputedStyle(note).direction,
          offsets: [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.left - left))};
})"""


@pytest.mark.parametrize("lang", ["en", "ar", "fa", "el", "bg"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_lab_in_every_language_fits_and_reads_right_to_left_where_it_should(server, browser, size, lang):
    _ = gettext_for(lang)
    width, height = size
    rtl = lang in ("ar", "fa")
    context = context_for(browser, width, height)
    page = context.new_page()
    page.goto(f"{server}/lab?lang={lang}")
    wait_valid(page)
    assert page.get_attribute("html", "dir") == ("rtl" if rtl else "ltr")
    assert page.get_attribute("#lab-text", "dir") is None and page.evaluate("getComputedStyle(document.querySelector('.lab-editor')).direction") == "ltr"

    # End conditions and plugins by the words a designer reads, the YAML's key beside them marked English; the
    # engine's own rules and its do-nothing test plugin are not offered.
    options = page.evaluate(OPTIONS)
    assert [key for key, *_rest in options] == [*BUILTIN_END_CONDITIONS, *offered_plugins()]
    assert not {"builtin", "noop"} & {key for key, *_rest in options}
    shown = {key: words for key, words, *_rest in options}
    assert [shown[c] for c in BUILTIN_END_CONDITIONS] == [condition_label(c, _) for c in BUILTIN_END_CONDITIONS]
    assert all(shown[p] == _(PLUGIN_LABELS[p]) for p in PLUGIN_LABELS if p in shown), shown
    assert all(marks == ["en", "ltr"] for _key, _words, *marks in options), options

    # What the variant changes, in the form's words: each field's label, yes or no, the conditions' and plugins' words.
    start = page.input_value("#lab-text")
    page.fill("#lab-text", start + "scoring: {exempt_last_show_owner: false}\nend_conditions: [hand_emptied]\nplugins: [wrap-runs]\n")
    page.wait_for_function("() => document.querySelectorAll('#lab-diff tbody tr').length === 3", timeout=30_000)
    wait_valid(page)
    label = {k.path: _(k.label) for k in KNOBS}
    rows = page.evaluate(DIFF_ROWS)
    assert [row[:3] for row in rows] == [
        [label["scoring.exempt_last_show_owner"], _("yes"), _("no")],
        [label["end_conditions"], "\n".join(condition_label(c, _) for c in ("hand_emptied", "everyone_scouted")),
         condition_label("hand_emptied", _)],
        [label["plugins"], "—", _(PLUGIN_LABELS["wrap-runs"])],
    ], rows
    assert [row[3] for row in rows] == [f"$.{path} en ltr" for path in ("scoring.exempt_last_show_owner", "end_conditions", "plugins")]
    page.locator("#lab-diff").scroll_into_view_if_needed()
    screenshot(page, f"lab-{lang}-{width}-diff")

    # Problems in the page's direction and type, not underlined (a line through Arabic letters), each place in the
    # YAML's; no internal plugin offered; each bullet beside its problem's first line.
    page.fill("#lab-text", start + "scoring: {chip_received: two}\nplugins: [no-such-plugin, wrap-runs]\n")
    page.locator("#lab-problems li").first.wait_for()
    page.wait_for_function("() => document.querySelectorAll('#lab-problems li').length === 2")
    problems = page.locator("#lab-problems li").all_inner_texts()
    assert problems[0].startswith("5: $.scoring.chip_received: ")
    assert problems[1].startswith("6: $.plugins[0]: ") and "wrap-runs" in problems[1], problems
    assert not any("builtin" in p or "noop" in p for p in problems), problems
    looks = page.evaluate("""() => { const m = document.querySelector('#lab-problems li bdi:not(.lab-place)'),
      place = document.querySelector('#lab-problems .lab-place'), s = getComputedStyle(m);
      return [getComputedStyle(document.querySelector('#lab-problems')).direction, s.direction, /mono/.test(s.fontFamily),
              getComputedStyle(m.closest('.lab-line')).textDecorationLine, place.dir, /mono/.test(getComputedStyle(place).fontFamily)]; }""")
    page_dir = "rtl" if rtl else "ltr"
    assert looks == [page_dir, page_dir, False, "none", "ltr", True], looks
    off, wrapped = bullets_off_their_first_line(page)
    assert off == [], off
    assert wrapped or width > 700, "no problem wrapped on a phone: the bullets were not measured"
    look(page, f"lab-{lang}-{width}")

    # A tiny run to the end: its panel (progress, findings and captions in English marked as such and laid out left
    # to right, downloads, charts) fits too.
    page.fill("#lab-text", start)
    wait_valid(page)
    page.fill("#lab-games", "2")
    page.click("#lab-run-button")
    page.wait_for_function("() => !document.querySelector('#lab-results').hidden", timeout=120_000)
    assert page.get_attribute("#lab-findings", "lang") == "en" and page.locator("#lab-files a").count() >= 3
    assert page.eval_on_selector_all("#lab-findings li", "(all) => all.map((li) => getComputedStyle(li).direction)") == \
        ["ltr"] * page.locator("#lab-findings li").count()
    page.wait_for_function("() => [...document.querySelectorAll('#lab-charts img')].every((img) => img.complete && img.naturalWidth > 0)")
    captions = page.evaluate(CAPTION_EDGES)
    assert captions and all(c["lang"] == "en" and c["direction"] == "ltr" and set(c["offsets"]) == {0} for c in captions), captions
    look(page, f"lab-{lang}-{width}-run")
    context.close()


# Set in the page before a run starts: every text the run's status line shows, and the bar's value at each.
RECORD_PROGRESS = """() => {
  window.labSeen = [];
  const line = document.querySelector('#lab-job-status'), bar = document.querySelector('#lab-progress');
  new MutationObserver(() => window.labSeen.push({text: line.textContent, value: bar.value, max: bar.max}))
    .observe(line, {childList: true, characterData: true, subtree: true});
}"""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_designer_sweeps_one_knob_and_reads_its_trend_and_charts(server, browser, size):
    width, height = size
    context = context_for(browser, width, height)
    page, errors = watched_page(context)
    tag = f"lab-sweep-{width}"
    page.goto(f"{server}/lab?lang=en")
    wait_valid(page)

    # The sweep's own fields replace the comparison's: the field to sweep and its values.
    assert page.locator("#lab-knob-field").is_hidden()
    page.check("#lab-run-form input[name=kind][value=sweep]")
    assert page.locator("#lab-knob-field").is_visible() and page.locator("#lab-values-field").is_visible()
    assert page.locator("#lab-against-field").is_hidden() and page.locator("#lab-tune-field").is_hidden()
    page.select_option("#lab-knob", "scoring.chip_received")
    page.fill("#lab-values", "0, 1, 2")
    page.fill("#lab-games", "30")
    look(page, f"{tag}-1-form")

    page.evaluate(RECORD_PROGRESS)
    page.click("#lab-run-button")
    page.wait_for_function("() => document.querySelector('#lab-job-status').textContent.startsWith('Finished')", timeout=120_000)
    job_id = page.evaluate("new URL(location.href).searchParams.get('job')")
    job = page.request.get(f"{server}/lab/api/jobs/{job_id}").json()
    assert job["state"] == "finished" and job["ask"]["kind"] == "sweep" and job["ask"]["values"] == "0, 1, 2", job
    # Its progress as the page showed it: games played, of the run's games, the bar following.
    seen = page.evaluate("window.labSeen")
    playing = [s for s in seen if s["text"].startswith("Games played: ")]
    assert playing, seen
    assert all(s["text"] == f"Games played: {s['value']} of {s['max']}." and s["max"] == job["total"] for s in playing), playing
    assert [s["value"] for s in playing] == sorted(s["value"] for s in playing)  # it only moves forward
    assert page.evaluate("document.querySelector('#lab-progress').value") == job["total"]

    # The findings lead with the sweep's trend in the swept field; its chart across the sweep loads with the others.
    findings = page.locator("#lab-findings li").all_inner_texts()
    trends = [line for line in findings if line.startswith("Each +1 in scoring.chip_received:")
              or " is not a straight line in scoring.chip_received:" in line]
    assert trends and findings[0] in trends, findings
    page.wait_for_function("() => [...document.querySelectorAll('#lab-charts img')].every((img) => img.complete && img.naturalWidth > 0)")
    titles = page.locator("#lab-charts figcaption strong").all_inner_texts()
    assert any(title.endswith("across the sweep") for title in titles), titles
    assert page.locator("#lab-charts img").count() == len(titles) == len(job["charts"])
    links = page.eval_on_selector_all("#lab-charts figure > a", "(all) => all.map((a) => a.href === a.querySelector('img').src)")
    assert links == [True] * len(titles)  # each chart opens full size, its words being tiny on a phone
    assert page.locator("#lab-files a[href$='games.csv']").count() == 1
    page.locator("#lab-findings").scroll_into_view_if_needed()
    look(page, f"{tag}-2-findings")
    assert not errors, errors
    context.close()
