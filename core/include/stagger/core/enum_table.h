#pragma once
// Tables indexed by an enum whose values count up from 0 (names for messages and files, colours
// for plots): one array in the enum's order instead of a switch with a case per value.

#include <cstddef>
#include <string_view>
#include <type_traits>

namespace stagger {

/// `table[value]`, or `fallback` for a value outside the enum (a corrupt byte, say). `kLast` is
/// the enum's last value: a table with an entry too few or too many does not compile.
template <auto kLast, typename T, std::size_t N>
constexpr T enum_lookup(const T (&table)[N], decltype(kLast) value, T fallback) {
  static_assert(std::is_enum_v<decltype(kLast)>);
  static_assert(N == static_cast<std::size_t>(kLast) + 1, "one entry per value of the enum");
  const auto index = static_cast<std::size_t>(value);
  return index < N ? table[index] : fallback;
}

/// The name of `value` in `names` (in the enum's order), or "?" for a value outside the enum.
template <auto kLast, std::size_t N>
constexpr std::string_view enum_name(const std::string_view (&names)[N], decltype(kLast) value) {
  return enum_lookup<kLast>(names, value, std::string_view("?"));
}

}  // namespace stagger
