import os
import random
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import jax
import numpy as np
import numpy.typing as npt

from .. import Report, Validator

class TrainingAbortError(RuntimeError):
    reasons: List[str]
    score: Optional[float]
    loss: Union[None, float, Tuple[float, ...]]   # a tuple for a vector loss
    step: Optional[int]
    report: Optional[Report]

class QualityServiceError(RuntimeError):
    status: Optional[int]
    attempts: int
    reason: Optional[str]

class QualityGate:
    validator: Optional[Validator]
    threshold: float
    cache_size: int
    dataset: Optional[str]
    hits: int
    misses: int
    last_report: Optional[Report]
    def __init__(
        self,
        validator: Optional[Validator] = None,
        url: Optional[str] = None,
        threshold: float = 0.7,
        cache_size: int = 4096,
        *,
        dataset: Optional[str] = None,
        api_key: Optional[str] = None,
        deadline: float = 5.0,
        request_timeout: float = 1.0,
        backoff_base: float = 0.05,
        backoff_max: float = 2.0,
        send_records: bool = True,
        rng: Optional[random.Random] = None,
        sleep: Callable[[float], None] = ...,
    ) -> None: ...
    def check(self, batch: Any, loss: Any = None, step: Optional[int] = None,
              metrics: Optional[Dict[str, Any]] = None) -> float:
        """The batch's quality score; TrainingAbortError below the threshold, on schema errors, a failed
        training check of the service, or a NaN/inf score or element of the loss or a metric."""
        ...

class BatchStream(Iterator[Dict[str, jax.Array]]):
    @property
    def columns(self) -> List[Tuple[str, str, List[str]]]: ...
    @property
    def clean_rows(self) -> int: ...
    @property
    def quarantined_rows(self) -> int: ...
    @property
    def dropped_rows(self) -> int: ...
    @property
    def report(self) -> Optional[Report]: ...
    @property
    def quarantine(self) -> Optional[Dict[str, Any]]: ...
    def next_numpy(self) -> Optional[Dict[str, npt.NDArray[Any]]]: ...
    def __next__(self) -> Dict[str, jax.Array]: ...
    def close(self) -> None: ...
    def __enter__(self) -> BatchStream: ...
    def __exit__(self, *exc: Any) -> None: ...

def batches(
    source: Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]], Any],
    validator: Validator,
    batch_size: int = 128,
    columns: Optional[Sequence[str]] = None,
    shuffle_buffer: int = 0,
    seed: int = 0,
    prefetch: int = 2,
    drop_remainder: bool = True,
    *,
    dtypes: Optional[Mapping[str, str]] = None,
    transform: Optional[Callable[[Dict[str, npt.NDArray[Any]]], Mapping[str, Any]]] = None,
    quarantine: Optional[Union[str, os.PathLike[str]]] = None,
    device: Optional[jax.Device] = None,
    threads: int = 0,
    read_batch_rows: int = 65536,
) -> BatchStream:
    """Validated clean rows as dicts of jax.Array; reading and validation run ahead in C++."""
    ...

def check(x: Any, *, finite: bool = True, min: Optional[float] = None, max: Optional[float] = None,
          mode: str = "count") -> jax.Array:
    """XLA FFI: counts [nan, inf, out_of_range] (mode="count") or x, failing the computation (mode="raise").
    The identity under jax.grad (a custom JVP rule)."""
    ...
