// The C test-control API (include/stagger/simxr/control.h).
#include "stagger/simxr/control.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "math.h"
#include "profiles.h"
#include "state.h"

namespace sx = stagger::simxr;

namespace {

std::unique_lock<std::mutex> lock_runtime() {
  return std::unique_lock<std::mutex>(sx::runtime_mutex());
}

bool valid_hand(int hand) {
  return hand == STAGGER_SIMXR_HAND_LEFT || hand == STAGGER_SIMXR_HAND_RIGHT;
}

sx::HandState& hand_state(int hand) {
  return sx::runtime().hands[static_cast<std::size_t>(hand)];
}

}  // namespace

extern "C" {

int stagger_simxr_load_script(const char* json_text, char* error, size_t error_size) {
  auto lock = lock_runtime();
  std::string message;
  const auto script = json_text != nullptr ? sx::parse_script(json_text, message) : std::nullopt;
  if (!script) {
    if (json_text == nullptr) message = "no script text";
    if (error != nullptr && error_size > 0) {
      std::strncpy(error, message.c_str(), error_size - 1);
      error[error_size - 1] = '\0';
    }
    return -1;
  }
  sx::apply_script(*script, false);
  return 0;
}

void stagger_simxr_reset(void) {
  auto lock = lock_runtime();
  sx::reset_simulation();
}

int stagger_simxr_set_hand_pose(int hand, const float position[3], const float orientation[4]) {
  if (!valid_hand(hand) || position == nullptr) return -1;
  auto lock = lock_runtime();
  sx::HandState& h = hand_state(hand);
  h.path.clear();
  h.pose.position = {position[0], position[1], position[2]};
  h.pose.orientation =
      orientation != nullptr
          ? sx::normalized({orientation[0], orientation[1], orientation[2], orientation[3]})
          : sx::identity_quat();
  return 0;
}

int stagger_simxr_set_hand_velocity(int hand, const float linear[3], const float angular[3]) {
  if (!valid_hand(hand) || linear == nullptr || angular == nullptr) return -1;
  auto lock = lock_runtime();
  sx::HandState& h = hand_state(hand);
  h.linear_velocity = {linear[0], linear[1], linear[2]};
  h.angular_velocity = {angular[0], angular[1], angular[2]};
  return 0;
}

int stagger_simxr_set_hand_tracking(int hand, int tracking) {
  if (!valid_hand(hand) || tracking < STAGGER_SIMXR_TRACKED || tracking > STAGGER_SIMXR_LOST)
    return -1;
  auto lock = lock_runtime();
  hand_state(hand).tracking = static_cast<sx::Tracking>(tracking);
  return 0;
}

int stagger_simxr_set_head(const float position[3], float yaw_rad) {
  if (position == nullptr) return -1;
  auto lock = lock_runtime();
  sx::runtime().head_position = {position[0], position[1], position[2]};
  sx::runtime().head_yaw_rad = yaw_rad;
  return 0;
}

int stagger_simxr_set_input(int hand, const char* input, float x, float y) {
  if (!valid_hand(hand) || input == nullptr) return -1;
  static const char* const kInputs[] = {
      "trigger",  "squeeze",        "grip",   "thumbstick", "thumbstick_click",
      "trackpad", "trackpad_click", "a",      "b",          "x",
      "y",        "menu",           "system", "select",     "thumbrest"};
  const bool known = std::any_of(std::begin(kInputs), std::end(kInputs),
                                 [&](const char* k) { return std::strcmp(k, input) == 0; });
  if (!known) return -1;
  auto lock = lock_runtime();
  const std::string name = std::strcmp(input, "grip") == 0 ? "squeeze" : input;
  sx::set_input(hand, name, {x, y}, sx::now_ns(), 0);
  return 0;
}

int stagger_simxr_set_interaction_profile(const char* profile_path) {
  if (profile_path == nullptr || sx::find_simulated_profile(profile_path) == nullptr) return -1;
  auto lock = lock_runtime();
  sx::ScriptEvent e;
  e.type = sx::EventType::Profile;
  e.profile = profile_path;
  e.frame = 0;
  sx::runtime().pending.push_back({e, false});
  sx::pump();
  return 0;
}

int stagger_simxr_queue_event(int event, uint32_t delay_frames) {
  // Indexed by the StaggerSimxrEvent values, which count up from 0.
  static constexpr sx::EventType kTypes[] = {sx::EventType::FocusLoss, sx::EventType::FocusGain,
                                             sx::EventType::LossPending, sx::EventType::Exit};
  static_assert(std::size(kTypes) == STAGGER_SIMXR_EVENT_EXIT + 1);
  if (event < 0 || event >= static_cast<int>(std::size(kTypes))) return -1;
  sx::ScriptEvent e;
  e.type = kTypes[event];
  auto lock = lock_runtime();
  e.frame = sx::runtime().frames_total + delay_frames;
  sx::runtime().pending.push_back({e, false});
  return 0;
}

void stagger_simxr_set_display_hz(double hz) {
  auto lock = lock_runtime();
  sx::runtime().display_hz = hz < 0.0 ? 0.0 : hz;
}

uint32_t stagger_simxr_haptic_count(void) {
  auto lock = lock_runtime();
  return static_cast<uint32_t>(sx::runtime().haptics.size());
}

int stagger_simxr_get_haptic(uint32_t index, StaggerSimxrHaptic* out) {
  auto lock = lock_runtime();
  const auto& log = sx::runtime().haptics;
  if (out == nullptr || index >= log.size()) return -1;
  const sx::HapticRecord& h = log[index];
  *out = {h.time_s, h.hand, h.amplitude, h.duration_ns, h.frequency_hz, h.delivered ? 1 : 0};
  return 0;
}

void stagger_simxr_clear_haptics(void) {
  auto lock = lock_runtime();
  sx::runtime().haptics.clear();
}

uint64_t stagger_simxr_frames_submitted(void) {
  auto lock = lock_runtime();
  return sx::runtime().frames_submitted;
}

uint64_t stagger_simxr_frames_total(void) {
  auto lock = lock_runtime();
  return sx::runtime().frames_total;
}

uint32_t stagger_simxr_sessions_created(void) {
  auto lock = lock_runtime();
  return sx::runtime().sessions_created;
}

size_t stagger_simxr_read_view_image(uint32_t view, uint32_t* width, uint32_t* height,
                                     uint8_t* rgba, size_t capacity) {
  auto lock = lock_runtime();
  sx::finish_readbacks();
  const auto& images = sx::runtime().view_images;
  if (view >= images.size() || images[view].rgba.empty()) return 0;
  const sx::ViewImage& image = images[view];
  if (width != nullptr) *width = image.width;
  if (height != nullptr) *height = image.height;
  if (rgba != nullptr && capacity >= image.rgba.size())
    std::memcpy(rgba, image.rgba.data(), image.rgba.size());
  return image.rgba.size();
}

uint32_t stagger_simxr_error_count(void) {
  auto lock = lock_runtime();
  return sx::runtime().error_count;
}

}  // extern "C"
