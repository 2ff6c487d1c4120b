// The Memory tab's state that scripts and tests reach too: the one-request view's browser of the
// shown launch's requests (visual/request_browser.hpp).
#pragma once

#include "app/gui/gui_app.hpp"
#include "visual/request_browser.hpp"

namespace coop::app {

// The shown launch's request browser, built on first use and following the playback moment (the
// request the moment has just made); null when no launch is shown.
visual::RequestBrowser* request_browser(GuiApp& app);

}  // namespace coop::app
