"""The Textual face of localmind: ``localmind`` with no arguments, in a terminal.

Imports the core (``localmind``); the core never imports this package.
"""
