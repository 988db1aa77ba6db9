"""Keeping the message catalogs in step with the code (needs Babel, from the `web` extra).

    python -m scoutlab.text.i18n_tools extract   # scan core/ (Python and the web templates) into locale/scoutlab.pot
    python -m scoutlab.text.i18n_tools update    # merge the template into every language's .po (new strings come in empty)
    python -m scoutlab.text.i18n_tools check     # list every missing, empty, fuzzy or mistranslated entry; exit 1 if any
                                                 # (Persian: also each word lacking a zero-width non-joiner)

Strings are marked with `_("...")` (or `N_` where they are defined and translated later);
templates call `_()` the same way. A message with a count is marked
`ngettext("{count} card", "{count} cards", n, _, count=n)` and extracted as a plural entry
(msgid_plural, one msgstr[i] per plural form of the language). See docs/i18n.md.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from scoutlab.host.manager import make_manager
from scoutlab.text.i18n import DEFAULT, DOMAIN, LANGUAGES, PLURAL_FORMS
from scoutlab.text.persian_spacing import problems as spacing
from scoutlab.text.summary import MESSAGES, PLURALS

PACKAGE = Path(__file__).resolve().parent.parent  # core/, every module of the package is scanned
LOCALE = Path(__file__).resolve().parent / "locale"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "N_plural": (1, 2)}  # ngettext(singular, plural, n, _, **values)
_FIELD = re.compile(r"\{\w+(?::[^{}]*)?\}")  # a whole field, format spec included: {points:+d}


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract():
    """A Babel catalog of every marked string in the package's Python files and web templates."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="scoutlab", domain=DOMAIN, charset="utf-8")
    method_map = [("web/templates/**.html", "jinja2"), ("**.py", "python")]
    options = {"web/templates/**.html": {"extensions": ""}}
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE), method_map, options, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    # The rules summary keeps its English in one dict, and end conditions describe themselves.
    for key, english in MESSAGES.items():
        message = (PLURALS[key][0], english) if key in PLURALS else english
        catalog.add(message, None, [("summary.py", 0)], auto_comments=[f"scoutlab.text.summary.MESSAGES[{key!r}]"])
    for conditions in make_manager([]).hook.scoutlab_end_conditions():
        for name, condition in (conditions or {}).items():
            catalog.add(condition.description, None, [("builtin.py", 0)], auto_comments=[f"end condition {name}"])
    return catalog


def write(catalog, path: Path) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        write_po(out, catalog, width=100, sort_output=True, omit_header=False)


def read(path: Path, lang: str | None = None):
    from babel.messages.pofile import read_po

    with open(path, "rb") as src:
        return read_po(src, locale=lang, domain=DOMAIN)


def update() -> None:
    """Merge the template into each language's catalog; new strings arrive untranslated."""
    from babel.messages.catalog import Catalog

    template = read(TEMPLATE)
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = po_path(lang)
        catalog = read(path, lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN, project="scoutlab")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()  # removed strings go, rather than piling up as comments
        write(catalog, path)


def problems(template=None) -> list[str]:
    """Everything wrong with the catalogs against the template: one readable line each."""
    template = template or read(TEMPLATE)
    wanted = {m.id for m in template if m.id}
    found = []
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = po_path(lang)
        if not path.exists():
            found.append(f"{lang}: no catalog at {path}")
            continue
        catalog = read(path, lang)
        header, _rule = PLURAL_FORMS[lang]
        if " ".join(catalog.plural_forms.split()) != header:
            found.append(f"{lang}: the catalog's Plural-Forms is {catalog.plural_forms!r}, not {header!r}")
        have = {m.id: m for m in catalog if m.id}
        for msgid in sorted(wanted - set(have), key=str):
            found.append(f"{lang}: missing {msgid!r}")
        for msgid in sorted(wanted & set(have), key=str):
            message = have[msgid]
            if isinstance(msgid, tuple) != isinstance(message.string, tuple):
                found.append(f"{lang}: {msgid!r} is {'a plural' if isinstance(msgid, tuple) else 'not a plural'} entry in the template (run update)")
            elif not all(_strings(message.string)):
                found.append(f"{lang}: untranslated {msgid!r}")
            elif message.fuzzy:
                found.append(f"{lang}: fuzzy {msgid!r}")
            elif isinstance(msgid, tuple):
                found += _plural_problems(lang, msgid, message.string, catalog.num_plurals)
            elif sorted(_FIELD.findall(msgid)) != sorted(_FIELD.findall(message.string)):
                found.append(f"{lang}: the fields of {msgid!r} differ in the translation {message.string!r}")
            if lang == "fa" and all(_strings(message.string)):
                found += [f"fa: {word} lacks a zero-width non-joiner, in {msgid!r}"
                          for text in _strings(message.string) for word in spacing(text)]
        for msgid in sorted(set(have) - wanted, key=str):
            found.append(f"{lang}: {msgid!r} is no longer used (run update)")
    return found


def _strings(string) -> tuple[str, ...]:
    return tuple(string) if isinstance(string, tuple) else (string,)


def _plural_problems(lang: str, msgid: tuple[str, str], forms: tuple[str, ...], nplurals: int) -> list[str]:
    """A plural entry needs every form of its language; each form keeps the plural's fields, but may leave out
    one of them (the count, when a form says the number in words: Arabic's "بطاقتان", two cards)."""
    found = []
    if len(forms) != nplurals:
        found.append(f"{lang}: {msgid[0]!r} has {len(forms)} plural forms, not {nplurals}")
    fields = set(_FIELD.findall(msgid[1]))
    for index, form in enumerate(forms):
        have = set(_FIELD.findall(form))
        if not have <= fields or len(fields - have) > 1:
            found.append(f"{lang}: the fields of {msgid[0]!r} differ in plural form {index}, {form!r}")
    return found


def main(argv: list[str] | None = None) -> int:
    command = (argv or sys.argv[1:] or ["check"])[0]
    if command == "extract":
        write(extract(), TEMPLATE)
        print(f"wrote {TEMPLATE}")
    elif command == "update":
        update()
        print("updated " + ", ".join(str(po_path(lang)) for lang in LANGUAGES if lang != DEFAULT))
    elif command == "check":
        found = problems()
        print("\n".join(found) or "every catalog is complete")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
