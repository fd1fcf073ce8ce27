"""How the PostgreSQL pool checks a connection before it hands it out.

psycopg_pool's own check replaces a dead connection, but it checks the next one only after
a back-off (1 s, then 2, 4, 8…). After a database restart every idle connection is dead, so
with eight of them idle the first request waited through 1+2+4+8+… seconds and ran out of
the pool's 20 s: a 500 for one of the first requests after every restart. One dead
connection says the server dropped them all, so this check sweeps the idle ones at once
(the pool replaces each in the background) and the request waits for one fresh connection.
"""

from typing import Any

from psycopg import Connection
from psycopg_pool import ConnectionPool


def check_pooled_connection(conn: Connection[Any]) -> None:
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        pool = getattr(conn, "_pool", None)  # set by the pool on every connection it lends
        if isinstance(pool, ConnectionPool):
            pool.check()  # the pool's own sweep: keeps the live, replaces the dead
        raise
