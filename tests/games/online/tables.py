"""The online tests' read of a game's table: a game they made, so it must be there."""

from datetime import datetime

from games.online.table import Table, online_table
from games.rules.online import OnlineGame
from games.rules.online.state import Catastrophe


def table_of(game_id: int) -> Table:
    found = online_table(game_id)
    assert found is not None, f"no online game {game_id}"
    return found


def catastrophe_of(state: OnlineGame) -> Catastrophe:
    """The day's catastrophe (a tie revoted): the test has just made one."""
    assert state.catastrophe is not None, "no catastrophe on the table"
    return state.catastrophe


def deadline_of(game_id: int) -> datetime:
    """The running game's next deadline (the day's or the round's)."""
    deadline = table_of(game_id).table.deadline_at
    assert deadline is not None, "the game has no deadline running"
    return deadline
