#pragma once
// `stagger clips build LEVEL -o FILE.stclip` records a level's death clips; `stagger clips info
// FILE` lists them; `stagger export FILE.stclip -o OUT.gltf` (run_export_clips) draws them.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace stagger::app {

struct ClipsOptions {
  std::string level;   // build: the level file
  std::string output;  // build: the library to write
  int deaths = 16;
  std::uint64_t seed = 1;
  float impulse_ns = 150.0f;  // [N·s]
  bool quiet = false;
  std::string file;  // info: the library to list
};

struct ClipsCommands {
  CLI::App* clips = nullptr;
  CLI::App* build = nullptr;
  CLI::App* info = nullptr;
};

/// Adds `clips` and its subcommands `build` and `info` to `app`, their options into `options`.
ClipsCommands add_clips_commands(CLI::App& app, ClipsOptions& options);
/// Runs the `clips` subcommand that was parsed; an exit code.
int run_clips(const ClipsCommands& commands, const ClipsOptions& options);

/// Whether `path` names a death clip library (by its `.stclip` extension).
bool is_clip_library(const std::string& path);
/// `stagger export FILE.stclip -o OUT.gltf`; an exit code.
int run_export_clips(const std::string& path, const std::string& out);

}  // namespace stagger::app
