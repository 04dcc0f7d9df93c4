import os
import ssl
from typing import Any, Dict, Iterable, Iterator, List, Literal, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt
import pyarrow as pa

__version__: str
DEFAULT_MAX_VIOLATIONS: int  # row violations a report lists per check unless told

class GriffinError(Exception): ...
class RuleError(GriffinError): ...
class InputError(GriffinError): ...

PathLike = Union[str, os.PathLike[str]]

class Report:
    @property
    def quality_score(self) -> float: ...
    @property
    def passed(self) -> bool: ...
    @property
    def rows(self) -> int: ...
    @property
    def bad_rows(self) -> int: ...
    @property
    def run_id(self) -> Optional[str]:
        """The run's id in the run store when validate() recorded it (store=), else None."""
        ...
    @property
    def checks(self) -> List[Dict[str, Any]]: ...
    @property
    def violations(self) -> List[Dict[str, Any]]: ...
    @property
    def index(self) -> Any:
        """The rows' labels (a pandas frame's index; iter_batches: the CLI's
        row numbers as numpy int64), else None; violations carry them as `index`."""
        ...
    def bad_row_mask(self) -> npt.NDArray[np.bool_]: ...
    def split(self, data: Union[PathLike, Sequence[PathLike], Any]) -> Tuple[pa.Table, pa.Table]:
        """(clean, quarantined) of the validated data; quarantined adds
        _griffin_row, _griffin_errors and _griffin_raw as the CLI's --quarantine."""
        ...
    def to_json(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Validator:
    def __init__(self, rules: Union[PathLike, str]) -> None: ...
    @classmethod
    def from_yaml(cls, path_or_text: Union[PathLike, str]) -> Validator: ...
    @property
    def dataset(self) -> str: ...
    @property
    def rules_sha256(self) -> str: ...
    def validate(
        self,
        data: Union[PathLike, Sequence[PathLike], Any],
        max_violations: int = ...,
        threads: int = 0,
        batch_rows: int = 65536,
        mode: Optional[Literal["scan", "pushdown", "pushdown-split"]] = None,
        store: Union[None, bool, PathLike] = None,
        store_profiles: Literal["drift", "all"] = "drift",
    ) -> Report:
        """`store`: record the run in that run store (a SQLite path or URI,
        postgresql://..., True for .griffin/griffin.db), as griffin validate
        does; an incremental source then reads only its new rows."""
        ...
    def partial(self, data: Any, row_offset: int = 0, max_violations: int = ..., threads: int = 0,
                batch_rows: int = 65536) -> bytes:
        """One part's partial state (design.md "One mergeable state")."""
        ...
    def partial_sharded(self, data: Any, key_shards: int, row_offset: int = 0, max_violations: int = ...,
                        threads: int = 0, batch_rows: int = 65536) -> Tuple[bytes, List[bytes]]:
        """partial(), with the `unique` keys split by hash into key_shards blobs."""
        ...
    def merge_key_shard(self, blobs: List[bytes], names: Optional[List[str]] = None) -> bytes: ...
    def merge_states(self, states: List[bytes], names: Optional[List[str]] = None) -> bytes: ...
    def merge_partials(self, states: List[bytes], names: Optional[List[str]] = None,
                       key_duplicates: Optional[List[bytes]] = None) -> Report:
        """The report of the parts, as validate() gives it over all their rows."""
        ...

def profile(data: Any, threads: int = 0, batch_rows: int = 65536) -> Dict[str, Any]: ...

def drift(baseline: PathLike, current: PathLike, max: Optional[float] = None, threads: int = 0) -> Dict[str, Any]: ...

def iter_batches(
    paths: Union[PathLike, Sequence[PathLike]],
    validator: Validator,
    batch_rows: int = 200_000,
    *,
    max_violations: int = ...,
    threads: int = 0,
    prefetch: int = 1,
) -> Iterator[Tuple[pa.Table, Report]]:
    """Yield (clean rows, report of the batch) per batch of `batch_rows` rows,
    reading ahead in a thread; rows in each report are numbered within its batch."""
    ...

class ServiceError(GriffinError):
    status: int
    reason: str
    retry_after: Optional[float]

class Client:
    """A client of `griffin serve` (HTTP, and Arrow Flight with flight_url)."""
    url: str
    def __init__(
        self,
        url: str,
        api_key: Optional[str] = None,
        *,
        timeout: float = 30.0,
        ssl_context: Optional[ssl.SSLContext] = None,
        flight_url: Optional[str] = None,
        tls_root_certs: Optional[bytes] = None,
    ) -> None: ...
    def health(self) -> Dict[str, Any]: ...
    def datasets(self) -> List[Dict[str, Any]]: ...
    def runs(self, dataset: str, limit: int = 100) -> List[Dict[str, Any]]: ...
    def prometheus(self) -> str: ...
    def validate(
        self,
        dataset: str,
        data: Any,
        *,
        content_type: Optional[str] = None,
        max_violations: int = ...,
        store: bool = True,
        batch_hash: Optional[str] = None,
    ) -> Dict[str, Any]: ...
    def metrics(
        self,
        dataset: str,
        *,
        step: Optional[int] = None,
        loss: Optional[float] = None,
        metrics: Optional[Dict[str, float]] = None,
        records: Optional[Sequence[Dict[str, Any]]] = None,
        batch_hash: Optional[str] = None,
        run: Optional[str] = None,
    ) -> Dict[str, Any]: ...
    def exchange(
        self,
        dataset: str,
        batches: Iterable[Any],
        *,
        batch_hash: Optional[str] = None,
        max_violations: int = ...,
        store: bool = True,
    ) -> Tuple[List[Dict[str, Any]], Dict[str, Any]]: ...
    def put(
        self, dataset: str, data: Any, *, batch_hash: Optional[str] = None, max_violations: int = ..., store: bool = True
    ) -> Dict[str, Any]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Client: ...
    def __exit__(self, *exc: Any) -> None: ...
