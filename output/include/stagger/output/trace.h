#pragma once
// `stagger sim --trace FILE.csv` (docs/design.md, Trace): one row per enemy per physics step,
// written as the run goes. Columns (units in the header): time, enemy, locomotion state, brain
// state (empty without a mind), centre of mass, support midpoint, balance error, pelvis height,
// agent position (empty without an agent). The file's first line names its format version
// (`# stagger trace format 1`), the second the columns.

#include <ostream>

#include "stagger/sim/simulation.h"

namespace stagger::output {

/// The trace's format version, on its first line: raised when a column changes meaning, moves or
/// goes away (columns added at the end keep it).
inline constexpr int kTraceFormatVersion = 1;

class TraceWriter {
 public:
  /// Writes the version line and the header line at once.
  explicit TraceWriter(std::ostream& out);
  /// One row per enemy, for the step that just ran.
  void write(const sim::Simulation& simulation);

 private:
  std::ostream& out_;
};

}  // namespace stagger::output
