"""Where Persian text needs a zero-width non-joiner (U+200C) and has none: the common patterns.

Persian writes some word parts apart but without a space: the prefix of a verb
(می‌دهد, نمی‌تواند), the plural suffix (کارت‌ها, کارت‌های), an ending after a
final ه or ی (گونه‌ای, بازی‌ای, وارونه‌اش), the comparative (قوی‌تر) and some
compounds (شکست‌خورده, هیچ‌کس, انتخاب‌شده). Without the non-joiner the letters join and the word reads
wrong (میدهد, کارتهای). `problems(text)` lists each word that matches one of these
patterns; `python -m scoutlab.i18n_tools check` and tests/test_i18n.py run it over
the Persian catalog and the variants' Persian titles and descriptions.
"""

from __future__ import annotations

import re

ZWNJ = "\u200c"
#: Letters that never join the next one: after them no non-joiner is needed.
NON_JOINING = "اآأإدذرزژوؤ"
#: Letters that join the next one (ه and ی included): after them a suffix needs the non-joiner.
_JOINING = "[بپتثجچحخسشصضطظعغفقکگلمنهیئكيةـ]"

#: Real words that only look like one of the patterns.
WORDS = {
    # starting with می / نمی but no verb prefix
    "میز", "میان", "میانه", "میانی", "میانگین", "میدان", "میل", "میلیون", "میوه", "میهمان", "میزبان", "میزبانی", "میزان", "میراث", "میخ",
    # ending in ها but no plural
    "تنها", "تنهایی", "بها", "نهایی", "نهایت", "رها", "فقها",
    # ending in تر / ترین as part of the word
    "بیشتر", "بیشترین", "کمتر", "کمترین", "بهتر", "بهترین", "دختر", "دفتر", "کبوتر", "چتر", "انگشتر", "بستر", "شتر", "اختر", "گسترش",
    # ending in شده / گذاری but no compound
    "نشده",
}

#: Compounds written as one word where they need the non-joiner, with their right spelling.
COMPOUNDS = {
    "هیچکس": "هیچ‌کس", "هیچکدام": "هیچ‌کدام", "همانجا": "همان‌جا", "همینجا": "همین‌جا",
    "همانطور": "همان‌طور", "همینطور": "همین‌طور", "همعدد": "هم‌عدد", "ثبتنام": "ثبت‌نام",
    "جابهجا": "جابه‌جا", "باقیمانده": "باقی‌مانده", "تکتک": "تک‌تک", "ردهبندی": "رده‌بندی",
}

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("verb prefix می/نمی", re.compile(r"^(?:ن?می)(?=[\u0600-\u06ff])")),
    ("verb prefix می after بر/در/باز", re.compile(r"^(?:بر|در|باز|فرا|فرو)ن?می(?=[\u0600-\u06ff])")),
    ("plural ها/های", re.compile(_JOINING + r"ها(?:ی|یی|یش|یم|یت|یمان|یتان|یشان)?$")),
    ("ending after ه", re.compile(_JOINING + r"ه(?:ای|اش|ام|ات|ایم|اید|اند|ایی)$")),
    # A past participle's ending (کرده‌اید, شده‌اند): ه joins the ending even after د.
    ("ending after a participle", re.compile(r"[\u0600-\u06ff]ده(?:اید|ایم|اند|ام)$")),
    ("ending after ی", re.compile(r"[\u0600-\u06ff]یای$")),
    ("comparative تر/ترین", re.compile(_JOINING + r"(?:تر|ترین|ترش)$")),
    ("compound ...خورده", re.compile(_JOINING + r"خورده$")),
    ("participle ...شده/کننده/گذاری", re.compile(_JOINING + r"(?:شده|کننده|گذاری)ٔ?$")),
)

_WORD = re.compile(r"[\u0600-\u06ff\u200c]+")


def problems(text: str) -> list[str]:
    """`word (pattern)` for every word of `text` that needs a non-joiner it lacks."""
    found = []
    for word in _WORD.findall(text):
        for part in word.split(ZWNJ):  # each piece between non-joiners is checked on its own
            part = part.strip("\u060c\u061b\u061f")  # Persian comma, semicolon, question mark
            if not part or part in WORDS:
                continue
            if part.rstrip("\u0654") in COMPOUNDS:  # with or without the ezafe mark ٔ
                found.append(f"{word} (compound, written {COMPOUNDS[part.rstrip(chr(0x654))]})")
                continue
            for name, pattern in PATTERNS:
                if pattern.search(part) and not (name.startswith("verb") and part in ("می", "نمی")):
                    found.append(f"{word} ({name})")
                    break
    return found
