"""Folder replication for localmind: encrypted segment files of events, one directory per
device, carried by any file-sync engine. Imports ``localmind`` only; the core never imports
this package."""

from sync.folder import (
    ImportReport,
    SyncError,
    export_pending,
    import_new,
    init_folder,
    join_folder,
    status,
    sync_once,
)

__all__ = [
    "ImportReport",
    "SyncError",
    "export_pending",
    "import_new",
    "init_folder",
    "join_folder",
    "status",
    "sync_once",
]
