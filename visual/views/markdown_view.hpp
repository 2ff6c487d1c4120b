// Draws parsed lesson text (visual/markdown.hpp) with the view fonts, wrapped to the window.
#pragma once

#include <vector>

#include "visual/markdown.hpp"

namespace coop::visual {

// Draws `blocks` at the cursor, wrapping to the available width.
void draw_markdown(const std::vector<TextBlock>& blocks);

// Draws one block of spans (a step's text, a check) wrapped to the available width.
void draw_rich_text(const std::vector<TextSpan>& spans);

}  // namespace coop::visual
