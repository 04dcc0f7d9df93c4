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
from ._upload import file_body, is_path, records

__all__ = ["QualityGate", "TrainingAbortError", "QualityServiceError"]


class TrainingAbortError(RuntimeError):
    """Raised by QualityGate.check(): the batch's quality score is below the
    threshold, the batch does not fit the rules (schema errors: a missing
    required column, a column of the wrong type), an error-severity training
    check of the service failed, or the score, an element of the loss or of a
    metric is NaN or infinite. `reasons` lists why (also in the message);
    `score`, `loss` (a float; a tuple of floats for a vector loss), `step` and
    `report` (the batch's griffin.Report when validated locally, else None)
    are kept."""

    def __init__(self, reasons: List[str], score: Optional[float], loss: Any, step: Optional[int],
                 report: Any = None) -> None:
        where = "" if step is None else " at step %d" % step
        super().__init__("training aborted%s: %s" % (where, "; ".join(reasons)))
        self.reasons = reasons
        self.score = score
        self.loss = loss
        self.step = step
        self.report = report


def _elements(value: Any) -> Optional[np.ndarray]:
    """Every element of a loss or metric (a Python number, a list, a numpy or
    jax array of any shape) as a flat float64 array, or None for None."""
    if value is None:
        return None
    return np.asarray(value, dtype=np.float64).reshape(-1)


def _kept(elements: Optional[np.ndarray]) -> Any:
    """What TrainingAbortError.loss keeps: a float, or a tuple for a vector."""
    if elements is None:
        return None
    return float(elements[0]) if elements.size == 1 else tuple(float(v) for v in elements)


def _non_finite(name: str, elements: Optional[np.ndarray]) -> List[str]:
    """["loss is nan"] or ["loss [0.5, nan]: 1 of 2 elements not finite"], or []."""
    if elements is None or np.isfinite(elements).all():
        return []
    if elements.size == 1:
        return ["%s is %r" % (name, float(elements[0]))]
    bad = int((~np.isfinite(elements)).sum())
    shown = ", ".join(repr(float(v)) for v in elements[:8]) + (", ..." if elements.size > 8 else "")
    return ["%s [%s]: %d of %d elements not finite" % (name, shown, bad, elements.size)]


def _telemetry_value(elements: Optional[np.ndarray]) -> Any:
    """A loss or metric for POST /metrics: one JSON number (a vector's mean),
    or the service's documented strings "nan", "inf", "-inf", or None."""
    if elements is None:
        return None
    value = float(elements[0]) if elements.size == 1 else float(elements.mean()) if elements.size else math.nan
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def _host(batch: Any) -> Any:
    """A dict of jax / numpy arrays as a dict of numpy arrays (no copy on CPU)."""
    if isinstance(batch, dict):
        return {name: np.asarray(value) for name, value in batch.items()}
    return batch


def _failing_checks(report: Any, limit: int = 3) -> List[str]:
    worst = sorted((c for c in report.checks if c.get("violations") and c.get("severity") == "error"),
                   key=lambda c: -c["violations"])
    return ["%s: %d of %d rows" % (c["name"], c["violations"], c["evaluated"]) for c in worst[:limit]]


