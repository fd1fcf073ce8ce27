"""Exports of a season, a tournament, a player's games and the whole club."""
