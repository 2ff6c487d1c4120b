// A window showing every view on synthetic data (visual/synthetic_trace.hpp), in the spirit of
// ImGui's ShowDemoWindow: a catalogue to copy from and a manual test of each view.
#pragma once

namespace coop::visual {

// Draws the demo window; `open` is cleared when the user closes it.
void ShowVisualDemoWindow(bool* open);

}  // namespace coop::visual
