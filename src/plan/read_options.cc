#include "plan/read_options.h"

#include "io/input_format.h"

namespace griffin {

ReadOptions ReadOptionsFromRules(const Plan& plan, int64_t batch_rows) {
  ReadOptions options;
  const SourceOptions& source = plan.rules().source;
  if (source.format) options.format = ParseInputFormatName(*source.format);
  options.delimiter = source.delimiter;
  options.header = source.header;
  options.null_values = source.null_values;
  options.quote = source.quote;
  options.batch_rows = batch_rows;
  options.json_columns = plan.ReferencedColumns();
  options.where = source.where;
  options.incremental_column = source.incremental_column;
  return options;
}

}  // namespace griffin
