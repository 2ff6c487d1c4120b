// Index
//   [SECTION] GL entry points beyond OpenGL 1.1
//   [SECTION] Opening and closing
//   [SECTION] Frames: interactive, offscreen, timed
//   [SECTION] PNG output
#include "app/gui/window.hpp"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <thread>
#include <vector>

#define GLFW_INCLUDE_GLEXT
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb/stb_image_write.h>

#include "app/gui/panels.hpp"
#include "app/gui/theme.hpp"
#include "device/trace/trace_file.hpp"
#include "visual/views/demo_window.hpp"

namespace coop::app {
namespace {

// [SECTION] GL entry points beyond OpenGL 1.1
// libGL exports only OpenGL 1.1 portably; framebuffer objects come through GLFW's loader.
struct GlFunctions {
  PFNGLGENFRAMEBUFFERSPROC GenFramebuffers = nullptr;
  PFNGLDELETEFRAMEBUFFERSPROC DeleteFramebuffers = nullptr;
  PFNGLBINDFRAMEBUFFERPROC BindFramebuffer = nullptr;
  PFNGLGENRENDERBUFFERSPROC GenRenderbuffers = nullptr;
  PFNGLDELETERENDERBUFFERSPROC DeleteRenderbuffers = nullptr;
  PFNGLBINDRENDERBUFFERPROC BindRenderbuffer = nullptr;
  PFNGLRENDERBUFFERSTORAGEPROC RenderbufferStorage = nullptr;
  PFNGLFRAMEBUFFERRENDERBUFFERPROC FramebufferRenderbuffer = nullptr;
  PFNGLCHECKFRAMEBUFFERSTATUSPROC CheckFramebufferStatus = nullptr;

