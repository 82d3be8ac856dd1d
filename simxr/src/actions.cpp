// Action sets, actions, suggested bindings, syncing, action states and haptics.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

#include "api.h"
#include "input.h"
#include "math.h"
#include "profiles.h"
#include "state.h"

namespace stagger::simxr {
namespace {

constexpr float kPressThreshold = 0.5f;    ///< bool-from-float: on at or above
constexpr float kReleaseThreshold = 0.4f;  ///< ... off below (hysteresis)
/// Aim pose relative to the grip pose: 5 cm forward along the grip's -Z.
const XrPosef kAimFromGrip{{0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, -0.05f}};

bool valid_name(const char* name) {
  if (name[0] == '\0') return false;
  for (const char* c = name; *c != '\0'; ++c) {
    const bool ok =
        (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '.';
    if (!ok) return false;
  }
  return true;
}

template <typename T>
std::vector<T*> children_of(std::uint64_t parent) {
  std::vector<T*> out;
  for (auto& [id, object] : runtime().objects) {
    if (object->parent == parent && object->kind == T::kKind)
      out.push_back(static_cast<T*>(object.get()));
  }
  std::sort(out.begin(), out.end(), [](const T* a, const T* b) { return a->id < b->id; });
  return out;
}

// The naming rules action sets and actions share: a well-formed name and a localized name, each
// unique among the parent's children of the same type.
template <typename T>
XrResult check_names(std::uint64_t parent, const char* name, const char* localized_name) {
  if (!valid_name(name)) return XR_ERROR_PATH_FORMAT_INVALID;
  if (localized_name[0] == '\0') return XR_ERROR_LOCALIZED_NAME_INVALID;
  for (const T* other : children_of<T>(parent)) {
    if (other->name == name) return XR_ERROR_NAME_DUPLICATED;
    if (other->localized_name == localized_name) return XR_ERROR_LOCALIZED_NAME_DUPLICATED;
  }
  return XR_SUCCESS;
}

int hand_of_path(XrPath path) {
  const std::string* s = path_string(path);
  if (s == nullptr) return -1;
  if (*s == "/user/hand/left") return 0;
  if (*s == "/user/hand/right") return 1;
  return -1;
}

bool is_top_level_path(const std::string& s) {
  return s == "/user/hand/left" || s == "/user/hand/right" || s == "/user/head" ||
         s == "/user/gamepad" || s == "/user/treadmill";
}

bool is_attached(const Session& session, const Action& action) {
  return std::find(session.attached_sets.begin(), session.attached_sets.end(), action.parent) !=
         session.attached_sets.end();
}

/// A suggested binding of the session's current profile, resolved to its component.
struct Source {
  XrPath binding = XR_NULL_PATH;
  SourceParts parts;
  std::string full_path;  ///< component path (a parent path resolved)
};

bool profile_has(const Profile& profile, const std::string& path) {
  return std::find(profile.sources.begin(), profile.sources.end(), path) != profile.sources.end();
}

// A parent path (…/input/trigger) picks the component that suits the action type (spec 11.4).
std::string resolve_component(const Profile& profile, const std::string& parent,
                              XrActionType type) {
  std::vector<const char*> order;
  switch (type) {
    case XR_ACTION_TYPE_BOOLEAN_INPUT:
      order = {"click", "value", "touch", "force"};
      break;
    case XR_ACTION_TYPE_FLOAT_INPUT:
      order = {"value", "force", "click", "touch"};
      break;
    case XR_ACTION_TYPE_POSE_INPUT:
      order = {"pose"};
      break;
    default:
      return "";  // vector2 keeps the parent (x and y)
  }
  for (const char* c : order) {
    if (profile_has(profile, parent + "/" + c)) return c;
  }
  return "";
}

std::vector<Source> sources_for(const Session& session, const Action& action, XrPath subaction) {
  std::vector<Source> out;
  const std::string* profile_name = path_string(session.current_profile);
  if (profile_name == nullptr) return out;
  const Profile* profile = find_profile(*profile_name);
  const Instance& inst = instance_of(session);
  auto it = inst.suggested.find(session.current_profile);
  if (profile == nullptr || it == inst.suggested.end()) return out;
  const int wanted_hand = subaction == XR_NULL_PATH ? -1 : hand_of_path(subaction);
  if (subaction != XR_NULL_PATH && wanted_hand < 0) return out;
  for (const Binding& b : it->second) {
    if (b.action != action.id) continue;
    Source s;
    s.binding = b.path;
    s.full_path = *path_string(b.path);
    s.parts = split_source(s.full_path);
    if (s.parts.hand < 0 || (wanted_hand >= 0 && s.parts.hand != wanted_hand)) continue;
    // Only sources under the action's subaction paths are bound (spec 11.5).
    if (!action.subactions.empty()) {
      const bool listed = std::any_of(action.subactions.begin(), action.subactions.end(),
                                      [&](XrPath p) { return hand_of_path(p) == s.parts.hand; });
      if (!listed) continue;
    }
    if (!s.parts.output && s.parts.component.empty()) {
      s.parts.component = resolve_component(*profile, s.full_path, action.type);
      if (!s.parts.component.empty()) s.full_path += "/" + s.parts.component;
    }
    out.push_back(s);
  }
  return out;
}

XrVector2f raw_input(int hand, const std::string& identifier) {
  return input_value(hand, identifier == "grip" ? "squeeze" : identifier, now_ns());
}

bool is_boolean_component(const std::string& c) {
  return c == "click" || c == "touch";
}

// A thumbstick or trackpad: x and y from its position, click (and the Index trackpad's force)
// from its own press input, `<identifier>_click`, since pushing a stick sideways does not press
// it; touched while pushed off centre or pressed.
float stick_scalar(int hand, const std::string& identifier, const std::string& c) {
  const XrVector2f at = raw_input(hand, identifier);
  const float press = raw_input(hand, identifier + "_click").x;
  if (c == "x") return at.x;
  if (c == "y") return at.y;
  if (c == "click") return press >= kPressThreshold ? 1.0f : 0.0f;
  if (c == "touch") return at.x != 0.0f || at.y != 0.0f || press > 0.0f ? 1.0f : 0.0f;
  return press;  // force
}

float scalar_of(const Source& s) {
  if (s.parts.identifier == "thumbstick" || s.parts.identifier == "trackpad")
    return stick_scalar(s.parts.hand, s.parts.identifier, s.parts.component);
  const XrVector2f raw = raw_input(s.parts.hand, s.parts.identifier);
  const std::string& c = s.parts.component;
  if (c == "click") return raw.x >= kPressThreshold ? 1.0f : 0.0f;
  if (c == "touch") return raw.x > 0.0f ? 1.0f : 0.0f;
  if (c == "y") return raw.y;
  return raw.x;  // value, force, x
}

bool boolean_of(Session& session, const Action& action, const Source& s) {
  const float v = scalar_of(s);
  if (is_boolean_component(s.parts.component)) return v >= 0.5f;
  bool& latched = session.hysteresis[{action.id, s.binding}];
  latched = latched ? v >= kReleaseThreshold : v >= kPressThreshold;
  return latched;
}

ActionValue evaluate(Session& session, const Action& action, XrPath subaction, bool active_set) {
  ActionValue v;
  if (!active_set || session.state != XR_SESSION_STATE_FOCUSED) return v;
  const std::vector<Source> sources = sources_for(session, action, subaction);
  for (const Source& s : sources) {
    if (s.parts.output != (action.type == XR_ACTION_TYPE_VIBRATION_OUTPUT)) continue;
    v.active = true;
    switch (action.type) {
      case XR_ACTION_TYPE_BOOLEAN_INPUT:
        v.boolean = v.boolean || boolean_of(session, action, s);
        break;
      case XR_ACTION_TYPE_FLOAT_INPUT: {
        const float f = scalar_of(s);
        if (std::fabs(f) > std::fabs(v.scalar)) v.scalar = f;  // largest magnitude wins
        break;
      }
      case XR_ACTION_TYPE_VECTOR2F_INPUT: {
        const XrVector2f r = raw_input(s.parts.hand, s.parts.identifier);
        if (r.x * r.x + r.y * r.y > v.vector.x * v.vector.x + v.vector.y * v.vector.y) v.vector = r;
        break;
      }
      default:
        break;
    }
  }
  return v;
}

void update_value(ActionValue& stored, const ActionValue& fresh, XrTime now) {
  const bool differs = fresh.boolean != stored.boolean || fresh.scalar != stored.scalar ||
                       fresh.vector.x != stored.vector.x || fresh.vector.y != stored.vector.y;
  const bool changed = fresh.active && stored.active && differs;
  const XrTime last = changed || (fresh.active && !stored.active) ? now : stored.last_change;
  stored = fresh;
  stored.changed = changed;
  stored.last_change = fresh.active ? last : 0;
}

struct StateQuery {
  Session* session = nullptr;
  const Action* action = nullptr;
  XrResult result = XR_SUCCESS;
};

StateQuery query_state(XrSession session, const XrActionStateGetInfo* info, const void* state,
                       XrStructureType state_type, XrActionType action_type) {
  StateQuery q;
  q.session = find<Session>(session);
  if (q.session == nullptr) return {nullptr, nullptr, XR_ERROR_HANDLE_INVALID};
  if (info == nullptr || state == nullptr || info->type != XR_TYPE_ACTION_STATE_GET_INFO ||
      static_cast<const XrBaseInStructure*>(state)->type != state_type) {
    return {nullptr, nullptr, XR_ERROR_VALIDATION_FAILURE};
  }
  q.action = find<Action>(info->action);
  if (q.action == nullptr) return {nullptr, nullptr, XR_ERROR_HANDLE_INVALID};
  if (XrResult r = session_status(*q.session); r < 0) return {nullptr, nullptr, r};
  if (!is_attached(*q.session, *q.action))
    return {nullptr, nullptr, XR_ERROR_ACTIONSET_NOT_ATTACHED};
  if (q.action->type != action_type) return {nullptr, nullptr, XR_ERROR_ACTION_TYPE_MISMATCH};
  if (info->subactionPath != XR_NULL_PATH) {
    if (path_string(info->subactionPath) == nullptr)
      return {nullptr, nullptr, XR_ERROR_PATH_INVALID};
    const auto& subs = q.action->subactions;
    if (std::find(subs.begin(), subs.end(), info->subactionPath) == subs.end()) {
      return {nullptr, nullptr, XR_ERROR_PATH_UNSUPPORTED};
    }
  }
  return q;
}

ActionValue stored_value(const Session& session, const Action& action, XrPath subaction) {
  auto it = session.action_values.find({action.id, subaction});
  return it == session.action_values.end() ? ActionValue{} : it->second;
}

std::string title_case(std::string s) {
  bool start = true;
  for (char& c : s) {
    if (c == '_' || c == '-') c = ' ';
    if (start && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    start = c == ' ';
  }
  return s;
}

}  // namespace

XrPath resolve_profile(const Instance& instance) {
  const Runtime& rt = runtime();
  auto suggested = [&](const std::string& path) {
    auto id = rt.path_ids.find(path);
    return id != rt.path_ids.end() && instance.suggested.count(id->second) != 0 ? id->second
                                                                                : XR_NULL_PATH;
  };
  if (rt.active_profile == "none") return XR_NULL_PATH;  // no controllers: every action inactive
  if (XrPath p = suggested(rt.active_profile); p != XR_NULL_PATH) return p;
  for (const char* fallback :
       {"/interaction_profiles/oculus/touch_controller",
        "/interaction_profiles/valve/index_controller", "/interaction_profiles/htc/vive_controller",
        "/interaction_profiles/microsoft/motion_controller",
        "/interaction_profiles/khr/simple_controller"}) {
    if (XrPath p = suggested(fallback); p != XR_NULL_PATH) return p;
  }
  return XR_NULL_PATH;
}

std::optional<HandPose> action_pose(const Session& session, const Action& action, XrPath subaction,
                                    XrTime time) {
  if (!stored_value(session, action, subaction).active) return std::nullopt;
  for (const Source& s : sources_for(const_cast<Session&>(session), action, subaction)) {
    if (s.parts.component != "pose") continue;
    HandPose pose = hand_pose_at(s.parts.hand, time);
    if (s.parts.identifier == "aim") pose.pose = compose(pose.pose, kAimFromGrip);
    return pose;
  }
  return std::nullopt;
}

namespace api {

XrResult xrCreateActionSet(XrInstance instance, const XrActionSetCreateInfo* info,
                           XrActionSet* set) {
  Instance* inst = find<Instance>(instance);
  if (XrResult r = check_args(inst, info, XR_TYPE_ACTION_SET_CREATE_INFO, set); r < 0) return r;
  const XrResult named =
      check_names<ActionSet>(inst->id, info->actionSetName, info->localizedActionSetName);
  if (named < 0) return named;
  ActionSet& s = add_object<ActionSet>(inst->id);
  s.name = info->actionSetName;
  s.localized_name = info->localizedActionSetName;
  s.priority = info->priority;
  *set = to_handle<XrActionSet>(s.id);
  return XR_SUCCESS;
}

XrResult xrDestroyActionSet(XrActionSet set) {
  return destroy_handle<ActionSet>(set);
}

XrResult xrCreateAction(XrActionSet set, const XrActionCreateInfo* info, XrAction* action) {
  ActionSet* s = find<ActionSet>(set);
  if (XrResult r = check_args(s, info, XR_TYPE_ACTION_CREATE_INFO, action); r < 0) return r;
  if (s->attached) return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
  switch (info->actionType) {
    case XR_ACTION_TYPE_BOOLEAN_INPUT:
    case XR_ACTION_TYPE_FLOAT_INPUT:
    case XR_ACTION_TYPE_VECTOR2F_INPUT:
    case XR_ACTION_TYPE_POSE_INPUT:
    case XR_ACTION_TYPE_VIBRATION_OUTPUT:
      break;
    default:
      return XR_ERROR_VALIDATION_FAILURE;
  }
  const XrResult named = check_names<Action>(s->id, info->actionName, info->localizedActionName);
  if (named < 0) return named;
  if (info->countSubactionPaths > 0 && info->subactionPaths == nullptr)
    return XR_ERROR_VALIDATION_FAILURE;
  std::vector<XrPath> subactions;
  for (uint32_t i = 0; i < info->countSubactionPaths; ++i) {
    const std::string* p = path_string(info->subactionPaths[i]);
    if (p == nullptr) return XR_ERROR_PATH_INVALID;
    if (!is_top_level_path(*p)) return XR_ERROR_PATH_UNSUPPORTED;
    if (std::find(subactions.begin(), subactions.end(), info->subactionPaths[i]) !=
        subactions.end()) {
      return XR_ERROR_PATH_UNSUPPORTED;
    }
    subactions.push_back(info->subactionPaths[i]);
  }
  Action& a = add_object<Action>(s->id);
  a.name = info->actionName;
  a.localized_name = info->localizedActionName;
  a.type = info->actionType;
  a.subactions = std::move(subactions);
  *action = to_handle<XrAction>(a.id);
  return XR_SUCCESS;
}

XrResult xrDestroyAction(XrAction action) {
  return destroy_handle<Action>(action);
}

XrResult xrSuggestInteractionProfileBindings(
    XrInstance instance, const XrInteractionProfileSuggestedBinding* suggested) {
  Instance* inst = find<Instance>(instance);
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (suggested == nullptr || suggested->type != XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING ||
      suggested->countSuggestedBindings == 0 || suggested->suggestedBindings == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  const std::string* profile_name = path_string(suggested->interactionProfile);
  if (profile_name == nullptr) return XR_ERROR_PATH_INVALID;
  const Profile* profile = find_profile(*profile_name);
  if (profile == nullptr) return XR_ERROR_PATH_UNSUPPORTED;
  std::vector<Binding> bindings;
  for (uint32_t i = 0; i < suggested->countSuggestedBindings; ++i) {
    const XrActionSuggestedBinding& b = suggested->suggestedBindings[i];
    const Action* action = find<Action>(b.action);
    if (action == nullptr || instance_of(*action).id != inst->id) return XR_ERROR_HANDLE_INVALID;
    const std::string* binding = path_string(b.binding);
    if (binding == nullptr) return XR_ERROR_PATH_INVALID;
    // One path the profile does not have fails the whole call (spec 11.4).
    if (!profile_accepts(*profile, *binding)) return XR_ERROR_PATH_UNSUPPORTED;
    bindings.push_back({action->id, b.binding});
  }
  for (const ActionSet* set : children_of<ActionSet>(inst->id)) {
    if (set->attached) return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
  }
  inst->suggested[suggested->interactionProfile] = std::move(bindings);
  return XR_SUCCESS;
}

XrResult xrAttachSessionActionSets(XrSession session, const XrSessionActionSetsAttachInfo* info) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO ||
      info->countActionSets == 0 || info->actionSets == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (XrResult r = session_status(*s); r < 0) return r;
  std::vector<std::uint64_t> sets;
  for (uint32_t i = 0; i < info->countActionSets; ++i) {
    ActionSet* set = find<ActionSet>(info->actionSets[i]);
    if (set == nullptr) return XR_ERROR_HANDLE_INVALID;
    sets.push_back(set->id);
  }
  if (!s->attached_sets.empty()) return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
  for (std::uint64_t id : sets) find_object<ActionSet>(id)->attached = true;
  s->attached_sets = sets;
  pump();
  return success_of(*s);
}

XrResult xrGetCurrentInteractionProfile(XrSession session, XrPath top_level,
                                        XrInteractionProfileState* profile) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (profile == nullptr || profile->type != XR_TYPE_INTERACTION_PROFILE_STATE)
    return XR_ERROR_VALIDATION_FAILURE;
  if (XrResult r = session_status(*s); r < 0) return r;
  const std::string* path = path_string(top_level);
  if (path == nullptr) return XR_ERROR_PATH_INVALID;
  if (!is_top_level_path(*path)) return XR_ERROR_PATH_UNSUPPORTED;
  if (s->attached_sets.empty()) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  profile->interactionProfile = hand_of_path(top_level) >= 0 ? s->current_profile : XR_NULL_PATH;
  return success_of(*s);
}

XrResult xrSyncActions(XrSession session, const XrActionsSyncInfo* info) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_ACTIONS_SYNC_INFO ||
      (info->countActiveActionSets > 0 && info->activeActionSets == nullptr)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (XrResult r = session_status(*s); r < 0) return r;
  std::vector<std::pair<std::uint64_t, XrPath>> active;
  for (uint32_t i = 0; i < info->countActiveActionSets; ++i) {
    const XrActiveActionSet& a = info->activeActionSets[i];
    ActionSet* set = find<ActionSet>(a.actionSet);
    if (set == nullptr) return XR_ERROR_HANDLE_INVALID;
    if (std::find(s->attached_sets.begin(), s->attached_sets.end(), set->id) ==
        s->attached_sets.end()) {
      return XR_ERROR_ACTIONSET_NOT_ATTACHED;
    }
    if (a.subactionPath != XR_NULL_PATH) {
      const std::string* p = path_string(a.subactionPath);
      if (p == nullptr) return XR_ERROR_PATH_INVALID;
      if (!is_top_level_path(*p)) return XR_ERROR_PATH_UNSUPPORTED;
    }
    active.emplace_back(set->id, a.subactionPath);
  }
  pump();
  const XrTime now = now_ns();
  for (std::uint64_t set_id : s->attached_sets) {
    for (const Action* action : children_of<Action>(set_id)) {
      std::vector<XrPath> keys{XR_NULL_PATH};
      keys.insert(keys.end(), action->subactions.begin(), action->subactions.end());
      for (XrPath key : keys) {
        const bool set_active = std::any_of(active.begin(), active.end(), [&](const auto& a) {
          return a.first == set_id &&
                 (a.second == XR_NULL_PATH || key == XR_NULL_PATH || a.second == key);
        });
        const ActionValue fresh = evaluate(*s, *action, key, set_active);
        update_value(s->action_values[{action->id, key}], fresh, now);
      }
    }
  }
  // After LOSS_PENDING a few more calls succeed before the session is lost.
  if (s->loss_pending && !s->lost && --s->loss_countdown <= 0) s->lost = true;
  if (s->state != XR_SESSION_STATE_FOCUSED) return XR_SESSION_NOT_FOCUSED;
  return s->loss_pending ? XR_SESSION_LOSS_PENDING : XR_SUCCESS;
}

// The current value in each state type's own form.
void set_current(XrActionStateBoolean& state, const ActionValue& v) {
  state.currentState = v.boolean ? XR_TRUE : XR_FALSE;
}
void set_current(XrActionStateFloat& state, const ActionValue& v) {
  state.currentState = v.scalar;
}
void set_current(XrActionStateVector2f& state, const ActionValue& v) {
  state.currentState = v.vector;
}

// xrGetActionState{Boolean,Float,Vector2f}: the value and the fields every such state shares.
template <typename State>
XrResult get_state(XrSession session, const XrActionStateGetInfo* info, State* state,
                   XrStructureType state_type, XrActionType action_type) {
  const StateQuery q = query_state(session, info, state, state_type, action_type);
  if (q.session == nullptr) return q.result;
  const ActionValue v = stored_value(*q.session, *q.action, info->subactionPath);
  set_current(*state, v);
  state->changedSinceLastSync = v.changed ? XR_TRUE : XR_FALSE;
  state->lastChangeTime = v.last_change;
  state->isActive = v.active ? XR_TRUE : XR_FALSE;
  return success_of(*q.session);
}

XrResult xrGetActionStateBoolean(XrSession session, const XrActionStateGetInfo* info,
                                 XrActionStateBoolean* state) {
  return get_state(session, info, state, XR_TYPE_ACTION_STATE_BOOLEAN,
                   XR_ACTION_TYPE_BOOLEAN_INPUT);
}

XrResult xrGetActionStateFloat(XrSession session, const XrActionStateGetInfo* info,
                               XrActionStateFloat* state) {
  return get_state(session, info, state, XR_TYPE_ACTION_STATE_FLOAT, XR_ACTION_TYPE_FLOAT_INPUT);
}

XrResult xrGetActionStateVector2f(XrSession session, const XrActionStateGetInfo* info,
                                  XrActionStateVector2f* state) {
  return get_state(session, info, state, XR_TYPE_ACTION_STATE_VECTOR2F,
                   XR_ACTION_TYPE_VECTOR2F_INPUT);
}

XrResult xrGetActionStatePose(XrSession session, const XrActionStateGetInfo* info,
                              XrActionStatePose* state) {
  const StateQuery q =
      query_state(session, info, state, XR_TYPE_ACTION_STATE_POSE, XR_ACTION_TYPE_POSE_INPUT);
  if (q.session == nullptr) return q.result;
  state->isActive =
      stored_value(*q.session, *q.action, info->subactionPath).active ? XR_TRUE : XR_FALSE;
  return success_of(*q.session);
}

XrResult xrEnumerateBoundSourcesForAction(XrSession session,
                                          const XrBoundSourcesForActionEnumerateInfo* info,
                                          uint32_t capacity, uint32_t* count, XrPath* sources) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_BOUND_SOURCES_FOR_ACTION_ENUMERATE_INFO) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  const Action* action = find<Action>(info->action);
  if (action == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (!is_attached(*s, *action)) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  std::vector<XrPath> paths;
  for (const Source& src : sources_for(*s, *action, XR_NULL_PATH)) {
    const XrPath p = intern_path(src.full_path);
    if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(p);
  }
  const XrResult r = two_call(capacity, count, sources, paths.size(),
                              [&](XrPath& out, std::size_t i) { out = paths[i]; });
  return r == XR_SUCCESS ? success_of(*s) : r;
}

XrResult xrGetInputSourceLocalizedName(XrSession session,
                                       const XrInputSourceLocalizedNameGetInfo* info,
                                       uint32_t capacity, uint32_t* count, char* buffer) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_INPUT_SOURCE_LOCALIZED_NAME_GET_INFO ||
      info->whichComponents == 0) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (XrResult r = session_status(*s); r < 0) return r;
  const std::string* path = path_string(info->sourcePath);
  if (path == nullptr) return XR_ERROR_PATH_INVALID;
  if (s->attached_sets.empty()) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  const SourceParts parts = split_source(*path);
  std::string name;
  auto append = [&](const std::string& word) {
    if (word.empty()) return;
    if (!name.empty()) name += ' ';
    name += word;
  };
  if ((info->whichComponents & XR_INPUT_SOURCE_LOCALIZED_NAME_USER_PATH_BIT) != 0) {
    append(parts.hand == 0 ? "Left Hand" : parts.hand == 1 ? "Right Hand" : "User");
  }
  if ((info->whichComponents & XR_INPUT_SOURCE_LOCALIZED_NAME_INTERACTION_PROFILE_BIT) != 0) {
    const std::string* profile = path_string(s->current_profile);
    const Profile* p = profile ? find_profile(*profile) : nullptr;
    append(p ? p->display_name : "Controller");
  }
  if ((info->whichComponents & XR_INPUT_SOURCE_LOCALIZED_NAME_COMPONENT_BIT) != 0) {
    append(title_case(parts.identifier));
    if (parts.component != "pose") append(title_case(parts.component));
  }
  const XrResult r =
      two_call(capacity, count, buffer, name.size() + 1,
               [&](char& c, std::size_t i) { c = i < name.size() ? name[i] : '\0'; });
  return r == XR_SUCCESS ? success_of(*s) : r;
}