def _schema_errors(report: Any) -> List[str]:
    """The report's schema errors as reasons ("schema: ..."); none when it passed."""
    if report.passed:
        return []
    return ["schema: " + error["message"] for error in report.to_dict().get("schema_errors", [])]


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
              metrics: Optional[Dict[str, Any]] = None) -> float:
        """The batch's quality score in [0, 1]. Raises TrainingAbortError when
        the score is below the threshold, the batch has schema errors, an
        error-severity training check of the service failed, or the score or
        any element of `loss` or of a `metrics` value is NaN or infinite.

        `batch`: what Validator.validate() takes (a path, pyarrow, pandas,
        polars or any __arrow_c_stream__ object, a dict of numpy or jax arrays
        named as the rule file's columns), in both modes. `loss` and metric
        values: numbers or arrays of any shape (every element is checked; the
        service is sent a vector's mean)."""
        loss_elements = _elements(loss)
        metric_elements = {str(name): _elements(value) for name, value in (metrics or {}).items()}
        reasons = _non_finite("loss", loss_elements)
        for name, elements in metric_elements.items():
            reasons += _non_finite("metrics." + name, elements)
        host = _host(batch)
        key = fingerprint(host)
        cached = self._lookup(key) if key is not None else None
        if self._client is not None:
            score, report, must_abort, explain = self._service_verdict(host, key, cached is not None, loss_elements,
                                                                       metric_elements, step, reasons)
        else:
            if cached is not None:
                score, report, must_abort = cached
            else:
                report = self.validator.validate(host)
                score, must_abort = report.quality_score, _schema_errors(report)
                if key is not None:
                    self._store(key, (score, report, must_abort))
            explain = None     # the report's failing checks, read only when the gate aborts
        self.last_report = report
        if score is None:
            pass    # the service could not answer, and the gate aborts anyway
        elif not math.isfinite(score):
            reasons.append("quality_score is %r" % score)
        elif score < self.threshold:
            reasons.append("quality_score %.4f < threshold %.4g" % (score, self.threshold))
        if reasons or must_abort:
            if explain is None:
                explain = _failing_checks(report)
            raise TrainingAbortError(list(dict.fromkeys(reasons + must_abort + explain)), score,
                                     _kept(loss_elements), step, report)
        return score

    def _service_verdict(self, batch: Any, key: Optional[bytes], seen: bool, loss: Optional[np.ndarray],
                         metrics: Dict[str, Optional[np.ndarray]], step: Optional[int], aborting: List[str]):
        """(score, None, reasons that abort whatever the score, reasons that
        explain a low score) from the service. A 422 (the batch does not fit
        the rules) is a verdict: score 0. When the gate aborts anyway (a NaN
        loss) a service that cannot answer is noted, not raised."""
        try:
            answer = self._ask_service(batch, key, seen, loss, metrics, step)
        except QualityServiceError as e:
            if e.status == 422:
                return 0.0, None, ["schema: the service refused the batch (HTTP 422): %s" % e.reason], []
            if not aborting:
                raise
            return None, None, ["the quality service gave no score: %s" % e], []
        if key is not None:
            self._store(key, True)
        score = answer.get("quality_score")
        remote = [str(r) for r in answer.get("reasons", [])]
        must_abort: List[str] = []
        telemetry = answer.get("telemetry_score")
        if telemetry is not None and float(telemetry) < 1.0:
            must_abort.append("a training check of severity error failed (telemetry_score %.4g)" % float(telemetry))
        # Schema errors and a failed training.min_score fail the batch whatever the threshold.
        if must_abort or any(r.startswith("schema: ") or "< training.min_score" in r for r in remote):
            must_abort += remote
        return (math.nan if score is None else float(score)), None, must_abort, remote

    def _ask_service(self, batch: Any, key: Optional[bytes], seen: bool, loss: Optional[np.ndarray],
                     metrics: Dict[str, Optional[np.ndarray]], step: Optional[int]) -> Dict[str, Any]:
        payload: Dict[str, Any] = {"dataset": self.dataset, "step": step, "loss": _telemetry_value(loss),
                                   "metrics": {name: _telemetry_value(v) for name, v in metrics.items()}}
        if key is not None:
            payload["batch_hash"] = key.hex()
        sent = key is None or (self.send_records and not seen)
        if sent:
            self._send_data(batch, key, payload)
        answer = self._client.post_metrics(payload)
        if answer.get("unknown_batch_hash") and not sent and self.send_records:
            # The service forgot the batch (restart, its cache evicted it): send the data after all.
            self._send_data(batch, key, payload)
            answer = self._client.post_metrics(payload)
        return answer

    def _send_data(self, batch: Any, key: Optional[bytes], payload: Dict[str, Any]) -> None:
        """A file to the validate route under the batch's hash; other data
        inline as the request's records."""
        if is_path(batch) and key is not None:
            body, content_type = file_body(batch)
            self._client.validate(self.dataset, body, content_type, key.hex())
        else:
            payload["records"] = records(batch)

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
