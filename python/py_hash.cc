#include "py_hash.h"

#include <algorithm>
#include <vector>

#include <arrow/array/data.h>
#include <arrow/type.h>
#include <xxhash.h>

#include "py_arrow.h"

namespace nb = nanobind;

namespace griffin::python {
namespace {

// Holds the Py_buffer views for the duration of the hash.
class Views {
 public:
  ~Views() {
    for (Py_buffer& view : views_) PyBuffer_Release(&view);
  }
  void Add(nb::handle object) {
    views_.emplace_back();
    if (PyObject_GetBuffer(object.ptr(), &views_.back(), PyBUF_C_CONTIGUOUS) != 0) {
      views_.pop_back();
      PyErr_Clear();
      throw nb::type_error(("hash_buffers: a " + std::string(nb::type_name(object.type()).c_str()) +
                            " does not export a C-contiguous buffer").c_str());
    }
  }
  const std::vector<Py_buffer>& views() const { return views_; }

 private:
  std::vector<Py_buffer> views_;
};

nb::bytes HashBuffers(const nb::list& buffers) {
  Views views;
  for (nb::handle item : buffers) views.Add(item);
  XXH128_hash_t hash;
  {
    nb::gil_scoped_release release;
    XXH3_state_t* state = XXH3_createState();
    XXH3_128bits_reset(state);
    for (const Py_buffer& view : views.views()) {
      const uint64_t length = static_cast<uint64_t>(view.len);
      XXH3_128bits_update(state, &length, sizeof(length));
      XXH3_128bits_update(state, view.buf, static_cast<size_t>(view.len));
    }
    hash = XXH3_128bits_digest(state);
    XXH3_freeState(state);
  }
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, hash);
  return nb::bytes(reinterpret_cast<const char*>(canonical.digest), sizeof(canonical.digest));
}

void UpdateU64(XXH3_state_t* state, uint64_t value) { XXH3_128bits_update(state, &value, sizeof(value)); }

void UpdateBytes(XXH3_state_t* state, const arrow::Buffer& buffer, int64_t begin, int64_t end) {
  begin = std::clamp<int64_t>(begin, 0, buffer.size());
  end = std::clamp<int64_t>(end, begin, buffer.size());
  UpdateU64(state, static_cast<uint64_t>(end - begin));
  XXH3_128bits_update(state, buffer.data() + begin, static_cast<size_t>(end - begin));
}

template <typename Offset>
void UpdateVarBinary(XXH3_state_t* state, const arrow::ArrayData& data) {
  const auto& offsets_buffer = data.buffers[1];
  if (!offsets_buffer || offsets_buffer->size() < static_cast<int64_t>((data.offset + data.length + 1) * sizeof(Offset)))
    return;
  const Offset* offsets = reinterpret_cast<const Offset*>(offsets_buffer->data()) + data.offset;
  UpdateBytes(state, *offsets_buffer, data.offset * sizeof(Offset), (data.offset + data.length + 1) * sizeof(Offset));
  if (data.buffers[2]) UpdateBytes(state, *data.buffers[2], offsets[0], offsets[data.length]);
}

// An array's type, slice (offset, length) and the bytes it covers: for
// booleans, fixed-width and (large) string/binary arrays just the slice's part
// of each buffer (a batch sliced from a large table costs its own size), for
// other layouts every buffer whole; then children and the dictionary. Equal
// slices give equal hashes.
void UpdateArray(XXH3_state_t* state, const arrow::ArrayData& data) {
  const arrow::Type::type id = data.type->id();
  UpdateU64(state, static_cast<uint64_t>(id));
  UpdateU64(state, static_cast<uint64_t>(data.offset));
  UpdateU64(state, static_cast<uint64_t>(data.length));
  UpdateU64(state, data.buffers.size());
  const int64_t first_byte = data.offset / 8, end_bit_byte = (data.offset + data.length + 7) / 8;
  if (!data.buffers.empty() && data.buffers[0]) UpdateBytes(state, *data.buffers[0], first_byte, end_bit_byte);
  const int bit_width = data.type->bit_width();  // -1 unless fixed width (a dictionary's: its indices')
  if (data.buffers.size() == 2 && bit_width == 1 && data.buffers[1]) {
    UpdateBytes(state, *data.buffers[1], first_byte, end_bit_byte);
  } else if (data.buffers.size() == 2 && bit_width > 0 && bit_width % 8 == 0 && data.buffers[1]) {
    const int64_t width = bit_width / 8;
    UpdateBytes(state, *data.buffers[1], data.offset * width, (data.offset + data.length) * width);
  } else if (data.buffers.size() == 3 && (id == arrow::Type::STRING || id == arrow::Type::BINARY)) {
    UpdateVarBinary<int32_t>(state, data);
  } else if (data.buffers.size() == 3 && (id == arrow::Type::LARGE_STRING || id == arrow::Type::LARGE_BINARY)) {
    UpdateVarBinary<int64_t>(state, data);
  } else {
    for (size_t b = 1; b < data.buffers.size(); ++b) {
      if (data.buffers[b]) UpdateBytes(state, *data.buffers[b], 0, data.buffers[b]->size());
      else UpdateU64(state, ~uint64_t{0});
    }
  }
  UpdateU64(state, data.child_data.size());
  for (const std::shared_ptr<arrow::ArrayData>& child : data.child_data) UpdateArray(state, *child);
  if (data.dictionary) UpdateArray(state, *data.dictionary);
}

nb::bytes HashArrowStream(nb::handle capsule) {
  std::shared_ptr<arrow::RecordBatchReader> reader = ImportStreamCapsule(capsule, "hash_arrow_stream");
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  for (;;) {
    std::shared_ptr<arrow::RecordBatch> batch;
    arrow::Status status = reader->ReadNext(&batch);
    if (!status.ok()) throw InputErrorCpp("hash_arrow_stream: " + status.message());
    if (!batch) break;
    batches.push_back(std::move(batch));
  }
  XXH128_hash_t hash;
  {
    nb::gil_scoped_release release;
    XXH3_state_t* state = XXH3_createState();
    XXH3_128bits_reset(state);
    const std::string schema = reader->schema()->ToString(/*show_metadata=*/false);
    UpdateU64(state, schema.size());
    XXH3_128bits_update(state, schema.data(), schema.size());
    for (const std::shared_ptr<arrow::RecordBatch>& batch : batches) {
      UpdateU64(state, static_cast<uint64_t>(batch->num_rows()));
      for (int c = 0; c < batch->num_columns(); ++c) UpdateArray(state, *batch->column_data(c));
    }
    hash = XXH3_128bits_digest(state);
    XXH3_freeState(state);
  }
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, hash);
  return nb::bytes(reinterpret_cast<const char*>(canonical.digest), sizeof(canonical.digest));
}

}  // namespace

void BindHash(nb::module_& m) {
  m.def("hash_buffers", &HashBuffers, nb::arg("buffers"),
        "XXH3-128 of the buffers' bytes (each length-prefixed), 16 bytes big-endian; runs without the GIL.");
  m.def("hash_arrow_stream", &HashArrowStream, nb::arg("capsule"),
        "XXH3-128 (16 bytes) of an Arrow stream (a capsule from __arrow_c_stream__()): its schema, and each "
        "batch's arrays (type, offset, length, every buffer, children, dictionary), read in place; hashes "
        "without the GIL.");
}

}  // namespace griffin::python
