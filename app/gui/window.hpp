// The GLFW window, its OpenGL 3.3 core context and Dear ImGui's platform and renderer backends.
// The only file that touches GLFW and GL (besides the PNG read-back in capture).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/gui_app.hpp"

struct GLFWwindow;

namespace coop::app {
struct ImVec2Like {
  float x = 0, y = 0;
};
}  // namespace coop::app

namespace coop::app {

struct WindowOptions {
  int width = 1440, height = 900;
  bool visible = true;  // false: offscreen work only (screenshots, benchmarks)
  std::string title = "coopviz";
};

class GuiWindow {
 public:
  // Opens the window and initialises ImGui, or says why not (no display, no GL 3.3).
  static Result<std::unique_ptr<GuiWindow>> open(const WindowOptions& options);
  ~GuiWindow();
  GuiWindow(const GuiWindow&) = delete;
  GuiWindow& operator=(const GuiWindow&) = delete;

  // Runs the interactive loop until the window is closed. `each_frame(app, now)` runs before
  // drawing (scripts use it); returning false closes the window.
  void run(GuiApp& app, const std::function<bool(GuiApp&, double)>& each_frame = {});

  // The window's size in screen coordinates (remembered between runs).
  int width() const;
  int height() const;

  // Draws `frames` frames of the app offscreen at width x height and writes the last one to
  // `png_path` (frames let ImGui settle its layout). The app is not advanced in time.
  Status capture(GuiApp& app, int width, int height, int frames, const std::string& png_path);
  // The same without writing a picture; then clipped_windows() tells what the last frame cut.
  Status render(GuiApp& app, int width, int height, int frames);
  // Panels and windows of the last frame whose content runs past their visible area where the
  // user cannot scroll to it: wider than the panel without a horizontal scrollbar, or taller
  // with scrolling switched off. Each entry names the window and by how many pixels.
  std::vector<std::string> clipped_windows() const;
  // Size in pixels of the last frame's window or panel whose name contains `name` ("" when
  // none was drawn; `name` is a panel id such as "/grid_panel").
  ImVec2Like panel_size(const std::string& name) const;
  // The vertical scroll of the last frame's panel whose name contains `name`: where it stands and
  // how far it could go (0 when everything shows); found false when no such panel was drawn.
  struct PanelScroll {
    bool found = false;
    float y = 0, max_y = 0;
  };
  PanelScroll panel_scroll(const std::string& name) const;
  // Scrolls that panel to its end on the next frame, as a reader who read all of it leaves it.
  void scroll_panel_to_end(const std::string& name);

  // Draws one frame offscreen at width x height without reading it back; returns the CPU
  // milliseconds spent building draw lists (NewFrame to Render) and the total frame time,
  // including the GPU (or llvmpipe) finishing it.
  struct FrameTiming {
    double build_ms = 0;       // wall time from NewFrame to Render: building the draw lists
    double build_cpu_ms = 0;   // the same span in this thread's CPU time
    double update_ms = 0;      // app.update: runs picked up, playback, thread snapshot
    double render_ms = 0;      // OpenGL: clear, draw the lists, glFinish (llvmpipe rasterises)
    double render_cpu_ms = 0;  // the same span in CPU time of the whole process (all threads)
    double frame_ms = 0;       // the whole frame, rasterising included
    int vertices = 0, draw_calls = 0;  // what the frame sent to OpenGL
  };
  FrameTiming timed_frame(GuiApp& app, int width, int height);

  // Largest offscreen image this GL can render (GL_MAX_RENDERBUFFER_SIZE).
  int max_image_size() const;
  // The GL_RENDERER string ("llvmpipe (LLVM 15.0.6, 256 bits)", a GPU's name, ...).
  std::string renderer() const;

 private:
  GuiWindow() = default;
  // Fonts, colours and sizes for the app's scale and mode at a display of width x height.
  void apply_style(const GuiApp& app, int width, int height);
  void begin_frame(GuiApp& app, double now, int width, int height, bool offscreen);
  void end_frame();

  GLFWwindow* window_ = nullptr;
  float style_scale_ = 0;  // the scale fonts were built for
  bool style_presentation_ = false;
  float style_font_px_ = 0;  // presentation's text size the fonts were built for
  double last_time_ = 0;
  unsigned fbo_ = 0, color_rb_ = 0;
  int fbo_w_ = 0, fbo_h_ = 0;
  bool bind_offscreen(int width, int height);
  void set_full_screen(bool on);
  int windowed_[4] = {80, 80, 1440, 900};  // position and size to return to from full screen
};

// Writes tightly packed RGBA rows (bottom row first, as GL reads them) as a PNG, atomically.
Status write_png(const std::string& path, int width, int height, const unsigned char* rgba);

}  // namespace coop::app
