"""localmind as an MCP server (``localmind mcp``): ``front`` answers ``initialize`` before the
SDK is imported, ``handover`` gives the streams to the SDK, ``server`` holds the tools.

Importing this package imports nothing else: only ``handover`` and ``server`` import the MCP
SDK, and only ``localmind mcp`` imports them, so ``import localmind.cli`` stays free of it.
"""
