// The session state machine, frame loop call order, injected session events.
#include "xr_test_util.h"

namespace stagger::simxr::test {
namespace {

using States = std::vector<XrSessionState>;

// An exit asked for by the app or the runtime: the session steps down to STOPPING, the app ends
// it, and the runtime reports IDLE, then EXITING.
void stop_and_exit(const HeadlessSession& h) {
  EXPECT_EQ(
      poll_states(h.instance),
      (States{XR_SESSION_STATE_VISIBLE, XR_SESSION_STATE_SYNCHRONIZED, XR_SESSION_STATE_STOPPING}));
  ASSERT_EQ(xrEndSession(h.session), XR_SUCCESS);
  EXPECT_EQ(poll_states(h.instance), (States{XR_SESSION_STATE_IDLE, XR_SESSION_STATE_EXITING}));
}

TEST(XrRuntimeSession, HeadlessLifecycle) {
  Control control;
  control.fresh();
  HeadlessSession h;
  EXPECT_EQ(poll_states(h.instance), (States{XR_SESSION_STATE_IDLE, XR_SESSION_STATE_READY}));
  uint32_t formats = 99;
  ASSERT_EQ(xrEnumerateSwapchainFormats(h.session, 0, &formats, nullptr), XR_SUCCESS);
  EXPECT_EQ(formats, 0u);
  XrFrameState state{XR_TYPE_FRAME_STATE};
  EXPECT_EQ(xrWaitFrame(h.session, nullptr, &state), XR_ERROR_SESSION_NOT_RUNNING);
  begin_session(h.session);
  XrSessionBeginInfo again{XR_TYPE_SESSION_BEGIN_INFO};
  again.primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  EXPECT_EQ(xrBeginSession(h.session, &again), XR_ERROR_SESSION_RUNNING);
  EXPECT_EQ(poll_states(h.instance), (States{XR_SESSION_STATE_SYNCHRONIZED,
                                             XR_SESSION_STATE_VISIBLE, XR_SESSION_STATE_FOCUSED}));
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(empty_frame(h.session, &state), XR_SUCCESS);
    EXPECT_EQ(state.shouldRender, XR_FALSE);  // headless never renders
    EXPECT_GT(state.predictedDisplayPeriod, 0);
  }
  EXPECT_EQ(control.stagger_simxr_frames_total(), 5u);
  EXPECT_EQ(control.stagger_simxr_frames_submitted(), 0u);
  EXPECT_EQ(xrEndSession(h.session), XR_ERROR_SESSION_NOT_STOPPING);
  ASSERT_EQ(xrRequestExitSession(h.session), XR_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(stop_and_exit(h));
  EXPECT_EQ(xrEndSession(h.session), XR_ERROR_SESSION_NOT_RUNNING);
  EXPECT_EQ(xrDestroySession(h.session), XR_SUCCESS);
  EXPECT_EQ(xrDestroySession(h.session), XR_ERROR_HANDLE_INVALID);
}

TEST(XrRuntimeSession, FrameCallOrder) {
  Control control;
  control.fresh();
  HeadlessSession h;
  h.run_to_focused();
  EXPECT_EQ(xrBeginFrame(h.session, nullptr), XR_ERROR_CALL_ORDER_INVALID);  // no xrWaitFrame
  XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
  end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  XrFrameState state{XR_TYPE_FRAME_STATE};
  ASSERT_EQ(xrWaitFrame(h.session, nullptr, &state), XR_SUCCESS);
  end.displayTime = state.predictedDisplayTime;
  EXPECT_EQ(xrEndFrame(h.session, &end), XR_ERROR_CALL_ORDER_INVALID);  // not begun
  ASSERT_EQ(xrBeginFrame(h.session, nullptr), XR_SUCCESS);
  ASSERT_EQ(xrWaitFrame(h.session, nullptr, &state), XR_SUCCESS);
  EXPECT_EQ(xrBeginFrame(h.session, nullptr), XR_FRAME_DISCARDED);  // the first frame is dropped
  end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_ADDITIVE;
  EXPECT_EQ(xrEndFrame(h.session, &end), XR_ERROR_ENVIRONMENT_BLEND_MODE_UNSUPPORTED);
  end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  end.displayTime = 0;
  EXPECT_EQ(xrEndFrame(h.session, &end), XR_ERROR_TIME_INVALID);
  end.displayTime = state.predictedDisplayTime;
  EXPECT_EQ(xrEndFrame(h.session, &end), XR_SUCCESS);
}

TEST(XrRuntimeSession, WaitFramePacesAtDisplayRate) {
  Control control;
  control.fresh(R"({"display_hz": 100})");
  HeadlessSession h;
  h.run_to_focused();
  XrFrameState first{XR_TYPE_FRAME_STATE};
  ASSERT_EQ(empty_frame(h.session, &first), XR_SUCCESS);
  const XrTime start = now_xr(h.instance);
  XrFrameState last{XR_TYPE_FRAME_STATE};
  for (int i = 0; i < 10; ++i) ASSERT_EQ(empty_frame(h.session, &last), XR_SUCCESS);
  const double elapsed_s = static_cast<double>(now_xr(h.instance) - start) * 1e-9;
  EXPECT_EQ(last.predictedDisplayPeriod, 10000000);
  EXPECT_GT(elapsed_s, 0.08);
  EXPECT_LT(elapsed_s, 0.5);
  EXPECT_GT(last.predictedDisplayTime, first.predictedDisplayTime);
}

TEST(XrRuntimeSession, RuntimeRequestedExitAfterFrames) {
  Control control;
  control.fresh();
  HeadlessSession h;
  h.run_to_focused();
  ASSERT_EQ(control.stagger_simxr_queue_event(STAGGER_SIMXR_EVENT_EXIT, 3), 0);
  for (int i = 0; i < 2; ++i) ASSERT_EQ(empty_frame(h.session), XR_SUCCESS);
  EXPECT_TRUE(poll_states(h.instance).empty());
  ASSERT_EQ(empty_frame(h.session), XR_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(stop_and_exit(h));
}

TEST(XrRuntimeSession, LossPendingThenANewSessionWorks) {
  Control control;
  control.fresh();
  HeadlessSession h;
  h.run_to_focused();
  ASSERT_EQ(control.stagger_simxr_queue_event(STAGGER_SIMXR_EVENT_LOSS_PENDING, 0), 0);
  EXPECT_EQ(poll_states(h.instance), (States{XR_SESSION_STATE_LOSS_PENDING}));
  XrFrameState state{XR_TYPE_FRAME_STATE};
  EXPECT_EQ(xrWaitFrame(h.session, nullptr, &state), XR_SESSION_LOSS_PENDING);
  XrResult r = XR_SESSION_LOSS_PENDING;
  for (int i = 0; i < 10 && r == XR_SESSION_LOSS_PENDING; ++i)
    r = xrWaitFrame(h.session, nullptr, &state);
  EXPECT_EQ(r, XR_ERROR_SESSION_LOST);
  EXPECT_EQ(xrBeginFrame(h.session, nullptr), XR_ERROR_SESSION_LOST);
  ASSERT_EQ(xrDestroySession(h.session), XR_SUCCESS);
  // The instance survives: a fresh session goes through the whole start-up again.
  XrSession second = create_headless_session(h.instance, h.system);
  EXPECT_EQ(poll_states(h.instance), (States{XR_SESSION_STATE_IDLE, XR_SESSION_STATE_READY}));
  begin_session(second);
  EXPECT_EQ(poll_states(h.instance).back(), XR_SESSION_STATE_FOCUSED);
  EXPECT_EQ(empty_frame(second), XR_SUCCESS);
  EXPECT_EQ(control.stagger_simxr_sessions_created(), 2u);
}

TEST(XrRuntimeSession, OneSessionPerInstanceAndHandleChecks) {
  Control control;
  control.fresh();
  HeadlessSession h;
  XrSessionCreateInfo info{XR_TYPE_SESSION_CREATE_INFO};
  info.systemId = h.system;
  XrSession other = XR_NULL_HANDLE;
  EXPECT_EQ(xrCreateSession(h.instance, &info, &other), XR_ERROR_LIMIT_REACHED);
  info.systemId = 12345;
  EXPECT_EQ(xrCreateSession(h.instance, &info, &other), XR_ERROR_SYSTEM_INVALID);
  XrFrameState state{XR_TYPE_FRAME_STATE};
  EXPECT_EQ(xrWaitFrame(reinterpret_cast<XrSession>(uintptr_t{0xdead}), nullptr, &state),
            XR_ERROR_HANDLE_INVALID);
}

TEST(XrRuntimeSession, NoGraphicsBindingWithoutHeadless) {
  Control control;
  control.fresh();
  XrInstance instance = create_instance({});
  XrSessionCreateInfo info{XR_TYPE_SESSION_CREATE_INFO};
  info.systemId = get_system(instance);
  XrSession session = XR_NULL_HANDLE;
  EXPECT_EQ(xrCreateSession(instance, &info, &session), XR_ERROR_GRAPHICS_DEVICE_INVALID);
  xrDestroyInstance(instance);
}

TEST(XrRuntimeSession, ViewsFollowTheHead) {
  Control control;
  control.fresh(R"({"display_hz": 0, "head": {"position": [1, 1.7, 2], "yaw_deg": 90}})");
  HeadlessSession h;
  h.run_to_focused();
  const XrSpace stage = reference_space(h.session, XR_REFERENCE_SPACE_TYPE_STAGE);
  ASSERT_NE(stage, XR_NULL_HANDLE);
  XrViewLocateInfo info{XR_TYPE_VIEW_LOCATE_INFO};
  info.viewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  info.displayTime = now_xr(h.instance);
  info.space = stage;
  XrViewState state{XR_TYPE_VIEW_STATE};
  std::vector<XrView> views(2, {XR_TYPE_VIEW});
  uint32_t count = 0;
  ASSERT_EQ(xrLocateViews(h.session, &info, &state, 2, &count, views.data()), XR_SUCCESS);
  EXPECT_EQ(state.viewStateFlags & XR_VIEW_STATE_POSITION_TRACKED_BIT,
            XR_VIEW_STATE_POSITION_TRACKED_BIT);
  // Yaw 90 deg: the head looks along -X, so the left eye (-X in head space) sits at +Z.
  EXPECT_NEAR(views[0].pose.position.x, 1.0f, 1e-5f);
  EXPECT_NEAR(views[0].pose.position.y, 1.7f, 1e-5f);
  EXPECT_NEAR(views[0].pose.position.z, 2.032f, 1e-5f);
  EXPECT_NEAR(views[1].pose.position.z, 1.968f, 1e-5f);
  EXPECT_NEAR(views[0].fov.angleRight, 0.7853982f, 1e-6f);
  // LOCAL's origin is the head at session creation.
  const XrSpace local = reference_space(h.session, XR_REFERENCE_SPACE_TYPE_LOCAL);
  ASSERT_NE(local, XR_NULL_HANDLE);
  XrSpaceLocation location{XR_TYPE_SPACE_LOCATION};
  ASSERT_EQ(xrLocateSpace(local, stage, info.displayTime, &location), XR_SUCCESS);
  EXPECT_NEAR(location.pose.position.x, 1.0f, 1e-5f);
  EXPECT_NEAR(location.pose.position.y, 1.7f, 1e-5f);
}

// A script nested absurdly deep, or with a key written twice, is refused with a sentence (and the
// runtime keeps working).
TEST(XrRuntimeSession, DeepOrRepeatedScriptsAreRefused) {
  Control control;
  char error[512] = {};
  const std::string deep =
      "{\"events\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_NE(control.stagger_simxr_load_script(deep.c_str(), error, sizeof error), 0);
  EXPECT_NE(std::string(error).find("nests arrays and objects more than 256 deep"),
            std::string::npos)
      << error;
  EXPECT_NE(control.stagger_simxr_load_script(R"({"display_hz": 90, "display_hz": 0})", error,
                                              sizeof error),
            0);
  EXPECT_NE(std::string(error).find("the key \"display_hz\" appears twice in one object"),
            std::string::npos)
      << error;
  control.fresh();
}

}  // namespace
}  // namespace stagger::simxr::test
