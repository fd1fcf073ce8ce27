from tests.games.conftest import table

__all__ = ["table"]
