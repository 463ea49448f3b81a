"""The app's screens: unlock first, then one screen per page (see ``tui.widgets.bars.PAGES``)."""
