#include "state.h"

#include <algorithm>
#include <cstdlib>

#include "api.h"

namespace stagger::simxr {

namespace {
void reset_simulation_of(Runtime& rt) {
  rt.script = Script{};
  rt.pending.clear();
  rt.display_hz = rt.script.display_hz;
  rt.active_profile = rt.script.interaction_profile;
  rt.form_factor_unavailable_left = 0;
  rt.head_position = rt.script.head_position;
  rt.head_yaw_rad = rt.script.head_yaw_rad;
  for (std::size_t h = 0; h < 2; ++h) {
    HandState& hand = rt.hands[h];
    hand = HandState{};
    hand.pose = {{0.0f, 0.0f, 0.0f, 1.0f}, {h == 0 ? -0.25f : 0.25f, 1.1f, -0.3f}};
  }
  for (auto& [id, object] : rt.objects) {
    if (object->kind == Kind::Session) static_cast<Session&>(*object).profile_event_sent = false;
  }
}
Runtime make_runtime() {
  Runtime r;
  const char* log = std::getenv("STAGGER_SIMXR_LOG");
  r.log = log != nullptr && std::string(log) == "1";
  reset_simulation_of(r);
  return r;
}

}  // namespace

// A function-local static: created on first use, destroyed when the loader unloads the library.
Runtime& runtime() {
  static Runtime rt = make_runtime();
  return rt;
}

std::mutex& runtime_mutex() {
  static std::mutex m;
  return m;
}

void destroy_object(std::uint64_t id) {
  Runtime& rt = runtime();
  std::vector<std::uint64_t> children;
  for (const auto& [child_id, object] : rt.objects) {
    if (object->parent == id) children.push_back(child_id);
  }
  for (std::uint64_t child : children) destroy_object(child);
  auto it = rt.objects.find(id);
  if (it == rt.objects.end()) return;
  Object& object = *it->second;
  if (object.kind == Kind::Swapchain) destroy_swapchain_resources(static_cast<Swapchain&>(object));
  if (object.kind == Kind::Session) destroy_session_graphics(static_cast<Session&>(object));
  rt.objects.erase(it);
}

Instance& instance_of(const Object& object) {
  const Object* o = &object;
  while (o->kind != Kind::Instance) o = runtime().objects.at(o->parent).get();
  return const_cast<Instance&>(static_cast<const Instance&>(*o));
}

XrTime now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<XrTime>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

std::optional<double> script_time(XrTime t) {
  const auto& origin = runtime().script_origin;
  if (!origin) return std::nullopt;
  return static_cast<double>(t - *origin) * 1e-9;
}

XrPath intern_path(const std::string& s) {
  Runtime& rt = runtime();
  auto it = rt.path_ids.find(s);
  if (it != rt.path_ids.end()) return it->second;
  rt.path_strings.push_back(s);
  const XrPath id = rt.path_strings.size();
  rt.path_ids.emplace(s, id);
  return id;
}

const std::string* path_string(XrPath p) {
  const Runtime& rt = runtime();
  if (p == XR_NULL_PATH || p > rt.path_strings.size()) return nullptr;
  return &rt.path_strings[p - 1];
}

// Path rules of spec 6.1: absolute, '/'-separated, elements of [a-z0-9-_.], no "." or ".."
// elements, no empty elements, no trailing '/'.
bool valid_path_syntax(const char* s) {
  const std::string_view p(s);
  if (p.size() < 2 || p.size() >= XR_MAX_PATH_LENGTH || p.front() != '/' || p.back() == '/')
    return false;
  std::size_t start = 1;
  while (start <= p.size()) {
    std::size_t end = p.find('/', start);
    if (end == std::string_view::npos) end = p.size();
    const std::string_view element = p.substr(start, end - start);
    if (element.empty() || element == "." || element == "..") return false;
    for (char c : element) {
      const bool ok =
          (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
      if (!ok) return false;
    }
    start = end + 1;
  }
  return true;
}

void reset_simulation() {
  reset_simulation_of(runtime());
}

void apply_script(const Script& script, bool origin_at_first_begin) {
  Runtime& rt = runtime();
  reset_simulation();
  rt.script = script;
  rt.display_hz = script.display_hz;
  rt.active_profile = script.interaction_profile;
  rt.form_factor_unavailable_left = script.form_factor_unavailable_calls;
  rt.head_position = script.head_position;
  rt.head_yaw_rad = script.head_yaw_rad;
  rt.origin_at_first_begin = origin_at_first_begin;
  if (!origin_at_first_begin) rt.script_origin = now_ns();
  for (const ScriptEvent& e : script.events) rt.pending.push_back({e, false});
  // Timed events in time order; frame events keep file order.
  std::stable_sort(rt.pending.begin(), rt.pending.end(),
                   [](const PendingEvent& a, const PendingEvent& b) {
                     return a.event.t.value_or(-1.0) < b.event.t.value_or(-1.0);
                   });
}

const char* state_name(XrSessionState s) {
  switch (s) {
    case XR_SESSION_STATE_IDLE:
      return "IDLE";
    case XR_SESSION_STATE_READY:
      return "READY";
    case XR_SESSION_STATE_SYNCHRONIZED:
      return "SYNCHRONIZED";
    case XR_SESSION_STATE_VISIBLE:
      return "VISIBLE";
    case XR_SESSION_STATE_FOCUSED:
      return "FOCUSED";
    case XR_SESSION_STATE_STOPPING:
      return "STOPPING";
    case XR_SESSION_STATE_LOSS_PENDING:
      return "LOSS_PENDING";
    case XR_SESSION_STATE_EXITING:
      return "EXITING";
    default:
      return "UNKNOWN";
  }
}

XrResult session_status(const Session& session) {
  if (session.lost) return XR_ERROR_SESSION_LOST;
  if (session.loss_pending) return XR_SESSION_LOSS_PENDING;
  return XR_SUCCESS;
}

XrResult success_of(const Session& session) {
  return session.loss_pending ? XR_SESSION_LOSS_PENDING : XR_SUCCESS;
}

}  // namespace stagger::simxr
