#pragma once
// Enemy tuning as data. Every number an enemy's body and mind are tuned by has one row in one
// table: its key in a settings file (the C++ members' names, grouped as the structs nest them:
// `ragdoll.balance.fall_error_m`), unit, range, a one-line description and the field it sets. The
// table reads `--settings` files and a level's `profiles` (with every problem at its place in the
// file), checks ranges, lists the settings (`stagger settings`) and hashes them for the report.
// The settings themselves stay plain structs (physics::RagdollSettings, ai::BrainSettings, ...):
// the table reads and writes them, nothing else changes.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stagger/ai/brain.h"
#include "stagger/ai/patrol.h"
#include "stagger/ai/perception.h"
#include "stagger/core/result.h"
#include "stagger/levels/json_tree.h"
#include "stagger/levels/load.h"
#include "stagger/physics/ragdoll_settings.h"

namespace stagger::sim {

/// Everything one enemy is tuned by: its body and its mind.
struct EnemySettings {
  physics::RagdollSettings ragdoll;
  ai::BrainSettings brain;
  ai::PerceptionSettings perception;
  ai::PatrolSettings patrol;
};

/// One setting.
struct SettingRow {
  std::string_view key;   ///< its path in a settings file, `group.group.member`
  std::string_view unit;  ///< `m`, `s`, `N·m`, ...; `-` for a ratio, `count` for a number of things
  double min = 0;         ///< the range a file may set, inclusive
  double max = 0;
  std::string_view description;  ///< one line
  bool whole = false;            ///< a whole number (an `int` field)
  double (*get)(const EnemySettings&) = nullptr;
  void (*set)(EnemySettings&, double) = nullptr;
};

/// Every setting, grouped as the structs nest them.
std::span<const SettingRow> setting_rows();

/// A value a file gives one setting.
struct SettingValue {
  std::size_t row = 0;  ///< in setting_rows()
  double value = 0;
  bool operator==(const SettingValue&) const = default;
};

/// Reads a settings tree: an object of groups (`ragdoll`, `brain`, `perception`, `patrol`), each
/// an object of its settings and of its own groups (`ragdoll.balance`), every setting a number in
/// its range. Unknown keys (with a suggestion), repeated keys, wrong types and values out of range
/// are reported in `diagnostics` at their places in `file`; `what` names the tree in messages
/// ("the settings", "profile `brute`"). Returns the values that were good, in file order.
std::vector<SettingValue> read_settings(const levels::JsonValue& tree, const std::string& file,
                                        const std::string& what,
                                        std::vector<levels::Diagnostic>& diagnostics);

/// Sets each value's field.
void apply_settings(std::span<const SettingValue> values, EnemySettings& settings);

/// 64-bit FNV-1a over every setting's key and value in table order (floats as their bits): equal
/// hashes, equal settings.
std::uint64_t settings_hash(const EnemySettings& settings);

/// `stagger settings`: every setting with its value in `settings` (the default), unit, range and
/// description, as a JSON document `{ "settings": [ { "key", "default", "unit", "min", "max",
/// "description" }, ... ] }`.
std::string settings_json(const EnemySettings& settings);

/// A `--settings` file: the built-in defaults with its values set.
struct SettingsFile {
  std::string path;
  EnemySettings settings;
};
/// Reads and checks a settings file; the error holds every problem, one
/// `FILE:LINE:COL: error: message` a line.
Result<SettingsFile> load_settings_file(const std::string& path);

/// A level's profile, read against the table.
struct SettingsProfile {
  std::string name;
  std::vector<SettingValue> values;
  bool operator==(const SettingsProfile&) const = default;
};

/// The level's profiles read against the table; their problems go to `diagnostics`, at their
/// places in `file` (the level file).
std::vector<SettingsProfile> read_profiles(const levels::Level& level, const std::string& file,
                                           std::vector<levels::Diagnostic>& diagnostics);

/// What `stagger check` adds to a loaded level's diagnostics: its profiles' problems, merged in
/// file order.
void check_profiles(levels::LoadResult& loaded, const std::string& file);

}  // namespace stagger::sim
