"""QualityGate: stop training when the data (or the loss) goes bad.

    gate = QualityGate(validator, threshold=0.9)
    for step, batch in enumerate(loader):
        state, loss = train_step(state, batch)
        gate.check(batch, loss=loss, step=step)     # TrainingAbortError before the next checkpoint
"""
from __future__ import annotations

import collections
import math
import random
import time
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from ._fingerprint import fingerprint
from ._service import MetricsClient, QualityServiceError

__all__ = ["QualityGate", "TrainingAbortError", "QualityServiceError"]


class TrainingAbortError(RuntimeError):
    """Raised by QualityGate.check(): the batch's quality score is below the
    threshold, or the score or the loss is NaN or infinite. `reasons` lists
    why (also in the message); `score`, `loss`, `step` and `report` (the
    batch's griffin.Report when validated locally, else None) are kept."""

    def __init__(self, reasons: List[str], score: Optional[float], loss: Optional[float], step: Optional[int],
                 report: Any = None) -> None:
        where = "" if step is None else " at step %d" % step
        super().__init__("training aborted%s: %s" % (where, "; ".join(reasons)))
        self.reasons = reasons
        self.score = score
        self.loss = loss
        self.step = step
        self.report = report


def _scalar(value: Any) -> Optional[float]:
    """A loss as a Python float (a jax/numpy scalar is fetched), or None."""
    if value is None:
        return None
    return float(np.asarray(value).reshape(-1)[0]) if np.ndim(value) else float(value)


def _host(batch: Any) -> Any:
    """A dict of jax / numpy arrays as a dict of numpy arrays (no copy on CPU)."""
    if isinstance(batch, dict):
        return {name: np.asarray(value) for name, value in batch.items()}
    return batch


def _failing_checks(report: Any, limit: int = 3) -> List[str]:
    worst = sorted((c for c in report.checks if c.get("violations") and c.get("severity") == "error"),
                   key=lambda c: -c["violations"])
    return ["%s: %d of %d rows" % (c["name"], c["violations"], c["evaluated"]) for c in worst[:limit]]


def _records(batch: Any) -> List[Dict[str, Any]]:
    """The batch's rows as JSON-ready dicts; non-finite floats as the strings
    "NaN" / "inf" / "-inf" (which Griffin parses for float columns)."""
    import pyarrow as pa

    if isinstance(batch, dict):
        table = pa.table({k: np.asarray(v) for k, v in batch.items()})
    elif isinstance(batch, pa.RecordBatch):
        table = pa.Table.from_batches([batch])
    elif isinstance(batch, pa.Table):
        table = batch
    elif type(batch).__module__.split(".")[0] == "pandas":
        table = pa.Table.from_pandas(batch, preserve_index=False)
    else:
        table = pa.RecordBatchReader.from_stream(batch).read_all()
    rows = table.to_pylist()
    for row in rows:
        for key, value in row.items():
            if isinstance(value, float) and not math.isfinite(value):
                row[key] = "NaN" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return rows


