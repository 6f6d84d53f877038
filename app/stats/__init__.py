"""Derived data: stored results, statistics, ratings, season standings, and the projectors that
keep them (game_changed)."""
