#pragma once
// Reading and writing level files. Every problem of a file is reported, each as
// `FILE:LINE:COL: error: message` (docs/design.md, Diagnostics), not only the first.

#include <string>
#include <string_view>
#include <vector>

#include "stagger/levels/level.h"
#include "stagger/levels/mesh.h"

namespace stagger::levels {

struct Diagnostic {
  std::string file;
  int line = 1;
  int column = 1;
  bool error = true;  ///< false: a warning
  std::string message;
};
/// `FILE:LINE:COL: error: message`
std::string format(const Diagnostic& d);

/// Where things of a loaded level stand in its file, for diagnostics found after loading
/// (reachability). Parallel to the level's lists.
struct SourceMap {
  Diagnostic player;                                  ///< file, line, column of the player start
  std::vector<Diagnostic> enemies;                    ///< one per enemy
  std::vector<std::vector<Diagnostic>> route_points;  ///< per route, per point
};

struct LoadResult {
  Level level;  ///< complete only when there are no errors
  /// The triangles of each of `level.meshes`, placed in the level (empty when not read: no
  /// base folder given, or errors).
  std::vector<TriangleMesh> mesh_triangles;
  std::vector<Diagnostic> diagnostics;  ///< in file order
  SourceMap where;                      ///< positions of the player, enemies and route points
  bool ok() const;                      ///< no errors (warnings allowed)
};

/// Parses level text. `file` names it in diagnostics; mesh files are looked up and read relative
/// to `base_dir` (an empty string skips them).
LoadResult parse_level(std::string_view text, const std::string& file, const std::string& base_dir);
/// Reads and parses a level file.
LoadResult load_level(const std::string& path);
/// Parses a glTF level (`binary`: a .glb) from its bytes. `file` names it in diagnostics and gives
/// the level its name. External buffers are read relative to `base_dir`; with an empty one no
/// file is opened, and a level that needs one gets a diagnostic.
LoadResult parse_gltf_level(std::string_view bytes, const std::string& file, bool binary,
                            const std::string& base_dir);

/// The level as version-1 JSON; loading the text gives an equal level.
std::string save_level(const Level& level);

}  // namespace stagger::levels
