#pragma once
// The documented bounds of every number a user can give Stagger (a level, an input script, a
// recording, a command-line option), and the helpers that check and describe them. A number that
// reaches the simulation is finite and inside these bounds; the readers check it where they read
// it, so the message can name its place (FILE:LINE:COL, or the option).

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>

namespace stagger::limits {

/// [m] every position (a level's geometry, spawns, route points, a script's positions) has
/// |x|, |y|, |z| within this. Beyond it single-precision positions lose millimetres and the
/// navigation grid cannot hold the level. A body that leaves it is a runaway.
inline constexpr double kWorldExtentM = 10000.0;
/// [m] the largest full extent of one box or mesh along any axis.
inline constexpr double kLargestShapeM = 2000.0;
/// [N·s] the largest impulse an input script may give (a hard shove is 40-150 N·s).
inline constexpr double kMaxImpulseNs = 1000.0;
/// [m/s] a body faster than this is a runaway (a fast hand moves at 10 m/s, a falling body at a
/// few); the guard resets the enemy as it does a non-finite one.
inline constexpr double kMaxBodySpeedMps = 1000.0;
/// [s] the longest run (`--seconds`) and the latest time an event may be scheduled: one day.
inline constexpr double kMaxDurationS = 86400.0;
/// [bytes] a quoted value in a message is cut to this many bytes.
inline constexpr std::size_t kMaxQuotedBytes = 60;
/// Arrays and objects nested deeper than this in any JSON file are refused (the readers are
/// iterative, but every later pass over a tree is not).
inline constexpr int kMaxJsonDepth = 256;

/// `value` cut to `kMaxQuotedBytes` with "..." and how much was left out, for messages.
inline std::string quoted(std::string_view value) {
  if (value.size() <= kMaxQuotedBytes) return std::string(value);
  // Cut at a UTF-8 character boundary.
  std::size_t cut = kMaxQuotedBytes;
  while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;
  return std::string(value.substr(0, cut)) + "... (" + std::to_string(value.size()) + " bytes)";
}

/// A number as a person writes it in a range: 86400, 0.5, 1e+30.
inline std::string number_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

/// An interval of allowed values: "0 < s <= 86400".
struct Range {
  double min = 0;
  double max = 0;
  bool min_open = false;  ///< the minimum itself is not allowed
  bool contains(double v) const { return std::isfinite(v) && (min_open ? v > min : v >= min) && v <= max; }
  std::string text(std::string_view symbol) const {
    return number_text(min) + (min_open ? " < " : " <= ") + std::string(symbol) + " <= " + number_text(max);
  }
};

/// Whether a vector's components are all within the world extent.
inline bool within_world(double x, double y, double z) {
  const auto in = [](double v) { return std::isfinite(v) && std::fabs(v) <= kWorldExtentM; };
  return in(x) && in(y) && in(z);
}

}  // namespace stagger::limits
