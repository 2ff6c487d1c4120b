// Compiled, never run: GuiApp, the desktop app's state, needs no ImGui. The build gives this
// file the include paths of libraries without ImGui only, so an ImGui header reached from
// gui_app.hpp is not found; where ImGui is on the system's own path, IMGUI_VERSION (which
// imgui.h defines) tells.
#include "app/gui/gui_app.hpp"

#ifdef IMGUI_VERSION
#error "app/gui/gui_app.hpp includes ImGui"
#endif

namespace coop::app {

// The state is usable as a type, not only declared.
static_assert(sizeof(GuiApp) > 0);

}  // namespace coop::app
