#pragma once
// Altered from Bullet Physics (zlib licence, Copyright (c) 2003-2006 Erwin Coumans): see
// BULLET_LICENSE in this folder.
// The rows of a driven joint written without Bullet's generic 6Dof2 path, with Bullet's results
// bit for bit (docs/physics.md, Bullet extensions: the claim and the StockBullet tests that check
// it).

#include <btBulletDynamicsCommon.h>

namespace stagger::physics {

/// Bullet's matrixToEulerXYZ with the same arithmetic, reading the matrix directly (Bullet reads
/// element k through an out-of-line btGetMatrixElem: row k % 3, column k / 3).
btVector3 euler_xyz(const btMatrix3x3& m);

/// 6Dof2 whose per-step set-up reuses the frame transforms and Euler angles that the drive
/// update computed this step (Bullet's getInfo1 computes them again from the same body poses:
/// two arctangents and an arcsine per joint, about 4 % of a walking ragdoll's step), and whose
/// rows are written by a getInfo2 for the only rows a driven joint has: locked or free linear
/// axes, and angular axes with limits and velocity motors. It writes what Bullet's writes, with
/// the same arithmetic, without the generic path's per-axis copies of the limit state and its
/// branches for springs and servos (Bullet's getInfo2 still writes the rows of servos and
/// springs: the benchmark baseline's joints).
class DrivenConstraint final : public btGeneric6DofSpring2Constraint {
 public:
  using btGeneric6DofSpring2Constraint::btGeneric6DofSpring2Constraint;

  /// Stock: Bullet's calculateTransforms, getInfo1 and getInfo2 (WorldSettings::bullet_extensions
  /// off).
  void set_stock(bool stock) { stock_ = stock; }

  /// Computes the transforms and angles for this step's drive update and the solver.
  void refresh();
  void getInfo1(btConstraintInfo1* info) override;
  void getInfo2(btConstraintInfo2* info) override;

 private:
  /// Bullet's calculateTransforms with fewer steps and the same results.
  void update_frames();
  /// Whether every row is a kind that the getInfo2 here writes.
  bool plain_rows() const;
  int angular_rows(btConstraintInfo2* info, int row);
  void linear_rows(btConstraintInfo2* info, int row);

  bool fresh_ = false;
  bool stock_ = false;  // set by refresh(), used up by getInfo1 in the same step
};

}  // namespace stagger::physics
