"""The worker's numpy runs its BLAS (OpenBLAS, inside numpy's wheel) on one thread: the
worker's processes are its parallelism, and on a busy 2-core worker two BLAS threads per
process made a small matrix product ten times slower. The Celery app sets
OPENBLAS_NUM_THREADS before anything imports numpy (club/celery.py); an operator's own
value wins."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
# What `celery -A club worker` does in a fresh process: find the app (importing `club`),
# load every app's tasks (numpy comes with the recordings'), then ask OpenBLAS itself how
# many threads it runs (numpy's wheel names its OpenBLAS symbols with a scipy_ prefix).
WORKER_START = """
import ctypes, glob, os
from celery.app.utils import find_app
app = find_app("club")
app.loader.import_default_modules()
import numpy
folder = os.path.join(os.path.dirname(numpy.__file__), os.pardir, "numpy.libs")
(library,) = glob.glob(os.path.join(folder, "libscipy_openblas*"))
blas = ctypes.CDLL(library)
print(os.environ.get("OPENBLAS_NUM_THREADS", "unset"), blas.scipy_openblas_get_num_threads64_())
"""


def started(**variables: str) -> str:
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    # The project's root is put on the path by name: an environment with PYTHONSAFEPATH set
    # (or any other way `-c` leaves the working directory off sys.path) must not hide `club`.
    path = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    # Celery's Django fix-up runs the model checks, which open the database: the test's own,
    # since the one DATABASE_URL names need not exist (on a fresh CI machine it does not).
    database = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + connection.settings_dict["NAME"]
    env.update(
        DJANGO_SETTINGS_MODULE="club.settings", PYTHONPATH=path, DATABASE_URL=database, **variables
    )
    done = subprocess.run(
        [sys.executable, "-c", WORKER_START],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr  # what broke the worker's start, when it did
    return done.stdout.split("\n")[-2]  # the last line: what the worker's BLAS runs


@pytest.mark.django_db
@pytest.mark.parametrize(("given", "runs"), [({}, "1 1"), ({"OPENBLAS_NUM_THREADS": "2"}, "2 2")])
def test_a_worker_process_runs_blas_on_one_thread_unless_told_otherwise(
    given: dict[str, str], runs: str
) -> None:
    assert started(**given) == runs
