"""The online tests' read of a game's table: a game they made, so it must be there."""

from games.online.table import Table, online_table


def table_of(game_id: int) -> Table:
    found = online_table(game_id)
    assert found is not None, f"no online game {game_id}"
    return found
