// Sessions: the state machine, injected session events, and the frame loop.
#include <chrono>
#include <cstring>
#include <thread>

#include "api.h"
#include "input.h"
#include "math.h"
#include "state.h"

namespace stagger::simxr {

extern thread_local std::unique_lock<std::mutex>* g_call_lock;

namespace {

constexpr std::uint32_t kMaxLayers = 16;
constexpr float kHalfFov = 0.785398163f;  ///< [rad] 45 degrees each side
constexpr float kHalfIpd = 0.032f;        ///< [m]

std::vector<Session*> live_sessions() {
  std::vector<Session*> out;
  for (auto& [id, object] : runtime().objects) {
    if (object->kind == Kind::Session) out.push_back(static_cast<Session*>(object.get()));
  }
  return out;
}

bool is_running_state(XrSessionState s) {
  return s == XR_SESSION_STATE_SYNCHRONIZED || s == XR_SESSION_STATE_VISIBLE ||
         s == XR_SESSION_STATE_FOCUSED;
}

constexpr std::uint32_t kUnavailableAfterLoss =
    3;  // xrGetSystem calls without a headset after a loss

// Walks a running session down to STOPPING, one state change at a time (one that has not ended
// a frame yet is still READY: it goes through SYNCHRONIZED).
void queue_stop(Session& session) {
  session.frames_to_focus = -1;
  if (session.queued_state == XR_SESSION_STATE_READY && session.running)
    queue_state(session, XR_SESSION_STATE_SYNCHRONIZED);
  if (session.queued_state == XR_SESSION_STATE_FOCUSED)
    queue_state(session, XR_SESSION_STATE_VISIBLE);
  if (session.queued_state == XR_SESSION_STATE_VISIBLE)
    queue_state(session, XR_SESSION_STATE_SYNCHRONIZED);
  if (session.queued_state == XR_SESSION_STATE_SYNCHRONIZED)
    queue_state(session, XR_SESSION_STATE_STOPPING);
}

// Applies a session event to the first session it fits; false when none fits yet (stays pending).
bool apply_session_event(EventType type) {
  for (Session* s : live_sessions()) {
    if (s->queued_state == XR_SESSION_STATE_LOSS_PENDING || s->lost) continue;
    switch (type) {
      case EventType::FocusLoss:
        if (s->queued_state != XR_SESSION_STATE_FOCUSED) continue;
        queue_state(*s, XR_SESSION_STATE_VISIBLE);
        return true;
      case EventType::FocusGain:
        if (s->queued_state != XR_SESSION_STATE_VISIBLE || s->exit_requested) continue;
        queue_state(*s, XR_SESSION_STATE_FOCUSED);
        return true;
      case EventType::LossPending:
        queue_state(*s, XR_SESSION_STATE_LOSS_PENDING);
        // As with a headset unplugged and plugged in again: the next few xrGetSystem calls find
        // no headset, so an app's wait for it is exercised too.
        runtime().form_factor_unavailable_left = kUnavailableAfterLoss;
        return true;
      case EventType::Exit:
        if (!is_running_state(s->queued_state) || s->exit_requested) continue;
        s->exit_requested = true;
        queue_stop(*s);
        return true;
      default:
        return true;
    }
  }
  return false;
}

bool apply_event(const ScriptEvent& e) {
  Runtime& rt = runtime();
  HandState& hand = rt.hands[static_cast<std::size_t>(e.hand)];
  switch (e.type) {
    case EventType::Hand:
      hand.path = e.path;
      return true;
    case EventType::Input: {
      // A timed ramp starts at its time, not when the runtime got round to it.
      const XrTime start =
          e.t && rt.script_origin ? *rt.script_origin + static_cast<XrTime>(*e.t * 1e9) : now_ns();
      set_input(e.hand, e.input, e.value, start, static_cast<XrDuration>(e.ramp_s * 1e9));
      return true;
    }
    case EventType::Tracking:
      hand.tracking = e.tracking;
      return true;
    case EventType::Profile:
      rt.active_profile = e.profile;
      for (Session* s : live_sessions()) s->profile_event_sent = false;
      return true;
    default:
      return apply_session_event(e.type);
  }
}

bool is_due(const ScriptEvent& e, XrTime now) {
  if (e.frame) return runtime().frames_total >= *e.frame;
  const auto t = script_time(now);
  return t && *t >= *e.t;
}

void update_profiles() {
  for (Session* s : live_sessions()) {
    if (s->attached_sets.empty() || s->state != XR_SESSION_STATE_FOCUSED || s->profile_event_sent)
      continue;
    s->profile_event_sent = true;
    const XrPath profile = resolve_profile(instance_of(*s));
    if (profile == s->current_profile) continue;
    s->current_profile = profile;
    if (const std::string* name = path_string(profile)) runtime().profile_used = *name;
    XrEventDataBuffer buffer{};
    auto* event = reinterpret_cast<XrEventDataInteractionProfileChanged*>(&buffer);
    event->type = XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED;
    event->session = to_handle<XrSession>(s->id);
    queue_event(instance_of(*s), buffer);
  }
}

// After LOSS_PENDING was delivered, a few more frame-loop calls succeed before the session is lost.
void count_down_loss(Session& s) {
  if (s.loss_pending && !s.lost && --s.loss_countdown <= 0) s.lost = true;
}

XrResult check_sub_image(const Session& session, const XrSwapchainSubImage& sub) {
  const Swapchain* sc = find<Swapchain>(sub.swapchain);
  if (sc == nullptr || sc->session != session.id) return XR_ERROR_HANDLE_INVALID;
  if (sc->last_released < 0 || !sc->acquired.empty()) return XR_ERROR_LAYER_INVALID;
  const XrRect2Di& r = sub.imageRect;
  if (r.offset.x < 0 || r.offset.y < 0 || r.extent.width <= 0 || r.extent.height <= 0 ||
      static_cast<std::int64_t>(r.offset.x) + r.extent.width > sc->info.width ||
      static_cast<std::int64_t>(r.offset.y) + r.extent.height > sc->info.height) {
    return XR_ERROR_SWAPCHAIN_RECT_INVALID;
  }
  if (sub.imageArrayIndex >= sc->info.arraySize) return XR_ERROR_VALIDATION_FAILURE;
  return XR_SUCCESS;
}

XrResult check_layer(const Session& session, const XrCompositionLayerBaseHeader* layer) {
  if (layer == nullptr) return XR_ERROR_LAYER_INVALID;
  if (find<Space>(layer->space) == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (layer->type == XR_TYPE_COMPOSITION_LAYER_PROJECTION) {
    const auto* proj = reinterpret_cast<const XrCompositionLayerProjection*>(layer);
    if (proj->viewCount != 2 || proj->views == nullptr) return XR_ERROR_VALIDATION_FAILURE;
    for (uint32_t i = 0; i < proj->viewCount; ++i) {
      if (proj->views[i].type != XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW)
        return XR_ERROR_VALIDATION_FAILURE;
      if (XrResult r = check_sub_image(session, proj->views[i].subImage); r != XR_SUCCESS) return r;
    }
    return XR_SUCCESS;
  }
  if (layer->type == XR_TYPE_COMPOSITION_LAYER_QUAD) {
    const auto* quad = reinterpret_cast<const XrCompositionLayerQuad*>(layer);
    return check_sub_image(session, quad->subImage);
  }
  return XR_ERROR_LAYER_INVALID;
}

XrResult end_frame_checks(const Session& session, const XrFrameEndInfo& info) {
  if (info.displayTime <= 0) return XR_ERROR_TIME_INVALID;
  if (info.environmentBlendMode != XR_ENVIRONMENT_BLEND_MODE_OPAQUE) {
    return XR_ERROR_ENVIRONMENT_BLEND_MODE_UNSUPPORTED;
  }
  if (info.layerCount > kMaxLayers) return XR_ERROR_LAYER_LIMIT_EXCEEDED;
  if (info.layerCount > 0 && info.layers == nullptr) return XR_ERROR_LAYER_INVALID;
  for (uint32_t i = 0; i < info.layerCount; ++i) {
    if (XrResult r = check_layer(session, info.layers[i]); r != XR_SUCCESS) return r;
  }
  return XR_SUCCESS;
}

void finish_frame(Session& session, const XrFrameEndInfo& info) {
  Runtime& rt = runtime();
  ++rt.frames_total;
  if (info.layerCount > 0) ++rt.frames_submitted;
  for (uint32_t i = 0; i < info.layerCount; ++i) {
    if (info.layers[i]->type == XR_TYPE_COMPOSITION_LAYER_PROJECTION && session.vulkan) {
      capture_projection_views(
          session, *reinterpret_cast<const XrCompositionLayerProjection*>(info.layers[i]));
      break;
    }
  }
  if (rt.capture_frame && *rt.capture_frame == rt.frames_total) finish_readback(session);
  if (rt.capture_frame && *rt.capture_frame == rt.frames_total && !rt.view_images.empty() &&
      !rt.view_images[0].rgba.empty()) {
    if (!write_png_rgb(rt.capture_path, rt.view_images[0]))
      log_error("cannot write " + rt.capture_path);
  }
}

}  // namespace

void queue_event(Instance& instance, const XrEventDataBuffer& event) {
  instance.events.push_back(event);
}

void queue_state(Session& session, XrSessionState state) {
  session.queued_state = state;
  XrEventDataBuffer buffer{};
  auto* event = reinterpret_cast<XrEventDataSessionStateChanged*>(&buffer);
  event->type = XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED;
  event->session = to_handle<XrSession>(session.id);
  event->state = state;
  event->time = now_ns();
  queue_event(instance_of(session), buffer);
}

void pump() {
  Runtime& rt = runtime();
  const XrTime now = now_ns();
  for (PendingEvent& p : rt.pending) {
    if (p.done) continue;
    if (is_due(p.event, now)) p.done = apply_event(p.event);
  }
  update_profiles();
}

namespace api {

XrResult xrCreateSession(XrInstance instance, const XrSessionCreateInfo* info, XrSession* session) {
  Instance* inst = find<Instance>(instance);
  if (XrResult r = check_args(inst, info, XR_TYPE_SESSION_CREATE_INFO, session); r < 0) return r;
  if (info->systemId != kSystemId) return XR_ERROR_SYSTEM_INVALID;
  const XrGraphicsBindingVulkanKHR* binding = nullptr;
  for (auto* next = static_cast<const XrBaseInStructure*>(info->next); next != nullptr;
       next = next->next) {
    if (next->type == XR_TYPE_GRAPHICS_BINDING_VULKAN_KHR) {
      binding = reinterpret_cast<const XrGraphicsBindingVulkanKHR*>(next);
    }
  }
  if (binding == nullptr && !inst->has(XR_MND_HEADLESS_EXTENSION_NAME))
    return XR_ERROR_GRAPHICS_DEVICE_INVALID;
  if (binding != nullptr) {
    if (!inst->has(XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME)) return XR_ERROR_GRAPHICS_DEVICE_INVALID;
    if (!inst->vulkan_requirements_queried) return XR_ERROR_GRAPHICS_REQUIREMENTS_CALL_MISSING;
  }
  for (Session* s : live_sessions()) {
    if (s->parent == inst->id) return XR_ERROR_LIMIT_REACHED;  // one session per instance
  }
  Session& s = add_object<Session>(inst->id);
  if (binding != nullptr) {
    if (XrResult r = create_session_graphics(s, *binding); r != XR_SUCCESS) {
      destroy_object(s.id);
      return r;
    }
  }
  Runtime& rt = runtime();
  ++rt.sessions_created;
  const XrQuaternionf yaw = axis_angle({0.0f, 1.0f, 0.0f}, rt.head_yaw_rad);
  s.local_origin = {yaw, rt.head_position};
  s.state = XR_SESSION_STATE_IDLE;
  queue_state(s, XR_SESSION_STATE_IDLE);
  queue_state(s, XR_SESSION_STATE_READY);
  *session = to_handle<XrSession>(s.id);
  return XR_SUCCESS;
}

XrResult xrDestroySession(XrSession session) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  Instance& inst = instance_of(*s);
  // Events about a destroyed session are never delivered.
  std::erase_if(inst.events, [&](const XrEventDataBuffer& e) {
    return (e.type == XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED &&
            reinterpret_cast<const XrEventDataSessionStateChanged*>(&e)->session == session) ||
           (e.type == XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED &&
            reinterpret_cast<const XrEventDataInteractionProfileChanged*>(&e)->session == session);
  });
  destroy_object(s->id);
  return XR_SUCCESS;
}

XrResult xrBeginSession(XrSession session, const XrSessionBeginInfo* info) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_SESSION_BEGIN_INFO)
    return XR_ERROR_VALIDATION_FAILURE;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (s->running) return XR_ERROR_SESSION_RUNNING;
  if (s->vulkan &&
      info->primaryViewConfigurationType != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO) {
    return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
  }
  if (s->state != XR_SESSION_STATE_READY) return XR_ERROR_SESSION_NOT_READY;
  Runtime& rt = runtime();
  if (rt.origin_at_first_begin && !rt.script_origin) rt.script_origin = now_ns();
  s->running = true;
  s->view_configuration = info->primaryViewConfigurationType;
  if (s->vulkan) {
    // An app that waits for FOCUSED before it runs frames hangs on a real runtime: so here.
    s->frames_to_focus = 0;
  } else {
    // XR_MND_headless: frames are optional, the states follow the begin at once.
    queue_state(*s, XR_SESSION_STATE_SYNCHRONIZED);
    queue_state(*s, XR_SESSION_STATE_VISIBLE);
    queue_state(*s, XR_SESSION_STATE_FOCUSED);
  }
  return success_of(*s);
}

