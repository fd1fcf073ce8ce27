"""The Celery application: configured from Django settings under the CELERY_ namespace.

`celery -A club worker` imports this module first (club/__init__.py loads it), before any
task's module brings numpy in: the place to limit numpy's BLAS to one thread, which
OpenBLAS reads once, when it is loaded. The worker's processes are its parallelism (one
task each); on a busy 2-core worker a BLAS of two threads per process made a small matrix
product ten times slower, its threads waiting on each other. An operator's own setting
wins; the site's processes, which load this module with Django, get the same (gunicorn's
workers are its parallelism too)."""

import os

# Before every import: celery's own could one day bring numpy in.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from celery import Celery
from celery.signals import after_task_publish, task_postrun

from club.kernel import tenancy

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")

app = Celery("club")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
tenancy.connect_celery(app)

# bench/soak.py counts the tasks queued and done across the stack's processes: with
# CLUB_TASK_LEDGER set, each process appends one line per task to that file (short appends
# to one file do not interleave).
LEDGER = os.environ.get("CLUB_TASK_LEDGER", "")


def _ledger(line: str) -> None:
    with open(LEDGER, "a", encoding="utf-8") as ledger:
        ledger.write(line + "\n")


if LEDGER:

    @after_task_publish.connect(weak=False)
    def _queued(
        sender: str | None = None, headers: dict[str, object] | None = None, **_: object
    ) -> None:
        _ledger(f"queued {(headers or {}).get('id')} {sender}")

    @task_postrun.connect(weak=False)
    def _done(task_id: str | None = None, sender: object = None, **_: object) -> None:
        _ledger(f"done {task_id} {getattr(sender, 'name', '')}")
