"""Compiled rules shared by every match of the same variant document, found by the document's SHA-256.

Compiling is the costly step of starting a match, and a compiled Rules can be large:
its action tables grow with the square of the deck (a pasted 435-card deck compiles to
about 30 MB). So each distinct document is compiled once and kept by its digest (the
key is 32 bytes, not the document), and the cache holds at most `budget` estimated
bytes of rules, dropping the least recently used; a live match keeps its own rules
alive regardless, and the live-match budget counts them (see matches.py).
"""

from __future__ import annotations

import hashlib
import json
import threading
import weakref
from collections import OrderedDict

from scoutlab.rules import Rules
from scoutlab.spec.variant import load_spec_text

#: Estimated bytes of a compiled Rules besides its action tables (plugins, decks, hooks).
RULES_BASE_BYTES = 60_000
#: Estimated bytes per (hand width)^2 of the action tables (legal.Layout's lists of ints), measured with tracemalloc.
BYTES_PER_WIDTH_SQUARED = 170  # 198 at width 45, 163 at width 190


def digest_of(doc: dict) -> str:
    """The SHA-256 of a merged document, key order kept (summaries list configurations as written)."""
    return hashlib.sha256(json.dumps(doc).encode()).hexdigest()


def rules_weight(rules: Rules) -> int:
    """Estimated memory of compiled rules in bytes (a model, not a measurement: see BYTES_PER_WIDTH_SQUARED)."""
    return RULES_BASE_BYTES + BYTES_PER_WIDTH_SQUARED * rules.codec.width**2


class RulesCache:
    """Digest -> compiled Rules, least recently used dropped beyond `budget` estimated bytes."""

    def __init__(self, budget: int = 256 * 2**20):
        self.budget = budget
        self._rules: OrderedDict[str, Rules] = OrderedDict()
        # Rules the cache has dropped but a live match still holds: shared, never compiled twice.
        self._alive: weakref.WeakValueDictionary[str, Rules] = weakref.WeakValueDictionary()
        self._weight = 0
        self._lock = threading.Lock()

    def get(self, doc: dict) -> Rules:
        """The compiled rules of a merged document: cached, or compiled now (SpecError if they do not compile)."""
        key = digest_of(doc)
        with self._lock:
            rules = self._rules.get(key)
            if rules is not None:
                self._rules.move_to_end(key)
                return rules
            rules = self._alive.get(key)
            if rules is not None:
                self._keep(key, rules)
                return rules
        # Compiled outside the lock: a big spec must not hold up matches of other variants.
        rules = Rules(load_spec_text(json.dumps(doc), f"{doc['name']}.yaml"))
        with self._lock:
            if key not in self._rules:  # two threads compiled the same document at once: the first one stays
                self._keep(key, self._alive.get(key) or rules)
            return self._rules[key]

    def _keep(self, key: str, rules: Rules) -> None:
        """Hold `rules` (the caller holds the lock), dropping the least recently used beyond the budget."""
        self._rules[key] = rules
        self._alive[key] = rules
        self._weight += rules_weight(rules)
        while self._weight > self.budget and len(self._rules) > 1:
            _old_key, old = self._rules.popitem(last=False)
            self._weight -= rules_weight(old)

    @property
    def weight(self) -> int:
        """Estimated bytes of the rules the cache holds."""
        return self._weight

    def __len__(self) -> int:
        return len(self._rules)
