"""Leagues of clubs, their series of tournaments, and the platform's rating across clubs
(#41, item 7): the one room that reads every club on purpose (the `all_clubs` managers)."""
