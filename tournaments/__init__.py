"""Tournaments: rounds, tables, the seating generator, finals and standings (issue #29)."""
