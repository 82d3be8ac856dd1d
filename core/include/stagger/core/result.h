#pragma once
// Result<T>: a value or an error message, for failures a user can cause (bad files, bad input).

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

}  // namespace stagger
