#pragma once
// The simulation report (docs/design.md, Simulation report) as JSON, and the human-readable
// summary.

#include <string>

#include "stagger/sim/simulation.h"

namespace stagger::sim {

/// The report's `format_version`, its first key: raised when a key changes meaning or goes away
/// (added keys keep it), so a reader can refuse a report it does not know.
inline constexpr int kReportFormatVersion = 1;

std::string state_hash_hex(std::uint64_t hash);
/// The report as pretty-printed JSON.
std::string report_json(const SimulationResult& result);
/// A few lines for a terminal.
std::string summary_text(const SimulationResult& result);

}  // namespace stagger::sim
