#pragma once
// Falling and getting up: when an upright body gives up, how a fallen one comes to lie still
// and lies down, and the get-up itself (tuck, rise with a capped lift of the pelvis and a boosted
// uprighting drive, stand), its success or failure, and the assistance letting go afterwards.

#include <array>
#include <optional>

#include "body_sense.h"
#include "stagger/physics/pose.h"
#include "stagger/physics/ragdoll_rig.h"

namespace stagger::physics {

class GetUpController {
 public:
  struct State {
    float past_fall_error_s = 0;  ///< [s] walking: how long the error has been past the threshold
    float still_s = 0;            ///< [s] lying still (falling, down)
    float resting_s = 0;          ///< [s] no body moved farther than still_drift_m (falling, down)
    bool rest_set = false;        ///< rest_from holds where the bodies lay
    std::array<Vec3, kBodyPartCount> rest_from{};  ///< [m] each body, when resting_s began
    float resistance_s = 0;                        ///< [s] harder to knock down until this runs out
    float facing_yaw = 0;                          ///< [rad] the heading the body stands up to
    Vec3 anchor;                                   ///< [m] pelvis position when the rise began
    bool lying = false;            ///< down on gentle ground: legs laid out, rolling flat
    bool prone = false;            ///< lying face down (as it lay down, as the attempt began)
    bool on_steep_ground = false;  ///< ... on ground steeper than fall_line_slope_deg
    bool turning = false;          ///< face down on steep ground, turning head-up
    float turn_overrun_s = 0;      ///< [s] how long the turn outlasted the tuck
    bool rising = false;           ///< past the tuck
    bool settling = false;         ///< fallen: has hit the ground, tensed and damped
    float assist_fade_s = 0;       ///< [s] the assistance still letting go after standing
    int failed_attempts = 0;       ///< failures since the last success
    float lagging_s = 0;           ///< [s] rising: how long the pelvis has lagged its plan
    float last_update_s = 0;       ///< [s] into the attempt, at the last update
  };

  GetUpController(RagdollRig& rig, const BodySense& sense) : rig_(rig), sense_(sense) {}

  /// The fall thresholds of an upright body walking at `commanded` [m/s]: raised just after a
  /// get-up, and widened by the half step the gait's capture point runs ahead.
  BalanceSettings fall_thresholds(Vec3 commanded) const;
  /// Whether an upright body gives up (falls) this step. `judged_at_once`: hit recently (a shove
  /// is judged at once; otherwise the next step may still catch the body).
  bool gives_up(const BalanceSettings& thresholds, bool judged_at_once, float dt);
  /// Counts down the resistance after a get-up; true in the step it runs out.
  bool resistance_ran_out(float dt);
  bool resisting() const { return state_.resistance_s > 0; }

  /// The drives let go: forget the attempt in progress.
  void on_fall();
  /// Falling or dead: once the body has hit the ground, tenses it and damps it so that it comes
  /// to rest instead of rolling on.
  void settle_on_impact();
  /// Lying: true once every body has been still long enough (falling -> down).
  bool lain_still(float dt);
  bool stays_down() const;
  /// Whether a body that has come to rest lies down (legs laid out, rolled flat) before its
  /// attempt: on gentle ground, when it will get up at all.
  bool lies_down() const { return !stays_down() && !fall_line(); }
  /// Down on gentle ground, drives on: blends the legs to `lying_pose`.
  void lie_down(PoseBlend& pose);
  /// Lying down, every step: rolls the body flat onto its front or back.
  void lie() { roll_flat(); }
  bool lying() const { return state_.lying; }
  /// Whether the attempt may start, `down_s` [s] after the body came to rest.
  bool ready_to_rise(float down_s) const;
  /// Starts an attempt from the way the body lies; blends into the tuck.
  void start(PoseBlend& pose);
  /// The rise: `t` [s] into the attempt.
  void update(float t, PoseBlend& pose);
  /// The way up the ground under the body (horizontal, unit) where it is steeper than
  /// `fall_line_slope_deg`; none on gentler ground or with no ground in reach.
  std::optional<Vec3> fall_line() const;
  /// Through the tuck: rolls a body lying on its side flat onto its front or back.
  void roll_flat();
  /// Through the tuck (and past it if need be): turns a body lying face down on steep ground
  /// about the vertical until its head points up the fall line `uphill`; true once it does.
  bool turn_head_up(Vec3 uphill);
  /// [m] the height of the ground under the lower foot.
  float ground_under_feet() const;
  void track_progress(float t, float planned_height);
  /// Whether the rise has lagged its plan long enough to be given up.
  bool failing() const;
  /// Whether the attempt has stood, `t` [s] into it.
  bool stood(float t) const;
  bool timed_out(float t) const { return stage_time(t) > rig_.settings().get_up.timeout_s; }
  /// Ends the attempt: the lift lets go at once on failure, fades out after a success.
  void finish(bool stood);
  /// After standing, the lift and the boosted uprighting let go over a moment, not at once.
  void fade_assistance(float dt);
  bool assist_fading() const { return state_.assist_fade_s > 0; }

  float facing_yaw() const { return state_.facing_yaw; }
  bool prone() const { return state_.prone; }
  int get_ups() const { return get_ups_; }
  void reset() { state_ = {}; }

 private:
  /// Whether no body has moved farther than `drift` [m] from where it lay when the current rest
  /// began; where one has, a new rest begins here.
  bool stayed_put(float drift);
  /// [-] how far the belly (pelvis +Z) points up: -1 lying face down, 1 face up, 0 on the side.
  float belly_up() const;
  /// [-] the uprighting cap's multiplier while rising: higher on steep ground.
  float rise_boost() const;
  /// [s] `t` into the attempt less the turn's overrun: the stages' clock.
  float stage_time(float t) const { return t - state_.turn_overrun_s; }

  RagdollRig& rig_;
  const BodySense& sense_;
  State state_;
  int get_ups_ = 0;  // kept by reset
};

}  // namespace stagger::physics
