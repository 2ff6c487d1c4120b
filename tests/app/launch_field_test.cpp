// A Launch panel field typed into key by key, headless (ImGui without a window): a refused value
// says why under the field, and a student who clicks into the field and types the next value
// replaces what it held (a click selects it all), so the refusal does not come back as 'abc16'.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>
#include <vector>

#include "visual/views/text_field.hpp"

namespace coop::visual {
namespace {

// One ImGui context without a window; each frame draws one field in one window.
class HeadlessField {
 public:
  HeadlessField() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {800, 600};
    io.IniFilename = nullptr;
    io.KeyMap[ImGuiKey_Enter] = kEnter;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~HeadlessField() { ImGui::DestroyContext(); }

  // Draws a frame.
  void frame() {
    ImGui::GetIO().DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({400, 300});
    ImGui::Begin("launch");
    ImGui::SetNextItemWidth(200);
    field_at = ImGui::GetCursorScreenPos();
    text_field("##grid", field, shown, [&](std::string_view text) {
      committed.push_back(std::string(text));
      Result<Dim3> d = parse_dims(text, "grid", {2147483647u, 65535, 65535});
      if (d) shown = dims_text(*d);
      return d ? Status() : d.status();
    });
    ImGui::End();
    ImGui::Render();
  }
  void press(int key) {
    ImGui::GetIO().KeysDown[key] = true;
    frame();
    ImGui::GetIO().KeysDown[key] = false;
    frame();
  }
  // Clicks into the field (right of its text), types `text` and presses Enter, as a student.
  void enter(const std::string& text) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = {field_at.x + 190, field_at.y + 5};
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
    for (char c : text) io.AddInputCharacter(static_cast<unsigned char>(c));
    frame();
    press(kEnter);
  }

  FieldText field;
  std::string shown = "8";
  std::vector<std::string> committed;
  ImVec2 field_at;

 private:
  static constexpr int kEnter = 1;
};

TEST(LaunchField, AValidValueAfterARefusedOneClearsTheRefusal) {
  HeadlessField f;
  f.frame();
  f.enter("abc");
  ASSERT_EQ(f.committed, std::vector<std::string>{"abc"}) << "the shown 8 was replaced";
  EXPECT_NE(f.field.error.find("abc"), std::string::npos) << f.field.error;
  f.enter("16");
  EXPECT_EQ(f.committed.back(), "16");
  EXPECT_EQ(f.field.error, "") << "the refusal of 'abc' stays after 16 was taken";
  EXPECT_EQ(f.shown, "16");
  f.frame();
  EXPECT_EQ(f.field.typed, "16");
}

}  // namespace
}  // namespace coop::visual
