// griffin._griffin.hash_buffers: a fast content hash (XXH3, 128 bits) over
// Python buffers, for the QualityGate's score cache.
#pragma once

#include <nanobind/nanobind.h>

namespace griffin::python {

// hash_buffers(buffers: list) -> bytes (16, canonical big-endian): XXH3-128 of the buffers' bytes in order,
// each preceded by its length (so [b"ab", b"c"] != [b"a", b"bc"]). Each item
// must export a C-contiguous buffer (bytes, numpy arrays, pyarrow Buffers,
// memoryviews); the hashing runs without the GIL.
// hash_arrow_stream(capsule) -> bytes (16): the same hash over an Arrow stream's
// schema and every batch's arrays in place (the QualityGate's fingerprint of a
// pyarrow Table or RecordBatch); InputError when the stream fails to read.
void BindHash(nanobind::module_& m);

}  // namespace griffin::python