  bool load() {
    auto get = [](const char* name) { return glfwGetProcAddress(name); };
    GenFramebuffers = reinterpret_cast<PFNGLGENFRAMEBUFFERSPROC>(get("glGenFramebuffers"));
    DeleteFramebuffers = reinterpret_cast<PFNGLDELETEFRAMEBUFFERSPROC>(get("glDeleteFramebuffers"));
    BindFramebuffer = reinterpret_cast<PFNGLBINDFRAMEBUFFERPROC>(get("glBindFramebuffer"));
    GenRenderbuffers = reinterpret_cast<PFNGLGENRENDERBUFFERSPROC>(get("glGenRenderbuffers"));
    DeleteRenderbuffers =
        reinterpret_cast<PFNGLDELETERENDERBUFFERSPROC>(get("glDeleteRenderbuffers"));
    BindRenderbuffer = reinterpret_cast<PFNGLBINDRENDERBUFFERPROC>(get("glBindRenderbuffer"));
    RenderbufferStorage =
        reinterpret_cast<PFNGLRENDERBUFFERSTORAGEPROC>(get("glRenderbufferStorage"));
    FramebufferRenderbuffer =
        reinterpret_cast<PFNGLFRAMEBUFFERRENDERBUFFERPROC>(get("glFramebufferRenderbuffer"));
    CheckFramebufferStatus =
        reinterpret_cast<PFNGLCHECKFRAMEBUFFERSTATUSPROC>(get("glCheckFramebufferStatus"));
    return GenFramebuffers && DeleteFramebuffers && BindFramebuffer && GenRenderbuffers &&
           DeleteRenderbuffers && BindRenderbuffer && RenderbufferStorage &&
           FramebufferRenderbuffer && CheckFramebufferStatus;
  }
};

GlFunctions gl;
std::string glfw_error;  // the last GLFW error, for messages

void on_glfw_error(int code, const char* description) {
  glfw_error = "GLFW error " + std::to_string(code) + ": " + description;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double process_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

}  // namespace

// [SECTION] Opening and closing

Result<std::unique_ptr<GuiWindow>> GuiWindow::open(const WindowOptions& options) {
  glfwSetErrorCallback(on_glfw_error);
  // An X server that is busy accepting other clients (a test suite's parallel windows on one
  // Xvfb) can refuse a connection for a moment: two more tries before giving up.
  bool initialized = glfwInit();
  for (int retry = 0; retry < 2 && !initialized && std::getenv("DISPLAY"); ++retry) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    initialized = glfwInit();
  }
  if (!initialized)
    return Status::error("cannot open a window: " +
                         (glfw_error.empty() ? std::string("glfwInit failed") : glfw_error) +
                         " (is DISPLAY set? without a display, run under xvfb-run)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  // The first size (or one remembered from a larger screen) must fit the screen it opens on.
  int area_x = 0, area_y = 0, area_w = 0, area_h = 0;
  if (GLFWmonitor* monitor = glfwGetPrimaryMonitor())
    glfwGetMonitorWorkarea(monitor, &area_x, &area_y, &area_w, &area_h);
  const WindowSize size = fit_window_to_screen({options.width, options.height}, area_w, area_h);
  GLFWwindow* w =
      glfwCreateWindow(size.width, size.height, options.title.c_str(), nullptr, nullptr);
  if (!w) {
    glfwTerminate();
    return Status::error("cannot create an OpenGL 3.3 core window: " + glfw_error);
  }
  glfwMakeContextCurrent(w);
  glfwSwapInterval(1);
  if (!gl.load()) {
    glfwDestroyWindow(w);
    glfwTerminate();
    return Status::error("this OpenGL has no framebuffer objects (OpenGL 3.0 or newer needed)");
  }
  std::unique_ptr<GuiWindow> window(new GuiWindow());
  window->window_ = w;
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is ours (settings.json), not ImGui's window list
  ImGui_ImplGlfw_InitForOpenGL(w, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  window->last_time_ = glfwGetTime();
  return window;
}

GuiWindow::~GuiWindow() {
  if (fbo_) gl.DeleteFramebuffers(1, &fbo_);
  if (color_rb_) gl.DeleteRenderbuffers(1, &color_rb_);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

int GuiWindow::max_image_size() const {
  GLint size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &size);
  return size;
}

std::string GuiWindow::renderer() const {
  const GLubyte* name = glGetString(GL_RENDERER);
  return name ? reinterpret_cast<const char*>(name) : "unknown";
}

void GuiWindow::apply_style(const GuiApp& app, int width, int height) {
  const float scale = app.ui_scale;
  const float font_px = app.presentation ? presentation_font_px(width, height) : 0;
  if (scale == style_scale_ && app.presentation == style_presentation_ && font_px == style_font_px_)
    return;
  build_theme(scale, app.presentation, font_px);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  style_scale_ = scale;
  style_presentation_ = app.presentation;
  style_font_px_ = font_px;
}

bool GuiWindow::bind_offscreen(int width, int height) {
  if (!fbo_ || width != fbo_w_ || height != fbo_h_) {
    if (fbo_) gl.DeleteFramebuffers(1, &fbo_);
    if (color_rb_) gl.DeleteRenderbuffers(1, &color_rb_);
    gl.GenFramebuffers(1, &fbo_);
    gl.GenRenderbuffers(1, &color_rb_);
    gl.BindRenderbuffer(GL_RENDERBUFFER, color_rb_);
    gl.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    gl.BindFramebuffer(GL_FRAMEBUFFER, fbo_);
    gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_rb_);
    fbo_w_ = width;
    fbo_h_ = height;
  }
  gl.BindFramebuffer(GL_FRAMEBUFFER, fbo_);
  return gl.CheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

// [SECTION] Frames: interactive, offscreen, timed

void GuiWindow::begin_frame(GuiApp& app, double now, int width, int height, bool offscreen) {
  apply_style(app, width, height);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (offscreen) {
    // The image, not the (hidden) window, is the display; no mouse hovers over it.
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(width), float(height));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  }
  ImGui::NewFrame();
  draw_app(app, now);
  if (app.show_demo) visual::ShowVisualDemoWindow(&app.show_demo);
  ImGui::Render();
}

void GuiWindow::end_frame() {
  const ImVec4 clear = ImGui::GetStyle().Colors[ImGuiCol_ChildBg];  // see layout.cpp
  ImDrawData* dd = ImGui::GetDrawData();
  glViewport(0, 0, int(dd->DisplaySize.x * dd->FramebufferScale.x),
             int(dd->DisplaySize.y * dd->FramebufferScale.y));
  glClearColor(clear.x, clear.y, clear.z, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(dd);
}

int GuiWindow::width() const {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  return w;
}

int GuiWindow::height() const {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  return h;
}

void GuiWindow::set_full_screen(bool on) {
  const bool full = glfwGetWindowMonitor(window_) != nullptr;
  if (on == full) return;
  if (on) {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (!mode) return;
    glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
    glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else {
    glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3],
                         0);
  }
}

void GuiWindow::run(GuiApp& app, const std::function<bool(GuiApp&, double)>& each_frame) {
  bool presenting = false;  // presentation mode as last seen (started windowed)
  while (!glfwWindowShouldClose(window_)) {
    // Idle windows sleep until input arrives; playing or running ones keep drawing.
    if (app.playback.playing || app.running())
      glfwPollEvents();
    else
      glfwWaitEventsTimeout(0.25);
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(window_, &sx, &sy);
    app.ui_scale = std::max(1.0f, sx);
    const double now = glfwGetTime();
    app.update(now, now - last_time_);
    last_time_ = now;
    if (each_frame && !each_frame(app, now)) break;
    // F11 toggles full screen; presentation mode goes full screen and back with it.
    const bool full = glfwGetWindowMonitor(window_) != nullptr;
    if (ImGui::IsKeyPressed(GLFW_KEY_F11)) set_full_screen(!full);
    if (app.presentation != presenting) {
      presenting = app.presentation;
      set_full_screen(presenting);
    }
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    begin_frame(app, now, w, h, false);
    gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
    end_frame();
    if (app.export_requested > 0 && --app.export_requested == 0) {
      std::vector<unsigned char> pixels(size_t(w) * size_t(h) * 4);
      glReadBuffer(GL_BACK);
      glPixelStorei(GL_PACK_ALIGNMENT, 1);
      glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
      const lessons::LessonDef* l = app.lesson_def();
      const std::string name = "coopviz-" + (l ? l->id : std::string("trace")) + "-" +
                               std::to_string(std::time(nullptr)) + ".png";
      const std::string folder = app.export_folder();
      std::error_code ec;
      std::filesystem::create_directories(folder, ec);
      const std::string path =
          std::filesystem::absolute(std::filesystem::path(folder) / name, ec).string();
      const Status s = write_png(path, w, h, pixels.data());
      app.say(s ? "Saved the picture as " + path : "Export PNG failed: " + s.message(), !s);
    }
    glfwGetWindowSize(window_, &app.window_width, &app.window_height);
    app.keep_settings(now, false);
    glfwSwapBuffers(window_);
  }
}

Status GuiWindow::render(GuiApp& app, int width, int height, int frames) {
  if (!bind_offscreen(width, height))
    return Status::error("cannot render a " + std::to_string(width) + "x" + std::to_string(height) +
                         " image with this OpenGL");
  for (int i = 0; i < std::max(1, frames); ++i) {
    glfwPollEvents();
    app.update(glfwGetTime(), 0);
    begin_frame(app, glfwGetTime(), width, height, true);
    bind_offscreen(width, height);
    end_frame();
  }
  return {};
}

std::vector<std::string> GuiWindow::clipped_windows() const {
  std::vector<std::string> out;
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  for (const ImGuiWindow* w : g.Windows) {
    if (!w->Active || w->Hidden || w->SkipItems) continue;
    // Content reaches DC.CursorMaxPos; what shows ends at the work rectangle (inside padding).
    const float over_x = w->DC.CursorMaxPos.x - w->WorkRect.Max.x;
    const float over_y = w->DC.CursorMaxPos.y - w->WorkRect.Max.y;
    const bool scrolls_x = w->ScrollbarX || (w->Flags & ImGuiWindowFlags_HorizontalScrollbar);
    const bool scrolls_y = !(w->Flags & ImGuiWindowFlags_NoScrollbar) &&
                           !(w->Flags & ImGuiWindowFlags_NoScrollWithMouse);
    // Content that reaches into the inner half of the window padding is still drawn (the clip
    // rectangle keeps it); past that it is cut.
    const float slack_x = std::max(1.5f, w->WindowPadding.x * 0.5f);
    const float slack_y = std::max(1.5f, w->WindowPadding.y * 0.5f);
    if (!scrolls_x && over_x > slack_x)
      out.push_back(std::string(w->Name) + ": " + std::to_string(int(over_x)) + " px too wide");
    if (!scrolls_y && over_y > slack_y)
      out.push_back(std::string(w->Name) + ": " + std::to_string(int(over_y)) + " px too tall");
  }
  return out;
}

ImVec2Like GuiWindow::panel_size(const std::string& name) const {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  for (const ImGuiWindow* w : g.Windows)
    if (w->Active && !w->Hidden && std::string(w->Name).find(name) != std::string::npos)
      return {w->Size.x, w->Size.y};
  return {};
}

GuiWindow::PanelScroll GuiWindow::panel_scroll(const std::string& name) const {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  for (const ImGuiWindow* w : g.Windows)
    if (w->Active && !w->Hidden && std::string(w->Name).find(name) != std::string::npos)
      return {true, w->Scroll.y, w->ScrollMax.y};
  return {};
}

void GuiWindow::scroll_panel_to_end(const std::string& name) {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  for (ImGuiWindow* w : g.Windows)
    if (w->Active && !w->Hidden && std::string(w->Name).find(name) != std::string::npos)
      ImGui::SetScrollY(w, w->ScrollMax.y);
}

Status GuiWindow::capture(GuiApp& app, int width, int height, int frames,
                          const std::string& png_path) {
  if (Status s = render(app, width, height, frames); !s) return s;
  std::vector<unsigned char> pixels(size_t(width) * size_t(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
  return write_png(png_path, width, height, pixels.data());
}

GuiWindow::FrameTiming GuiWindow::timed_frame(GuiApp& app, int width, int height) {
  FrameTiming t;
  const auto start = std::chrono::steady_clock::now();
  glfwPollEvents();
  const double now = glfwGetTime();
  app.update(now, now - last_time_);
  last_time_ = now;
  t.update_ms = milliseconds_since(start);
  const auto build = std::chrono::steady_clock::now();
  const double cpu_start = thread_cpu_ms();
  begin_frame(app, now, width, height, true);
  t.build_cpu_ms = thread_cpu_ms() - cpu_start;
  t.build_ms = milliseconds_since(build);
  const ImDrawData* dd = ImGui::GetDrawData();
  t.vertices = dd->TotalVtxCount;
  for (int i = 0; i < dd->CmdListsCount; ++i) t.draw_calls += dd->CmdLists[i]->CmdBuffer.Size;
  const auto render = std::chrono::steady_clock::now();
  const double render_cpu = process_cpu_ms();
  bind_offscreen(width, height);
  end_frame();
  glFinish();  // count the rasterising too: llvmpipe does it on the CPU
  t.render_ms = milliseconds_since(render);
  t.render_cpu_ms = process_cpu_ms() - render_cpu;
  t.frame_ms = milliseconds_since(start);
  return t;
}

// [SECTION] PNG output

Status write_png(const std::string& path, int width, int height, const unsigned char* rgba) {
  // GL rows run bottom to top; PNG rows top to bottom. Alpha is forced opaque.
  std::vector<unsigned char> flipped(size_t(width) * size_t(height) * 4);
  const size_t row = size_t(width) * 4;
  for (int y = 0; y < height; ++y) {
    std::copy_n(rgba + size_t(height - 1 - y) * row, row, flipped.data() + size_t(y) * row);
    for (size_t x = 3; x < row; x += 4) flipped[size_t(y) * row + x] = 255;
  }
  std::string bytes;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
  };
  if (!stbi_write_png_to_func(append, &bytes, width, height, 4, flipped.data(), int(row)))
    return Status::error("cannot encode a " + std::to_string(width) + "x" + std::to_string(height) +
                         " PNG");
  return write_file_atomically(path, bytes);
}

}  // namespace coop::app
