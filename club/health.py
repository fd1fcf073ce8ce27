"""Readiness checks for /healthz: can we reach the database and the Celery broker?"""

from django.db import connection

from club.celery import app as celery_app


def database_problem() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure means "not ready", whatever its kind
        return f"{type(error).__name__}: {error}"[:300]
    return None


def broker_problem() -> str | None:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception as error:
        return f"{type(error).__name__}: {error}"[:300]
    return None
