"""A secret key shown once and kept only as its hash: a member's API token
(accounts.models.ApiToken) and a live table's link (live.models.LiveLink). A model mixes
SecretKeyed in beside its own key_hash and key_start fields and names its PREFIX, so a key
says what it opens and a leaked one is easy to tell (and to scan for)."""

from __future__ import annotations

import hashlib
import secrets
from typing import ClassVar

# The first characters kept in the clear, so their owner can tell their keys apart.
SHOWN_START = 10


class SecretKeyed:
    PREFIX: ClassVar[str]
    key_hash: str
    key_start: str

    @classmethod
    def new_key(cls) -> str:
        return cls.PREFIX + secrets.token_urlsafe(32)

    @staticmethod
    def hash_key(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    def set_key(self, key: str) -> None:
        self.key_hash = self.hash_key(key)
        self.key_start = key[:SHOWN_START]