XrResult xrApplyHapticFeedback(XrSession session, const XrHapticActionInfo* info,
                               const XrHapticBaseHeader* feedback) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || feedback == nullptr || info->type != XR_TYPE_HAPTIC_ACTION_INFO ||
      feedback->type != XR_TYPE_HAPTIC_VIBRATION) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  const Action* action = find<Action>(info->action);
  if (action == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (!is_attached(*s, *action)) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  if (action->type != XR_ACTION_TYPE_VIBRATION_OUTPUT) return XR_ERROR_ACTION_TYPE_MISMATCH;
  if (info->subactionPath != XR_NULL_PATH &&
      std::find(action->subactions.begin(), action->subactions.end(), info->subactionPath) ==
          action->subactions.end()) {
    return path_string(info->subactionPath) == nullptr ? XR_ERROR_PATH_INVALID
                                                       : XR_ERROR_PATH_UNSUPPORTED;
  }
  const auto* vibration = reinterpret_cast<const XrHapticVibration*>(feedback);
  const bool focused = s->state == XR_SESSION_STATE_FOCUSED;
  std::vector<int> hands;
  for (const Source& src : sources_for(*s, *action, info->subactionPath)) {
    if (src.parts.output && std::find(hands.begin(), hands.end(), src.parts.hand) == hands.end()) {
      hands.push_back(src.parts.hand);
    }
  }
  const bool bound = !hands.empty();
  if (!bound)
    hands.push_back(info->subactionPath == XR_NULL_PATH ? -1 : hand_of_path(info->subactionPath));
  Runtime& rt = runtime();
  for (int hand : hands) {
    rt.haptics.push_back({static_cast<double>(now_ns()) * 1e-9, hand, vibration->amplitude,
                          vibration->duration, vibration->frequency, focused && bound});
  }
  if (!focused) return XR_SESSION_NOT_FOCUSED;
  return success_of(*s);
}

XrResult xrStopHapticFeedback(XrSession session, const XrHapticActionInfo* info) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_HAPTIC_ACTION_INFO)
    return XR_ERROR_VALIDATION_FAILURE;
  const Action* action = find<Action>(info->action);
  if (action == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (!is_attached(*s, *action)) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  if (action->type != XR_ACTION_TYPE_VIBRATION_OUTPUT) return XR_ERROR_ACTION_TYPE_MISMATCH;
  if (s->state != XR_SESSION_STATE_FOCUSED) return XR_SESSION_NOT_FOCUSED;
  return success_of(*s);
}

}  // namespace api
}  // namespace stagger::simxr
