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

// XXH3-128 over a sequence of fields; every byte range goes in with its
// length first, so differently split inputs never hash alike.
class Hasher {
 public:
  Hasher() : state_(XXH3_createState()) { XXH3_128bits_reset(state_); }
  ~Hasher() { XXH3_freeState(state_); }
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;

  void U64(uint64_t value) { XXH3_128bits_update(state_, &value, sizeof(value)); }
  void Bytes(const void* data, size_t size) {
    U64(size);
    XXH3_128bits_update(state_, data, size);
  }
  // Bytes [begin, end) of `buffer` (clamped to it); a missing buffer hashes as a marker.
  void Range(const std::shared_ptr<arrow::Buffer>& buffer, int64_t begin, int64_t end) {
    if (!buffer) return U64(~uint64_t{0});
    begin = std::clamp<int64_t>(begin, 0, buffer->size());
    end = std::clamp<int64_t>(end, begin, buffer->size());
    Bytes(buffer->data() + begin, static_cast<size_t>(end - begin));
  }
  void Whole(const std::shared_ptr<arrow::Buffer>& buffer) { Range(buffer, 0, buffer ? buffer->size() : 0); }
  XXH128_hash_t Digest() const { return XXH3_128bits_digest(state_); }

 private:
  XXH3_state_t* state_;
};

// The 16-byte canonical (big-endian) form, as Python bytes (needs the GIL).
nb::bytes CanonicalBytes(XXH128_hash_t hash) {
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, hash);
  return nb::bytes(reinterpret_cast<const char*>(canonical.digest), sizeof(canonical.digest));
}

nb::bytes HashBuffers(const nb::list& buffers) {
  Views views;
  for (nb::handle item : buffers) views.Add(item);
  XXH128_hash_t hash;
  {
    nb::gil_scoped_release release;
    Hasher hasher;
    for (const Py_buffer& view : views.views()) hasher.Bytes(view.buf, static_cast<size_t>(view.len));
    hash = hasher.Digest();
  }
  return CanonicalBytes(hash);
}

template <typename Offset>
void HashVarBinary(Hasher& hasher, const arrow::ArrayData& data) {
  const auto& offsets_buffer = data.buffers[1];
  const int64_t offsets_end = (data.offset + data.length + 1) * static_cast<int64_t>(sizeof(Offset));
  if (!offsets_buffer || offsets_buffer->size() < offsets_end) {  // not a valid layout: hash what is there
    hasher.Whole(offsets_buffer);
    hasher.Whole(data.buffers[2]);
    return;
  }
  const Offset* offsets = reinterpret_cast<const Offset*>(offsets_buffer->data()) + data.offset;
  hasher.Range(offsets_buffer, data.offset * static_cast<int64_t>(sizeof(Offset)), offsets_end);
  hasher.Range(data.buffers[2], offsets[0], offsets[data.length]);
}

// string_view / binary_view (polars' strings): the slice's 16-byte views
// (inline bytes, or a prefix, buffer index and offset), then every variadic
// data buffer whole, each length-prefixed; the views name bytes only there.
void HashBinaryView(Hasher& hasher, const arrow::ArrayData& data) {
  constexpr int64_t kViewBytes = 16;
  hasher.Range(data.buffers[1], data.offset * kViewBytes, (data.offset + data.length) * kViewBytes);
  hasher.U64(data.buffers.size() - 2);
  for (size_t b = 2; b < data.buffers.size(); ++b) hasher.Whole(data.buffers[b]);
}

// An array's type, slice (offset, length) and the bytes it covers: for
// booleans, fixed-width, (large) string/binary and string/binary view arrays
// just the slice's part of each buffer (a batch sliced from a large table
// costs its own size; a view array's data buffers are hashed whole), for other
// layouts every buffer whole; then children and the dictionary. Equal slices
// give equal hashes.
void HashArray(Hasher& hasher, const arrow::ArrayData& data) {
  const arrow::Type::type id = data.type->id();
  hasher.U64(static_cast<uint64_t>(id));
  hasher.U64(static_cast<uint64_t>(data.offset));
  hasher.U64(static_cast<uint64_t>(data.length));
  hasher.U64(data.buffers.size());
  const int64_t first_byte = data.offset / 8, end_bit_byte = (data.offset + data.length + 7) / 8;
  if (!data.buffers.empty()) hasher.Range(data.buffers[0], first_byte, end_bit_byte);  // validity
  const int bit_width = data.type->bit_width();  // -1 unless fixed width (a dictionary's: its indices')
  if (data.buffers.size() == 2 && bit_width == 1) {
    hasher.Range(data.buffers[1], first_byte, end_bit_byte);
  } else if (data.buffers.size() == 2 && bit_width > 0 && bit_width % 8 == 0) {
    const int64_t width = bit_width / 8;
    hasher.Range(data.buffers[1], data.offset * width, (data.offset + data.length) * width);
  } else if (data.buffers.size() == 3 && (id == arrow::Type::STRING || id == arrow::Type::BINARY)) {
    HashVarBinary<int32_t>(hasher, data);
  } else if (data.buffers.size() == 3 && (id == arrow::Type::LARGE_STRING || id == arrow::Type::LARGE_BINARY)) {
    HashVarBinary<int64_t>(hasher, data);
  } else if (data.buffers.size() >= 2 && (id == arrow::Type::STRING_VIEW || id == arrow::Type::BINARY_VIEW)) {
    HashBinaryView(hasher, data);
  } else {
    for (size_t b = 1; b < data.buffers.size(); ++b) hasher.Whole(data.buffers[b]);
  }
  hasher.U64(data.child_data.size());
  for (const std::shared_ptr<arrow::ArrayData>& child : data.child_data) HashArray(hasher, *child);
  if (data.dictionary) HashArray(hasher, *data.dictionary);
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
    Hasher hasher;
    const std::string schema = reader->schema()->ToString(/*show_metadata=*/false);
    hasher.Bytes(schema.data(), schema.size());
    for (const std::shared_ptr<arrow::RecordBatch>& batch : batches) {
      hasher.U64(static_cast<uint64_t>(batch->num_rows()));
      for (int c = 0; c < batch->num_columns(); ++c) HashArray(hasher, *batch->column_data(c));
    }
    hash = hasher.Digest();
  }
  return CanonicalBytes(hash);
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
