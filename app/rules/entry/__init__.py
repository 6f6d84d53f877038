"""Entering a hand, owned by the engine: what a contract's entry asks for and the fields it
reads (:mod:`app.rules.entry.form`), the hand being entered as one value and the game's state
before its row, which verifies and applies it (:mod:`app.rules.entry.draft`)."""
from __future__ import annotations

from app.rules.entry.draft import EntryState, HandDraft, Preview, SetUp
from app.rules.entry.form import EntrySpec, entry_of, entry_spec, entry_values, mode_of

__all__ = ["EntrySpec", "EntryState", "HandDraft", "Preview", "SetUp", "entry_of", "entry_spec",
           "entry_values", "mode_of"]
