"""localmind: a private, offline, long-term memory for a personal AI assistant."""

from localmind.config import DecayConfig, FusionConfig, Limits, RankingWeights, Settings
from localmind.errors import (
    ChangedMeanwhile,
    EmbedderMismatch,
    InvalidInput,
    LocalmindError,
    NotAStore,
    NotFound,
    StoreError,
    WrongPassphrase,
)
from localmind.keys import KdfParams
from localmind.memory import Memory, NewMemory
from localmind.records import MemoryRecord, MemoryType, RecallResult, ScoreBreakdown, Status

__version__ = "0.1.0"

__all__ = [
    "ChangedMeanwhile",
    "DecayConfig",
    "EmbedderMismatch",
    "FusionConfig",
    "InvalidInput",
    "KdfParams",
    "Limits",
    "LocalmindError",
    "Memory",
    "MemoryRecord",
    "MemoryType",
    "NewMemory",
    "NotAStore",
    "NotFound",
    "RankingWeights",
    "RecallResult",
    "ScoreBreakdown",
    "Settings",
    "Status",
    "StoreError",
    "WrongPassphrase",
]
