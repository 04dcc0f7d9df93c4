"""griffin.jax: Griffin for JAX training loops.

    from griffin.jax import QualityGate, TrainingAbortError, batches, check

    gate = QualityGate(validator, threshold=0.9)       # or QualityGate(url=..., dataset=...)
    for step, batch in enumerate(batches("train/", validator, batch_size=256, columns=["amount", "label"])):
        gate.check(raw_batch, loss=loss)               # raises TrainingAbortError on bad data or a NaN loss
        x = check(batch["amount"], min=0, mode="raise")   # in-graph, under jax.jit

- batches(): validated, clean rows only, as dicts of jax.Array; reading,
  validation and batching run ahead in C++ without the GIL.
  A source "kafka://HOST:PORT/clean?group=trainer" reads griffin stream's clean
  topic (read_committed) with version tags for idempotent resumption.
- QualityGate: a per-batch quality score with a cache, local or through the
  Griffin service's POST /metrics; aborts on a low score, schema errors, a
  failed training check, or a NaN / inf loss or metric element.
- check(): an XLA FFI custom call counting NaN / inf / out-of-range elements;
  the identity under jax.grad.
"""
from ._batches import BatchStream, batches
from ._check import check
from ._gate import QualityGate, QualityServiceError, TrainingAbortError

__all__ = ["QualityGate", "TrainingAbortError", "QualityServiceError", "batches", "BatchStream", "check"]
