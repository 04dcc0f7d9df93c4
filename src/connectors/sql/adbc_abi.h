// The ADBC C API (struct AdbcDriver and friends) with Arrow's C data and
// stream interface. third_party/adbc.h is arrow-adbc's header as shipped in
// the adbc-driver-manager 1.13.0 wheel (Apache-2.0), unchanged: the ABI the
// pinned drivers (requirements.txt) implement. Arrow's abi.h comes first so
// both define the C structs once (they share the include guards).
#pragma once

#include <arrow/c/abi.h>

#include "connectors/sql/third_party/adbc.h"
