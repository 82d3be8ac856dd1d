#include "stagger/sim/report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace stagger::sim {

std::string state_hash_hex(std::uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string report_json(const SimulationResult& r) {
  nlohmann::ordered_json j;
  j["format_version"] = kReportFormatVersion;
  j["level"] = r.level;
  j["vary_seed"] = r.vary_seed ? nlohmann::ordered_json(*r.vary_seed) : nlohmann::ordered_json();
  j["settings"] = {{"file", r.settings_file.empty() ? nlohmann::ordered_json()
                                                    : nlohmann::ordered_json(r.settings_file)},
                   {"hash", state_hash_hex(r.settings_hash)}};
  j["seconds"] = r.seconds;
  j["physics_hz"] = r.physics_hz;
  j["steps"] = r.steps;
  j["state_hash"] = state_hash_hex(r.state_hash);
  j["wall_ms"] = r.wall_ms;
  j["ms_per_step"] = r.ms_per_step;
  j["all_finite"] = r.finite;
  j["runaways"] = r.runaways;
  j["interrupted"] = r.interrupted;
  auto& enemies = j["enemies"] = nlohmann::ordered_json::array();
  for (const EnemyStats& e : r.enemies) {
    nlohmann::ordered_json o;
    o["name"] = e.name;
    o["profile"] = e.profile.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(e.profile);
    o["falls"] = e.falls;
    o["fall_causes"] = e.fall_causes;
    o["fall_to_down_s"] = e.fall_to_down_s;
    o["self_falls"] = e.self_falls;
    o["max_foot_slip_m"] = e.max_foot_slip_m;
    o["get_ups"] = e.get_ups;
    o["stays_down"] = e.stays_down;
    o["recovery_steps"] = e.recovery_steps;
    o["steps"] = e.steps;
    o["pushes"] = e.pushes;
    o["push_impulses_ns"] = e.push_impulses_ns;
    o["time_down_s"] = e.time_down_s;
    o["final_state"] = e.final_state;
    if (!e.final_activity.empty()) {
      auto& a = o["activity"];
      a["final"] = e.final_activity;
      for (int level = 0; level < kActivityCount; ++level) {
        a["seconds"][std::string(name_of(static_cast<Activity>(level)))] =
            e.activity.seconds[static_cast<std::size_t>(level)];
      }
      a["promotions"] = e.activity.promotions;
      a["demotions"] = e.activity.demotions;
      a["max_switch_jump_mps"] = e.activity.max_switch_jump_mps;
    }
    o["balance_state"] = e.balance_state;
    o["max_balance_error_m"] = e.max_balance_error_m;
    o["min_pelvis_height_m"] = e.min_pelvis_height_m;
    o["max_joint_separation_m"] = e.max_joint_separation_m;
    o["route_points_reached"] = e.route_points_reached;
    o["distance_walked_m"] = e.distance_walked_m;
    o["max_leash_lead_m"] = e.max_leash_lead_m;
    o["leash_reseats"] = e.leash_reseats;
    o["invalid_agent_ticks"] = e.invalid_agent_ticks;
    o["saw_player"] = e.saw_player;
    o["punches"] = e.punches;
    o["punches_landed"] = e.punches_landed;
    o["punches_blocked"] = e.punches_blocked;
    o["removed"] = e.removed;
    o["resets"] = e.resets;
    o["runaways"] = e.runaways;
    o["brain_state"] = e.brain_state;
    enemies.push_back(o);
  }
  j["warnings"] = r.warnings;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";  // names need not be UTF-8
}

std::string summary_text(const SimulationResult& r) {
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof(line),
                "stagger sim: %s, %zu enemies, %.2f s simulated (%llu steps at %.0f Hz) in %.1f ms "
                "(%.4f ms/step)\n",
                r.level.c_str(), r.enemies.size(), r.seconds,
                static_cast<unsigned long long>(r.steps), static_cast<double>(r.physics_hz),
                r.wall_ms, r.ms_per_step);
  out << line;
  for (const EnemyStats& e : r.enemies) {
    std::snprintf(line, sizeof(line),
                  "  %-12s %-10s %-14s falls %d (self %d)  get-ups %d  recovery steps %d  pushes "
                  "%d  down %.2f s  "
                  "max balance error %.3f m  min pelvis height %.3f m%s\n",
                  e.name.c_str(), e.final_state.c_str(), e.balance_state.c_str(), e.falls,
                  e.self_falls, e.get_ups, e.recovery_steps, e.pushes, e.time_down_s,
                  static_cast<double>(e.max_balance_error_m),
                  static_cast<double>(e.min_pelvis_height_m),
                  e.stays_down ? "  (stays down: get-ups kept failing)" : "");
    out << line;
  }
  for (const std::string& w : r.warnings) out << "warning: " << w << "\n";
  if (r.interrupted)
    out << "interrupted: the run stopped early; the figures cover the steps that ran\n";
  out << "state_hash " << state_hash_hex(r.state_hash) << (r.finite ? "" : "  (NON-FINITE STATE)")
      << "\n";
  return out.str();
}

}  // namespace stagger::sim