class QualityGate:
    """A per-batch data-quality gate for training loops.

    QualityGate(validator=None, url=None, threshold=0.7, cache_size=4096, *,
                dataset=None, api_key=None, deadline=5.0, request_timeout=1.0,
                backoff_base=0.05, backoff_max=2.0, send_records=True)

    With `validator` (a griffin.Validator), batches are validated in process.
    With `url`, the gate asks the Griffin service (POST {url}/metrics) for the
    score instead: the batch's rows go inline as `records` (unless
    send_records=False: then only its `batch_hash`, for batches the service
    has already seen through a validate call or Arrow Flight), with the loss
    and `metrics`. Calls have a deadline and back off exponentially with full
    jitter on 429 and 5xx (see griffin.jax._service); when no answer comes in
    time, check() raises QualityServiceError (not TrainingAbortError: the data
    was not judged).

    Scores are cached by a fast content hash of the batch's buffers (XXH3 in
    C++), for up to `cache_size` batches (least recently used dropped), so a
    batch seen again (epochs, retries) costs a hash, not a validation. With
    `url`, the service is asked every step (its score includes the loss), but
    a batch already sent goes by its hash only.
    """

    def __init__(self, validator: Any = None, url: Optional[str] = None, threshold: float = 0.7,
                 cache_size: int = 4096, *, dataset: Optional[str] = None, api_key: Optional[str] = None,
                 deadline: float = 5.0, request_timeout: float = 1.0, backoff_base: float = 0.05,
                 backoff_max: float = 2.0, send_records: bool = True, rng: Optional[random.Random] = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if validator is None and url is None:
            raise ValueError("QualityGate needs a validator or a url")
        if not 0.0 <= threshold <= 1.0:
            raise ValueError("threshold: must be in [0, 1], got %r" % threshold)
        if cache_size < 0:
            raise ValueError("cache_size: must be 0 or more")
        self.validator = validator
        self.threshold = threshold
        self.cache_size = cache_size
        self.dataset = dataset or (validator.dataset if validator is not None else None)
        if url is not None and not self.dataset:
            raise ValueError("QualityGate(url=...) needs dataset= (or a validator to take it from)")
        self.send_records = send_records
        self._client = None if url is None else MetricsClient(
            url, api_key, deadline=deadline, request_timeout=request_timeout, backoff_base=backoff_base,
            backoff_max=backoff_max, rng=rng, sleep=sleep)
        self._cache: "collections.OrderedDict[bytes, Any]" = collections.OrderedDict()
        self.hits = 0
        self.misses = 0
        self.last_report: Any = None

    @property
    def client(self) -> Optional[MetricsClient]:
        return self._client

    def check(self, batch: Any, loss: Any = None, step: Optional[int] = None,
              metrics: Optional[Dict[str, float]] = None) -> float:
        """The batch's quality score in [0, 1]; raises TrainingAbortError when
        it is below the threshold, or when the score or `loss` is NaN or
        infinite. `batch`: anything Validator.validate() takes, or a dict of
        numpy or jax arrays (1-D, named as the rule file's columns)."""
        loss_value = _scalar(loss)
        reasons: List[str] = []
        if loss_value is not None and not math.isfinite(loss_value):
            reasons.append("loss is %r" % loss_value)
        host = _host(batch)
        key = fingerprint(host)
        cached = self._lookup(key) if key is not None else None
        if self._client is not None:
            # The service combines the batch's data score with this step's
            # loss, so it is asked every step; a batch it has seen goes by hash.
            score, report, remote_reasons = self._ask_service(host, key, cached is not None, loss_value, step,
                                                              metrics)
            if key is not None:
                self._store(key, True)
        elif cached is not None:
            score, report, remote_reasons = cached
        else:
            report = self.validator.validate(host)
            score, remote_reasons = report.quality_score, []
            if key is not None:
                self._store(key, (score, report, remote_reasons))
        self.last_report = report
        if not math.isfinite(score):
            reasons.append("quality_score is %r" % score)
        elif score < self.threshold:
            reasons.append("quality_score %.4f < threshold %.4g" % (score, self.threshold))
            reasons += _failing_checks(report) if report is not None else list(remote_reasons)
        if reasons:
            raise TrainingAbortError(reasons, score, loss_value, step, report)
        return score

    def _ask_service(self, batch: Any, key: Optional[bytes], seen: bool, loss: Optional[float],
                     step: Optional[int], metrics: Optional[Dict[str, float]]):
        payload: Dict[str, Any] = {"dataset": self.dataset, "step": step, "loss": loss,
                                   "metrics": dict(metrics or {})}
        if key is not None:
            payload["batch_hash"] = key.hex()
        if key is None or (self.send_records and not seen):
            payload["records"] = _records(batch)
        answer = self._client.post_metrics(payload)
        if answer.get("unknown_batch_hash") and "records" not in payload and self.send_records:
            # The service forgot the batch (restart, its cache evicted it): send the rows after all.
            payload["records"] = _records(batch)
            answer = self._client.post_metrics(payload)
        score = answer.get("quality_score")
        return (float("nan") if score is None else float(score)), None, list(answer.get("reasons", []))

    def _lookup(self, key: bytes):
        entry = self._cache.get(key)
        if entry is None:
            self.misses += 1
            return None
        self._cache.move_to_end(key)
        self.hits += 1
        return entry

    def _store(self, key: bytes, entry: Any) -> None:
        if self.cache_size == 0:
            return
        self._cache[key] = entry
        self._cache.move_to_end(key)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def __repr__(self) -> str:
        where = "url" if self._client is not None else "local"
        return "<griffin.jax.QualityGate %s dataset=%r threshold=%g cached=%d>" % (
            where, self.dataset, self.threshold, len(self._cache))
