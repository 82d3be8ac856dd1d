#include "stagger/sim/settings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_set>
#include <variant>

#include "stagger/core/limits.h"
#include "stagger/sim/recording.h"

namespace stagger::sim {
namespace {

using levels::Diagnostic;
using levels::JsonMember;
using levels::JsonValue;
using levels::TextPosition;
using Kind = JsonValue::Kind;

std::string backticked(std::string_view s) {
  std::string text = "`";
  text += limits::quoted(s);
  text += '`';
  return text;
}

// A float as its shortest decimal (0.055, not 0.05499999970): how the table's numbers are shown.
std::string shortest(double value, bool whole) {
  if (whole) return std::to_string(static_cast<long long>(value));
  char text[32];
  const auto [end, error] = std::to_chars(text, text + sizeof(text), static_cast<float>(value));
  return error == std::errc() ? std::string(text, end) : limits::number_text(value);
}

// The same as a JSON number that prints as that decimal (a whole number without a fraction).
nlohmann::ordered_json json_number(double value, bool whole) {
  if (whole) return static_cast<long long>(value);
  return std::strtod(shortest(value, false).c_str(), nullptr);
}

// "a number between 0.05 and 1 m", "a whole number between 1 and 100"
std::string range_text(const SettingRow& row) {
  std::string text = row.whole ? "a whole number between " : "a number between ";
  text += shortest(row.min, row.whole) + " and " + shortest(row.max, row.whole);
  if (row.unit != "-" && row.unit != "count") text += " " + std::string(row.unit);
  return text;
}

// A value as a message shows it: numbers and strings as written (cut when long), else its kind.
std::string shown(const JsonValue& v) {
  switch (v.kind) {
    case Kind::number:
      return limits::quoted(v.text);
    case Kind::string:
      return "\"" + limits::quoted(v.text) + "\"";
    case Kind::boolean:
      return v.boolean ? "true" : "false";
    case Kind::null:
      return "null";
    case Kind::array:
      return "an array";
    case Kind::object:
      return "an object";
  }
  return "?";
}

// Walks one settings tree, collecting values and problems.
class SettingsReader {
 public:
  SettingsReader(const std::string& file, const std::string& what,
                 std::vector<Diagnostic>& diagnostics)
      : file_(file), what_(what), out_(diagnostics) {}

  std::vector<SettingValue> read(const JsonValue& tree) {
    if (tree.kind != Kind::object) {
      error(tree.at, what_ + " must be a JSON object of settings groups");
      return {};
    }
    read_group(tree, "");
    return std::move(values_);
  }

 private:
  void error(TextPosition at, std::string message) {
    out_.push_back({file_, at.line, at.column, true, std::move(message)});
  }
  // "`ragdoll.step` of profile `brute`", or `what_` itself at the root.
  std::string where(const std::string& prefix) const {
    if (prefix.empty()) return what_;
    const std::string group = backticked(prefix.substr(0, prefix.size() - 1));
    return what_ == "the settings" ? group : group + " of " + what_;
  }

  // An object whose keys continue `prefix` ("" at the root, else "ragdoll.step.").
  void read_group(const JsonValue& object, const std::string& prefix) {
    const std::vector<std::string_view> children = children_of(prefix);
    std::unordered_set<std::string_view> seen;
    for (const JsonMember& m : object.members) {
      if (!seen.insert(m.key).second) {
        error(m.key_at, "duplicate key " + backticked(m.key) + " in " + where(prefix));
        continue;
      }
      if (std::find(children.begin(), children.end(), m.key) == children.end()) {
        std::string message = "unknown key " + backticked(m.key) + " in " + where(prefix);
        if (const auto guess = levels::closest(m.key, children))
          message += " (did you mean " + backticked(*guess) + "?)";
        error(m.key_at, message);
        continue;
      }
      const std::string key = prefix + m.key;
      if (const auto row = row_of(key)) {
        read_value(*m.value, *row);
      } else if (m.value->kind == Kind::object) {
        read_group(*m.value, key + ".");
      } else {
        error(m.value->at, backticked(key) + " must be a JSON object of settings");
      }
    }
  }

  void read_value(const JsonValue& v, std::size_t index) {
    const SettingRow& row = setting_rows()[index];
    const std::string key = backticked(row.key);
    if (v.kind != Kind::number) {
      error(v.at, key + " must be " + range_text(row) + ", got " + shown(v));
      return;
    }
    const double d = std::strtod(v.text.c_str(), nullptr);
    const bool whole_ok = !row.whole || std::floor(d) == d;
    if (!std::isfinite(d) || d < row.min || d > row.max || !whole_ok) {
      error(v.at, key + " must be " + range_text(row) + ", got " + shown(v));
      return;
    }
    values_.push_back({index, d});
  }

