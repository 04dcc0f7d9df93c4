// The Arrow Flight service of `griffin serve` (docs/service.md, "Arrow Flight"):
//
//   DoExchange  the client streams record batches; after each one the server
//               sends a results batch (one row: batch, first_row, rows,
//               bad_rows: list<int64>, checks: list<struct<check, violations>>,
//               the batch's error-check counts), then, when the client is done
//               writing, the final report (cli-and-report-v1 JSON) as app_metadata.
//   DoPut       validates the whole upload and records the run; the report
//               comes back as the PutResult's app_metadata.
//
// The descriptor names the dataset: a path [dataset] or [dataset, batch_hash],
// or a command {"dataset": .., "batch_hash": .., "max_violations": .., "store": ..}.
// The API key travels as the "authorization: Bearer KEY" header. Refusals are
// Flight statuses: Unauthenticated (401), Unauthorized (403), Unavailable
// (429/503, with "retry after N s"), Invalid (400/422), KeyError (404).
#pragma once

#include <memory>
#include <string>

#include "server/service_core.h"
#include "util/status.h"

namespace griffin::server {

class FlightService {
 public:
  explicit FlightService(ServiceCore& core);
  ~FlightService();

  // Starts serving on host:port (0: a free port), with TLS when configured.
  Status Start(const std::string& host, int port);
  int port() const;
  // Stops taking calls; calls in flight get until `deadline_s` seconds from now.
  void Shutdown(double deadline_s);

 private:
  class Server;
  ServiceCore& core_;
  std::unique_ptr<Server> server_;
};

}  // namespace griffin::server
