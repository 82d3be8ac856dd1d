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

/// The length of the well-formed UTF-8 character starting at `text[at]` (1-4 bytes), or 0 where
/// the bytes there are not one (a stray continuation byte, a cut or overlong sequence, a
/// surrogate).
inline std::size_t utf8_character_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[at + k]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

/// Whether `text` is well-formed UTF-8 without control characters: what a name may hold.
inline bool printable_utf8(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[at]);
    if (c < 0x20 || c == 0x7F) return false;
    const std::size_t length = utf8_character_length(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

/// `value` as one printable line for a message: control characters and bytes that are not UTF-8
/// written as `\xNN`, cut after `max_bytes` of the original with "..." and its length.
inline std::string printable(std::string_view value, std::size_t max_bytes) {
  std::string out;
  std::size_t at = 0;
  while (at < value.size() && at < max_bytes) {
    const unsigned char c = static_cast<unsigned char>(value[at]);
    const std::size_t length = (c < 0x20 || c == 0x7F) ? 0 : utf8_character_length(value, at);
    if (length == 0) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      at += 1;
    } else if (at + length > max_bytes) {
      break;  // never cut inside a character
    } else {
      out.append(value.substr(at, length));
      at += length;
    }
  }
  if (at < value.size()) out += "... (" + std::to_string(value.size()) + " bytes)";
  return out;
}

/// `value` printable and cut to `kMaxQuotedBytes`, for quoting a user's value in a message.
inline std::string quoted(std::string_view value) {
  return printable(value, kMaxQuotedBytes);
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
  bool contains(double v) const {
    return std::isfinite(v) && (min_open ? v > min : v >= min) && v <= max;
  }
  std::string text(std::string_view symbol) const {
    return number_text(min) + (min_open ? " < " : " <= ") + std::string(symbol) +
           " <= " + number_text(max);
  }
};

/// Whether a vector's components are all within the world extent.
inline bool within_world(double x, double y, double z) {
  const auto in = [](double v) { return std::isfinite(v) && std::fabs(v) <= kWorldExtentM; };
  return in(x) && in(y) && in(z);
}

}  // namespace stagger::limits