  // The next segments after `prefix` of every key that starts with it, each once.
  static std::vector<std::string_view> children_of(const std::string& prefix) {
    std::vector<std::string_view> children;
    for (const SettingRow& row : setting_rows()) {
      if (!row.key.starts_with(prefix)) continue;
      std::string_view rest = row.key.substr(prefix.size());
      rest = rest.substr(0, rest.find('.'));
      if (std::find(children.begin(), children.end(), rest) == children.end())
        children.push_back(rest);
    }
    return children;
  }
  static std::optional<std::size_t> row_of(const std::string& key) {
    const auto rows = setting_rows();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].key == key) return i;
    }
    return std::nullopt;
  }

  const std::string& file_;
  const std::string& what_;
  std::vector<Diagnostic>& out_;
  std::vector<SettingValue> values_;
};

void sort_by_place(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return a.line != b.line ? a.line < b.line : a.column < b.column;
                   });
}

}  // namespace

std::vector<SettingValue> read_settings(const levels::JsonValue& tree, const std::string& file,
                                        const std::string& what,
                                        std::vector<levels::Diagnostic>& diagnostics) {
  return SettingsReader(file, what, diagnostics).read(tree);
}

void apply_settings(std::span<const SettingValue> values, EnemySettings& settings) {
  const auto rows = setting_rows();
  for (const SettingValue& v : values) rows[v.row].set(settings, v.value);
}

std::uint64_t settings_hash(const EnemySettings& settings) {
  std::uint64_t hash = fnv1a_64(nullptr, 0);
  for (const SettingRow& row : setting_rows()) {
    hash = fnv1a_64(row.key.data(), row.key.size(), hash);
    const double value = row.get(settings);
    if (row.whole) {
      const auto whole = static_cast<std::int32_t>(value);
      hash = fnv1a_64(&whole, sizeof(whole), hash);
    } else {
      const auto real = static_cast<float>(value);
      hash = fnv1a_64(&real, sizeof(real), hash);
    }
  }
  return hash;
}

std::string settings_json(const EnemySettings& settings) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const SettingRow& row : setting_rows()) {
    nlohmann::ordered_json o;
    o["key"] = row.key;
    o["default"] = json_number(row.get(settings), row.whole);
    o["unit"] = row.unit;
    o["min"] = json_number(row.min, row.whole);
    o["max"] = json_number(row.max, row.whole);
    o["description"] = row.description;
    list.push_back(std::move(o));
  }
  nlohmann::ordered_json j;
  j["settings"] = std::move(list);
  return j.dump(2) + "\n";
}

Result<SettingsFile> load_settings_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ":1:1: error: cannot open the settings file"};
  std::ostringstream text;
  text << in.rdbuf();
  const auto parsed = levels::parse_json_with_positions(text.str());
  if (const auto* syntax = std::get_if<levels::JsonSyntaxError>(&parsed)) {
    return Error{levels::format(
        {path, syntax->at.line, syntax->at.column, true, "not valid JSON: " + syntax->message})};
  }
  std::vector<Diagnostic> diagnostics;
  SettingsFile file{path, {}};
  apply_settings(read_settings(std::get<JsonValue>(parsed), path, "the settings", diagnostics),
                 file.settings);
  if (diagnostics.empty()) return file;
  sort_by_place(diagnostics);
  std::string message;
  for (const Diagnostic& d : diagnostics) message += (message.empty() ? "" : "\n") + format(d);
  return Error{message};
}

std::vector<SettingsProfile> read_profiles(const levels::Level& level, const std::string& file,
                                           std::vector<levels::Diagnostic>& diagnostics) {
  std::vector<SettingsProfile> profiles;
  for (const levels::Profile& p : level.profiles) {
    const std::string what = p.name.empty() ? "profile " + std::to_string(profiles.size())
                                            : "profile " + backticked(p.name);
    profiles.push_back({p.name, read_settings(p.settings, file, what, diagnostics)});
  }
  return profiles;
}

void check_profiles(levels::LoadResult& loaded, const std::string& file) {
  const std::size_t before = loaded.diagnostics.size();
  (void)read_profiles(loaded.level, file, loaded.diagnostics);
  if (loaded.diagnostics.size() != before) sort_by_place(loaded.diagnostics);
}

}  // namespace stagger::sim
