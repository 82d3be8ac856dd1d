#include "stagger/sim/recording.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace stagger::sim {

namespace {

constexpr char kMagic[8] = {'S', 'T', 'A', 'G', 'R', 'E', 'C', '\n'};

class Writer {
 public:
  void bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    out_.insert(out_.end(), p, p + size);
  }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void f32(float v) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, 4);
    u32(bits);
  }
  void f64(double v) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, 8);
    u64(bits);
  }
  void text(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes(s.data(), s.size());
  }
  std::vector<std::uint8_t>& out() { return out_; }

 private:
  std::vector<std::uint8_t> out_;
};

// Reads fields in order; the first one that does not fit names itself in the error.
class Reader {
 public:
  Reader(const std::vector<std::uint8_t>& in, std::size_t end, std::string source)
      : in_(in), end_(end), source_(std::move(source)) {}
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  std::uint64_t u(int size, const char* field) {
    if (!need(static_cast<std::size_t>(size), field)) return 0;
    std::uint64_t v = 0;
    for (int i = 0; i < size; ++i) v |= static_cast<std::uint64_t>(in_[at_ + static_cast<std::size_t>(i)]) << (8 * i);
    at_ += static_cast<std::size_t>(size);
    return v;
  }
  float f32(const char* field) {
    const auto bits = static_cast<std::uint32_t>(u(4, field));
    float v = 0;
    std::memcpy(&v, &bits, 4);
    return v;
  }
  double f64(const char* field) {
    const std::uint64_t bits = u(8, field);
    double v = 0;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  std::string text(const char* field) {
    const auto size = static_cast<std::size_t>(u(4, field));
    if (!need(size, field)) return {};
    std::string s(reinterpret_cast<const char*>(in_.data() + at_), size);
    at_ += size;
    return s;
  }
  std::size_t at() const { return at_; }

 private:
  bool need(std::size_t size, const char* field) {
    if (!ok()) return false;
    if (end_ - at_ < size) {
      error_ = source_ + ": truncated or damaged: the file ends inside " + field + " (at byte " + std::to_string(at_) + ")";
      return false;
    }
    return true;
  }
  const std::vector<std::uint8_t>& in_;
  std::size_t end_;
  std::string source_;
  std::size_t at_ = 0;
  std::string error_;
};

}  // namespace

std::uint64_t fnv1a_64(const void* data, std::size_t size, std::uint64_t hash) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::vector<std::uint8_t> encode_recording(const Recording& r) {
  Writer w;
  w.bytes(kMagic, sizeof(kMagic));
  w.u32(Recording::kVersion);
  w.text(r.level_path);
  w.u64(r.level_hash);
  w.u32(static_cast<std::uint32_t>(r.builtin_enemies));
  w.f32(r.physics_hz);
  w.u32(static_cast<std::uint32_t>(r.solver_iterations));
  w.f64(r.display_hz);
  w.f64(r.seconds);
  w.text(r.input_name);
  w.text(r.input_script);
  w.u64(r.step_hashes.size());
  for (std::uint64_t h : r.step_hashes) w.u64(h);
  w.u64(fnv1a_64(w.out().data(), w.out().size()));
  return std::move(w.out());
}

Result<Recording> decode_recording(const std::vector<std::uint8_t>& bytes, const std::string& source) {
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    return Error{source + ": not a stagger recording (it does not start with \"STAGREC\")"};
  }
  constexpr std::size_t kChecksum = 8;
  const std::size_t body_end = bytes.size() >= kChecksum ? bytes.size() - kChecksum : 0;
  Reader in(bytes, body_end, source);
  in.u(8, "the magic");
  const auto version = static_cast<std::uint32_t>(in.u(4, "the version"));
  if (in.ok() && version != Recording::kVersion) {
    return Error{source + ": recording version " + std::to_string(version) + " is not supported (this stagger reads version " +
                 std::to_string(Recording::kVersion) + ")"};
  }
  Recording r;
  r.level_path = in.text("the level path");
  r.level_hash = in.u(8, "the level hash");
  r.builtin_enemies = static_cast<std::int32_t>(in.u(4, "the enemy count"));
  r.physics_hz = in.f32("the physics rate");
  r.solver_iterations = static_cast<std::int32_t>(in.u(4, "the solver iterations"));
  r.display_hz = in.f64("the display rate");
  r.seconds = in.f64("the duration");
  r.input_name = in.text("the input script's name");
  r.input_script = in.text("the input script");
  const std::uint64_t steps = in.u(8, "the step count");
  if (in.ok() && steps > (body_end - in.at()) / 8) {
    return Error{source + ": truncated or damaged: " + std::to_string(steps) + " step hashes announced, room for " +
                 std::to_string((body_end - in.at()) / 8)};
  }
  for (std::uint64_t i = 0; i < steps && in.ok(); ++i) r.step_hashes.push_back(in.u(8, "the step hashes"));
  if (!in.ok()) return Error{in.error()};
  if (in.at() != body_end) {
    return Error{source + ": damaged: " + std::to_string(body_end - in.at()) + " bytes follow the step hashes"};
  }
  std::uint64_t stored = 0;
  for (int i = 0; i < 8; ++i) stored |= static_cast<std::uint64_t>(bytes[body_end + static_cast<std::size_t>(i)]) << (8 * i);
  if (stored != fnv1a_64(bytes.data(), body_end)) {
    return Error{source + ": damaged or changed: the checksum does not match its contents"};
  }
  return r;
}

Result<bool> write_recording(const Recording& recording, const std::string& path) {
  const std::vector<std::uint8_t> bytes = encode_recording(recording);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) return Error{path + ": cannot write the recording"};
  return true;
}

Result<Recording> read_recording(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open the recording"};
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return decode_recording(bytes, path);
}

}  // namespace stagger::sim
