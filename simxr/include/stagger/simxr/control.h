/* Test-control API of the Stagger simulated OpenXR runtime (libstagger_simxr.so).
 *
 * The OpenXR loader dlopen()s the runtime into the application's process, so a test can reach the
 * very same runtime state either by linking libstagger_simxr.so or by
 * dlopen("<dir>/libstagger_simxr.so", RTLD_NOW | RTLD_NOLOAD) + dlsym("stagger_simxr_...").
 * All functions are thread-safe (one runtime-wide lock) and may be called before any XrInstance
 * exists. Functions returning int return 0 on success and -1 on a bad argument.
 *
 * Units: metres, seconds, radians/second; positions and orientations in STAGE space
 * (origin on the floor, +Y up, -Z forward), quaternions as (x, y, z, w).
 */
#ifndef STAGGER_SIMXR_CONTROL_H
#define STAGGER_SIMXR_CONTROL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STAGGER_SIMXR_API __attribute__((visibility("default")))

typedef enum StaggerSimxrHand {
  STAGGER_SIMXR_HAND_LEFT = 0,
  STAGGER_SIMXR_HAND_RIGHT = 1
} StaggerSimxrHand;

typedef enum StaggerSimxrTracking {
  STAGGER_SIMXR_TRACKED = 0,   /* pose VALID | TRACKED */
  STAGGER_SIMXR_UNTRACKED = 1, /* pose VALID, not TRACKED (inferred / last known) */
  STAGGER_SIMXR_LOST = 2       /* neither flag */
} StaggerSimxrTracking;

typedef enum StaggerSimxrEvent {
  STAGGER_SIMXR_EVENT_FOCUS_LOSS = 0,   /* FOCUSED -> VISIBLE */
  STAGGER_SIMXR_EVENT_FOCUS_GAIN = 1,   /* VISIBLE -> FOCUSED */
  STAGGER_SIMXR_EVENT_LOSS_PENDING = 2, /* LOSS_PENDING, then XR_ERROR_SESSION_LOST */
  STAGGER_SIMXR_EVENT_EXIT = 3 /* runtime-requested exit: ... STOPPING, app ends, IDLE, EXITING */
} StaggerSimxrEvent;

typedef struct StaggerSimxrHaptic {
  double time_s;       /* runtime clock (CLOCK_MONOTONIC) [s] */
  int hand;            /* StaggerSimxrHand, or -1 for a non-hand path */
  float amplitude;     /* 0..1 */
  int64_t duration_ns; /* as requested (XR_MIN_HAPTIC_DURATION = -1) [ns] */
  float frequency_hz;  /* 0 = XR_FREQUENCY_UNSPECIFIED [Hz] */
  int delivered;       /* 1 when the session was focused and the action bound */
} StaggerSimxrHaptic;

/* Replaces the current script (same JSON as STAGGER_SIMXR_SCRIPT, see docs/simxr.md). Its "t"
 * values count from this call; its "frame" values count xrEndFrame calls since the runtime was
 * loaded (see stagger_simxr_frames_total). Hands, inputs and head go back to the defaults first.
 * On error returns -1 and writes a message into error (if not NULL). */
STAGGER_SIMXR_API int stagger_simxr_load_script(const char* json_text, char* error,
                                                size_t error_size);

/* Back to defaults (no script, default poses, inputs zero, oculus touch, 90 Hz); keeps counters. */
STAGGER_SIMXR_API void stagger_simxr_reset(void);

/* Sets a hand's grip pose (cancels a running scripted path). orientation may be NULL (identity). */
STAGGER_SIMXR_API int stagger_simxr_set_hand_pose(int hand, const float position[3],
                                                  const float orientation[4]);
/* Linear [m/s] and angular [rad/s] velocity in STAGE space, reported by xrLocateSpace. */
STAGGER_SIMXR_API int stagger_simxr_set_hand_velocity(int hand, const float linear[3],
                                                      const float angular[3]);
STAGGER_SIMXR_API int stagger_simxr_set_hand_tracking(int hand, int tracking);
/* Head (VIEW space) position in STAGE [m] and yaw about +Y [rad]. */
STAGGER_SIMXR_API int stagger_simxr_set_head(const float position[3], float yaw_rad);

/* Sets an input of a hand by its identifier: "trigger", "squeeze", "thumbstick",
 * "thumbstick_click", "trackpad", "trackpad_click", "a", "b", "x", "y", "menu", "system",
 * "select", "thumbrest". x is the value (0..1, or -1..1 for the axes of thumbstick/trackpad), y
 * the second axis. Buttons are pressed when x >= 0.5; a stick or trackpad is pressed by its
 * "_click" input, not by its position. */
STAGGER_SIMXR_API int stagger_simxr_set_input(int hand, const char* input, float x, float y);

/* Makes the given interaction profile the active one (queues INTERACTION_PROFILE_CHANGED). */
STAGGER_SIMXR_API int stagger_simxr_set_interaction_profile(const char* profile_path);

/* Queues a StaggerSimxrEvent after delay_frames further xrEndFrame calls (0 = at the next poll). */
STAGGER_SIMXR_API int stagger_simxr_queue_event(int event, uint32_t delay_frames);

/* Display rate used by xrWaitFrame [Hz]; 0 = no pacing. */
STAGGER_SIMXR_API void stagger_simxr_set_display_hz(double hz);

/* Haptic requests since load (or since stagger_simxr_clear_haptics). */
STAGGER_SIMXR_API uint32_t stagger_simxr_haptic_count(void);
STAGGER_SIMXR_API int stagger_simxr_get_haptic(uint32_t index, StaggerSimxrHaptic* out);
STAGGER_SIMXR_API void stagger_simxr_clear_haptics(void);

/* xrEndFrame successes with at least one layer, and all xrEndFrame successes. */
STAGGER_SIMXR_API uint64_t stagger_simxr_frames_submitted(void);
STAGGER_SIMXR_API uint64_t stagger_simxr_frames_total(void);
/* Sessions created since load. */
STAGGER_SIMXR_API uint32_t stagger_simxr_sessions_created(void);

/* Copies the last colour image submitted for projection view `view` (0 = left) in xrEndFrame as
 * tightly packed RGBA8 (bytes as stored: sRGB-encoded for *_SRGB formats). Writes width/height;
 * returns the number of bytes the image needs (0 when none was captured); copies only when
 * capacity is large enough. rgba may be NULL to query the size. */
STAGGER_SIMXR_API size_t stagger_simxr_read_view_image(uint32_t view, uint32_t* width,
                                                       uint32_t* height, uint8_t* rgba,
                                                       size_t capacity);

/* Number of errors (results < 0) the runtime returned to the application since load. */
STAGGER_SIMXR_API uint32_t stagger_simxr_error_count(void);

#ifdef __cplusplus
}
#endif

#endif /* STAGGER_SIMXR_CONTROL_H */
