#pragma once
// What happens to the enemies of a running Simulation, for a game to react to: a shove landed, a
// fall, a get-up, a punch thrown or landed on the player, a death. Simulation::events() holds
// those of the last step; Simulation::on_event calls a function as each one happens.

#include <cstdint>
#include <string_view>

#include "stagger/core/math.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/skeleton.h"

namespace stagger::sim {

/// An enemy of a Simulation: its index in spawn order (Scene::enemies), never reused, so that
/// an id kept by a game names the same enemy, or a removed one, for the whole run.
enum class EnemyId : std::uint32_t {};

enum class EventKind : std::uint8_t {
  shoved,         ///< an impulse reached a body part (a push, a blow by a hand)
  fell,           ///< the drives let go; `cause` says why
  got_up,         ///< it stood up again
  punch_thrown,   ///< its brain started a punch at the player
  punch_blocked,  ///< its forearm met a solid physics hand raised to guard first
  punch_landed,   ///< its fist reached the player's head or torso
  died,           ///< killed: limp for good
};
std::string_view name_of(EventKind kind);

/// Which of the player's volumes a punch reached.
enum class PlayerPart : std::uint8_t { head, torso };
std::string_view name_of(PlayerPart part);

struct EnemyEvent {
  EnemyId enemy{};
  EventKind kind = EventKind::shoved;
  double time_s = 0;                                  ///< [s] simulated time when it happened
  physics::BodyPart part = physics::BodyPart::chest;  ///< shoved: the part struck
  /// [N·s] shoved: the blow; punch_landed: the fist's momentum as it reached the player;
  /// punch_blocked: the hand's contact impulse on the arm
  Vec3 impulse;
  physics::FallCause cause = physics::FallCause::lost_balance;  ///< fell: why
  PlayerPart player_part = PlayerPart::head;                    ///< punch_landed: where
};

/// The player's body as the enemies' fists meet it: a head sphere and a torso capsule hanging
/// below it, measured from the head and feet the game reports (Simulation::set_player).
struct PlayerVolumes {
  float head_radius_m = 0.12f;             ///< [m]
  float torso_radius_m = 0.2f;             ///< [m]
  float torso_top_below_head_m = 0.3f;     ///< [m] the capsule's upper end, below the head centre
  float torso_bottom_above_feet_m = 0.9f;  ///< [m] its lower end, above the feet
};

}  // namespace stagger::sim
