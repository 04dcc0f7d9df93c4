// `griffin alerts`: the alert deliveries the run store recorded (every alert
// sent, failed or suppressed; store/alert_log.h, docs/alerts.md), newest
// first, as a table or JSON. Exit 0 listed (none is not an error), 2 usage
// (an unknown --status or --format, an unknown or ambiguous --run), 3 store
// unreadable.
//
//   griffin alerts --dataset orders --status failed --format json
#pragma once

#include <string>
#include <vector>

#include "store/alert_log.h"

namespace CLI {
class App;
}

namespace griffin {

struct AlertsArgs {
  std::string store_uri;
  std::string format = "text";
  AlertListFilter filter;        // --dataset, --run (an id or a unique prefix), --status, --limit
};

CLI::App* AddAlertsCommand(CLI::App& app, AlertsArgs* args);
int RunAlertsCommand(const AlertsArgs& args);

// The listing, for RunAlertsCommand (and its tests): a table with one line per
// record (an undelivered one's error on the next line), or
// {"store": ..., "deliveries": [{every AlertDeliveryRecord field}, ...]}.
std::string AlertDeliveriesText(const std::vector<AlertDeliveryRecord>& records);
std::string AlertDeliveriesJson(const std::vector<AlertDeliveryRecord>& records, const std::string& store);

}  // namespace griffin
