#include "py_hash.h"

#include <vector>

#include <xxhash.h>

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

}  // namespace

void BindHash(nb::module_& m) {
  m.def("hash_buffers", &HashBuffers, nb::arg("buffers"),
        "XXH3-128 of the buffers' bytes (each length-prefixed), 16 bytes big-endian; runs without the GIL.");
}

}  // namespace griffin::python
