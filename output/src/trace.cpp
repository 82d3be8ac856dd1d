#include "stagger/output/trace.h"

#include <cstdio>
#include <string>

namespace stagger::output {

namespace {

void put(std::string& row, float value) {
  char text[32];
  std::snprintf(text, sizeof(text), ",%.5g", static_cast<double>(value));
  row += text;
}

// A CSV field as RFC 4180 has it: quoted, with quotes doubled, when it holds a comma, a quote or
// a line break (an enemy's name may).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void put(std::string& row, Vec3 v) {
  put(row, v.x);
  put(row, v.y);
  put(row, v.z);
}

}  // namespace

TraceWriter::TraceWriter(std::ostream& out) : out_(out) {
  out_ << "# stagger trace format " << kTraceFormatVersion << "\n";
  out_ << "time_s,enemy,state,brain,com_x_m,com_y_m,com_z_m,support_x_m,support_y_m,support_z_m,"
          "balance_error_m,pelvis_height_m,agent_x_m,agent_y_m,agent_z_m,fall_cause,"
          "balance_com_x_m,balance_com_y_m,balance_com_z_m\n";
}

void TraceWriter::write(const sim::Simulation& simulation) {
  const sim::Scene& scene = simulation.scene();
  const ai::Squad* squad = simulation.squad();
  char time[32];
  std::snprintf(time, sizeof(time), "%.6f", scene.world().time());
  std::string rows;
  for (std::size_t i = 0; i < scene.enemies().size(); ++i) {
    if (scene.enemies()[i].removed()) continue;
    const physics::Ragdoll& body = *scene.enemies()[i].ragdoll;
    const physics::BalanceReadout& balance = body.balance();
    const int member = simulation.mind_of(i);
    const bool mind = member >= 0;
    rows += time;
    rows += ',' + csv_field(scene.enemies()[i].name) + ',' +
            std::string(physics::name_of(body.state())) + ',';
    if (mind) rows += ai::name_of(squad->brain(member).state());
    put(rows, body.center_of_mass().position);
    put(rows, balance.support_mid);
    put(rows, balance.error_m);
    put(rows, body.pelvis_height());
    if (mind) {
      put(rows, squad->follow(member).agent);
    } else {
      rows += ",,,";
    }
    rows += ',';
    // The cause of the fall the body is in (falling, lying, getting up); empty otherwise.
    const physics::LocomotionState state = body.state();
    if (!physics::is_upright(state) && state != physics::LocomotionState::dead)
      rows += physics::name_of(body.last_fall_cause());
    put(rows, balance.com);
    rows += '\n';
  }
  out_ << rows;
}

}  // namespace stagger::output
