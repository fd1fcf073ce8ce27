"""The rules engines: pure Python, no Django. A game's state is a fold over its events."""

from games.rules.club import ClubGame
from games.rules.errors import ProtocolError, RuleViolation

__all__ = ["ClubGame", "ProtocolError", "RuleViolation"]
