#pragma once
// The simulation report (docs/design.md, Simulation report) as JSON, and the human-readable
// summary.

#include <string>

#include "stagger/sim/simulation.h"

namespace stagger::sim {

std::string state_hash_hex(std::uint64_t hash);
/// The report as pretty-printed JSON.
std::string report_json(const SimulationResult& result);
/// A few lines for a terminal.
std::string summary_text(const SimulationResult& result);

}  // namespace stagger::sim