XrResult xrEndSession(XrSession session) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
  if (s->state != XR_SESSION_STATE_STOPPING) return XR_ERROR_SESSION_NOT_STOPPING;
  s->running = false;
  s->frame_begun = false;
  s->waited_frames = 0;
  queue_state(*s, XR_SESSION_STATE_IDLE);
  queue_state(*s, s->exit_requested ? XR_SESSION_STATE_EXITING : XR_SESSION_STATE_READY);
  write_summary();
  return success_of(*s);
}

XrResult xrRequestExitSession(XrSession session) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
  s->exit_requested = true;
  if (s->queued_state != XR_SESSION_STATE_LOSS_PENDING) queue_stop(*s);
  return success_of(*s);
}

XrResult xrWaitFrame(XrSession session, const XrFrameWaitInfo* info, XrFrameState* state) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (state == nullptr || state->type != XR_TYPE_FRAME_STATE) return XR_ERROR_VALIDATION_FAILURE;
  if (info != nullptr && info->type != XR_TYPE_FRAME_WAIT_INFO) return XR_ERROR_VALIDATION_FAILURE;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
  Runtime& rt = runtime();
  const double hz = rt.display_hz;
  const XrTime period = static_cast<XrTime>(1e9 / (hz > 0.0 ? hz : 90.0));
  XrTime now = now_ns();
  if (hz > 0.0) {
    if (s->next_wake_ns == 0 || s->next_wake_ns < now - period) s->next_wake_ns = now;
    const XrTime wake = s->next_wake_ns;
    s->next_wake_ns += period;
    if (wake > now) {
      // Sleep without the lock so that other threads (and the control API) are not blocked.
      const std::uint64_t id = s->id;
      if (g_call_lock != nullptr) g_call_lock->unlock();
      std::this_thread::sleep_for(std::chrono::nanoseconds(wake - now));
      if (g_call_lock != nullptr) g_call_lock->lock();
      s = find_object<Session>(id);
      if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
      now = now_ns();
    }
  }
  state->predictedDisplayPeriod = period;
  state->predictedDisplayTime = std::max(now + period, s->last_display_time + 1);
  s->last_display_time = state->predictedDisplayTime;
  state->shouldRender =
      (s->vulkan && (s->state == XR_SESSION_STATE_VISIBLE || s->state == XR_SESSION_STATE_FOCUSED))
          ? XR_TRUE
          : XR_FALSE;
  ++s->waited_frames;
  pump();
  const XrResult result = success_of(*s);
  count_down_loss(*s);
  return result;
}

