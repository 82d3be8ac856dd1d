#pragma once
// Runs the `stagger` executable for end-to-end tests: exit code, stdout and stderr.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace stagger::test {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

/// Runs `stagger ARGS` through the shell; ARGS is used verbatim. `env` (`NAME=value ...`)
/// sets variables for that run only.
inline ProcessResult run_stagger(const std::string& args, const std::string& env = "") {
  const auto dir = std::filesystem::temp_directory_path();
  const auto err_path = dir / ("stagger_test_err_" + std::to_string(::getpid()) + ".txt");
  const std::string command = (env.empty() ? "" : "env " + env + " ") + "\"" + STAGGER_EXE + "\" " +
                              args + " 2>\"" + err_path.string() + "\"";
  ProcessResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = read_file(err_path);
  std::filesystem::remove(err_path);
  return result;
}

/// A fresh file path in the temporary folder (not created).
inline std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("stagger_test_" + std::to_string(::getpid()) + "_" + name);
}

}  // namespace stagger::test
