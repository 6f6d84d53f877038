"""Entering a hand: its setup asked of the engine, the hand being entered as one value, the counts
and captured-cards pages, and what a phone keeps to enter hands offline."""
