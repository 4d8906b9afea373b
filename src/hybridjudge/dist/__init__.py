"""Past one machine: the checks and the judges over a Ray Dataset (the optional ``[ray]`` extra).

- :func:`check_dataset`: the deterministic checks, ``map_batches`` on one prepared checker per
  worker (each distinct context parsed once per batch).
- :func:`judge_dataset`: the judges on a pool of async judge actors sharing one cluster-wide
  rate limiter; the reply cache is the one the config selects (``cache_url="redis://..."`` for
  one cache shared by every machine).

Both take records in any accepted field-name family and return a Dataset with the results as
columns; the results are those of the single-process path for the same records. Install with
``pip install 'hybridjudge[ray]'``. Example::

    import ray
    from hybridjudge.dist import check_dataset

    ray.init()
    checked = check_dataset(ray.data.read_parquet("logs/2026-11-30/"))
    checked.filter(lambda row: not row["grounded"]).write_parquet("flagged/")
"""

from hybridjudge.dist._check import CHECK_COLUMNS, check_dataset, cluster_cpus, findings_type
from hybridjudge.dist._judge import USAGE_COLUMNS, judge_columns, judge_dataset
from hybridjudge.dist._limiter import Bucket, LimiterActor, RemoteLimiter, start_limiter

__all__ = [
    "CHECK_COLUMNS",
    "USAGE_COLUMNS",
    "Bucket",
    "LimiterActor",
    "RemoteLimiter",
    "check_dataset",
    "cluster_cpus",
    "findings_type",
    "judge_columns",
    "judge_dataset",
    "start_limiter",
]
