#pragma once
// The little-endian fields of Stagger's binary files (recordings, death clip libraries): a
// writer that appends them and a reader that checks each against the bytes left before anything
// is taken or allocated.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stagger::sim::byte_io {

class Writer {
 public:
  void bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    out_.insert(out_.end(), p, p + size);
  }
  void u8(std::uint8_t v) { out_.push_back(v); }
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

// Reads fields in order, each checked against the bytes left before anything is taken or
// allocated; the first one that does not fit names itself (and the context, when one is set) in
// the error, and every later read gives 0 or "".
class Reader {
 public:
  Reader(std::string_view in, std::size_t end, std::string_view source)
      : in_(in), end_(end), source_(source) {}
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  /// Words that follow every field's name in an error (" of clip 3"); empty: none.
  void set_context(std::string context) { context_ = std::move(context); }
  std::uint64_t u(std::size_t size, const char* field) {
    if (!need(size, field)) return 0;
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < size; ++i)
      v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(in_[at_ + i])) << (8 * i);
    at_ += size;
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
    const std::uint64_t size = u(4, field);
    if (!need(size, field)) return {};
    std::string s(in_.substr(at_, static_cast<std::size_t>(size)));
    at_ += static_cast<std::size_t>(size);
    return s;
  }
  /// Whether `size` more bytes are there; else the error names `field`.
  bool need(std::uint64_t size, const char* field) {
    if (!ok()) return false;
    if (left() < size) {
      error_ = std::string(source_) + ": truncated or damaged: the file ends inside " + field +
               context_ + " (at byte " + std::to_string(at_) + ")";
      return false;
    }
    return true;
  }
  std::size_t at() const { return at_; }
  std::size_t left() const { return end_ - at_; }

 private:
  std::string_view in_;
  std::size_t end_;
  std::string_view source_;
  std::size_t at_ = 0;
  std::string error_;
  std::string context_;
};

inline std::uint64_t little_endian_u64(std::string_view bytes, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i)
    v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes[at + i])) << (8 * i);
  return v;
}

}  // namespace stagger::sim::byte_io
