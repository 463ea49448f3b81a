"""Widgets and modal dialogs shared by the screens."""
