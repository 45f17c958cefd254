"""The companion keeps numpy's BLAS on one thread unless the user says otherwise: the reader's
small matrix products ran 10-20 times slower with BLAS threads on a busy machine."""

from __future__ import annotations

import os
import subprocess
import sys

SHOW = "import companion, os; print(os.environ['OPENBLAS_NUM_THREADS'])"


def blas_threads(environment: dict[str, str]) -> str:
    result = subprocess.run(
        [sys.executable, "-c", SHOW], env=environment, capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def test_blas_works_on_one_thread_by_default():
    environment = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    assert blas_threads(environment) == "1"


def test_a_users_own_setting_stands():
    assert blas_threads({**os.environ, "OPENBLAS_NUM_THREADS": "2"}) == "2"
