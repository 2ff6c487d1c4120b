// The occupancy panel's ImGui view, drawn headless (no window, no GL): it must build draw lists
// for the demo data, including a click on a chart, without tripping ImGui's assertions.
#include <gtest/gtest.h>
#include <imgui.h>

#include "visual/occupancy_view.hpp"

namespace coop::visual {
namespace {

struct HeadlessImGui {
  HeadlessImGui() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {1400, 900};
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }
  int frame(void (*draw)()) {
    ImGui::GetIO().DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    draw();
    ImGui::Render();
    return ImGui::GetDrawData()->TotalVtxCount;
  }
};

TEST(OccupancyViewGui, DemoWindowDrawsHeadless) {
  HeadlessImGui gui;
  int vertices = 0;
  for (int i = 0; i < 3; ++i)
    vertices = gui.frame([] {
      ImGui::SetNextWindowSize({1300, 850});
      show_occupancy_demo_window();
    });
  EXPECT_GT(vertices, 1000);
}

TEST(OccupancyViewGui, PanelAndTimelineDrawForAModelledSchedule) {
  HeadlessImGui gui;
  int vertices = 0;
  for (int i = 0; i < 2; ++i)  // a new auto-sized window stays hidden on its first frame
    vertices = gui.frame([] {
      static OccupancyPanelState state;
      static BlockScheduleViewState timeline;
      const OccupancyPanelInput in = demo_occupancy_input();
      ImGui::SetNextWindowSize({1200, 800});
      ImGui::Begin("panel");
      draw_occupancy_panel(in, state);
      const double durations[] = {1, 2, 3, 4, 1, 2, 3, 4};
      draw_block_schedule(model_block_schedule(4, 1, durations), timeline);
      ImGui::End();
    });
  EXPECT_GT(vertices, 500);
}

}  // namespace
}  // namespace coop::visual