XrResult xrBeginFrame(XrSession session, const XrFrameBeginInfo* info) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info != nullptr && info->type != XR_TYPE_FRAME_BEGIN_INFO) return XR_ERROR_VALIDATION_FAILURE;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
  if (s->waited_frames == 0) return XR_ERROR_CALL_ORDER_INVALID;
  --s->waited_frames;
  if (s->frame_begun) return XR_FRAME_DISCARDED;  // the previous frame is dropped, this one begins
  s->frame_begun = true;
  return success_of(*s);
}

XrResult xrEndFrame(XrSession session, const XrFrameEndInfo* info) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_FRAME_END_INFO) return XR_ERROR_VALIDATION_FAILURE;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
  if (!s->frame_begun) return XR_ERROR_CALL_ORDER_INVALID;
  if (XrResult r = end_frame_checks(*s, *info); r != XR_SUCCESS) return r;
  s->frame_begun = false;
  finish_frame(*s, *info);
  if (s->frames_to_focus >= 0) {
    const int ended = ++s->frames_to_focus;
    if (ended == 1) queue_state(*s, XR_SESSION_STATE_SYNCHRONIZED);
    if (ended == 2) {
      queue_state(*s, XR_SESSION_STATE_VISIBLE);
      queue_state(*s, XR_SESSION_STATE_FOCUSED);
      s->frames_to_focus = -1;
    }
  }
  pump();
  return success_of(*s);
}

