#include "util/alloc_failure.h"

#include <new>

namespace griffin {

void FailAllocation() {
  // A handler that returns (one that freed some memory, as operator new allows)
  // is not retried here: the caller's one allocation has failed either way.
  if (std::new_handler handler = std::get_new_handler()) handler();
  throw std::bad_alloc();
}

}  // namespace griffin
