#pragma once
// Result<T>: a value or an error message, for failures a user can cause (bad files, bad input).

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "stagger/core/assert.h"

namespace stagger {

struct Error {
  std::string message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : data_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(data_); }
  explicit operator bool() const { return ok(); }

  const T& value() const& {
    STAGGER_ASSERT(ok());
    return std::get<T>(data_);
  }
  T& value() & {
    STAGGER_ASSERT(ok());
    return std::get<T>(data_);
  }
  T&& value() && {
    STAGGER_ASSERT(ok());
    return std::get<T>(std::move(data_));
  }
  const std::string& error() const {
    STAGGER_ASSERT(!ok());
    return std::get<Error>(data_).message;
  }

 private:
  std::variant<T, Error> data_;
};

/// Success or an error message, for an operation that returns nothing else (`return {};` for
/// success).
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const std::string& error() const {
    STAGGER_ASSERT(!ok());
    return error_->message;
  }

 private:
  std::optional<Error> error_;
};

}  // namespace stagger
