"""Where a served match's cards come from: a secret drawn from the operating system, never a guessable number.

A match is dealt by `random.Random(seed)`. With a small seed a player's own hand is
enough to find the seed by trying them all (a 31-bit seed took a minute of C code),
and with it every other hand. So a served match draws 128 bits from `secrets`, which
no search can cover, and each bot's stream is derived from that secret by SHA-256,
so a bot's choices say nothing usable about the deal or about another bot. The
Mersenne Twister behind `random.Random` is predictable only from about 20,000
consecutive output bits; a player sees a few hundred bits of shuffle results per
match, filtered through rejection sampling, so the seed is the only way in.

A chosen seed is allowed only for practice matches, which the page labels as such.
"""

from __future__ import annotations

import hashlib
import secrets

#: Bits of operating-system randomness behind each served deal.
SEED_BITS = 128
#: A practice seed is a whole number below this (so it fits the same 128 bits).
PRACTICE_SEED_LIMIT = 2**SEED_BITS


def secret_seed() -> int:
    """A fresh deal seed from the operating system's CSPRNG: 128 bits, independent of every other match."""
    return secrets.randbits(SEED_BITS)


def bot_seed(deal_seed: int, seat: int) -> int:
    """The seed of the bot in `seat`: 128 bits of SHA-256 of the deal's seed, so it reveals nothing of it."""
    digest = hashlib.sha256(f"scoutlab bot seat {seat} of deal {deal_seed}".encode()).digest()
    return int.from_bytes(digest[:16], "big")
