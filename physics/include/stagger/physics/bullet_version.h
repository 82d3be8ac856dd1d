#pragma once
// The Bullet version this library was built against, for `stagger --version` and bug reports:
// results are bit for bit only on one build of Bullet (docs/design.md, Determinism), and the
// replacements of Bullet internals in physics/src/bullet_ext are written against one version.

#include <string>

namespace stagger::physics {

/// Bullet's version as `MAJOR.MINOR` (for example `3.24`), from BT_BULLET_VERSION in the headers
/// the physics library was compiled with.
std::string bullet_version();

}  // namespace stagger::physics
