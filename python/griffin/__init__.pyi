import os
from typing import Any, Dict, Iterator, List, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt
import pyarrow as pa

__version__: str

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
    def checks(self) -> List[Dict[str, Any]]: ...
    @property
    def violations(self) -> List[Dict[str, Any]]: ...
    def bad_row_mask(self) -> npt.NDArray[np.bool_]: ...
    def split(self, data: Union[PathLike, Sequence[PathLike], Any]) -> Tuple[pa.Table, pa.Table]:
        """(clean, quarantined) of the validated data; quarantined adds
        _griffin_row, _griffin_errors and _griffin_raw as the CLI's --quarantine."""
        ...
    def to_json(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Validator:
    @classmethod
    def from_yaml(cls, path_or_text: Union[PathLike, str]) -> Validator: ...
    @property
    def dataset(self) -> str: ...
    @property
    def rules_sha256(self) -> str: ...
    def validate(
        self,
        data: Union[PathLike, Sequence[PathLike], Any],
        max_violations: int = 1000,
        threads: int = 0,
        batch_rows: int = 65536,
    ) -> Report: ...

def iter_batches(
    paths: Union[PathLike, Sequence[PathLike]],
    validator: Validator,
    batch_rows: int = 200_000,
    *,
    max_violations: int = 1000,
    threads: int = 0,
    prefetch: int = 1,
) -> Iterator[Tuple[pa.Table, Report]]:
    """Yield (clean rows, report of the batch) per batch of `batch_rows` rows,
    reading ahead in a thread; rows in each report are numbered within its batch."""
    ...