XrResult xrLocateViews(XrSession session, const XrViewLocateInfo* info, XrViewState* state,
                       uint32_t capacity, uint32_t* count, XrView* views) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || state == nullptr || info->type != XR_TYPE_VIEW_LOCATE_INFO ||
      state->type != XR_TYPE_VIEW_STATE) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (XrResult r = session_status(*s); r < 0) return r;
  if (info->viewConfigurationType != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO) {
    return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
  }
  if (info->displayTime <= 0) return XR_ERROR_TIME_INVALID;
  const Space* base = find<Space>(info->space);
  if (base == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (views != nullptr) {
    for (uint32_t i = 0; i < std::min(capacity, 2u); ++i) {
      if (views[i].type != XR_TYPE_VIEW) return XR_ERROR_VALIDATION_FAILURE;
    }
  }
  const SpaceState base_state = locate_in_stage(*base, info->displayTime);
  const XrPosef base_in_stage = base_state.pose;
  const XrSpaceLocationFlags base_flags = base_state.flags;
  const XrPosef head = head_pose();
  const XrPosef to_base = inverse(base_in_stage);
  const XrResult result = two_call(capacity, count, views, 2, [&](XrView& v, std::size_t i) {
    const XrPosef eye_offset{identity_quat(), {i == 0 ? -kHalfIpd : kHalfIpd, 0.0f, 0.0f}};
    v.pose = compose(to_base, compose(head, eye_offset));
    v.fov = {-kHalfFov, kHalfFov, kHalfFov, -kHalfFov};
  });
  if (result != XR_SUCCESS) return result;
  const bool valid = (base_flags & XR_SPACE_LOCATION_POSITION_VALID_BIT) != 0;
  state->viewStateFlags =
      valid ? (XR_VIEW_STATE_ORIENTATION_VALID_BIT | XR_VIEW_STATE_POSITION_VALID_BIT |
               XR_VIEW_STATE_ORIENTATION_TRACKED_BIT | XR_VIEW_STATE_POSITION_TRACKED_BIT)
            : 0;
  return success_of(*s);
}

}  // namespace api
}  // namespace stagger::simxr
