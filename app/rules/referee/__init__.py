"""Trick play and the referee.

What may be played, the checks of every play (RULES.md §1, §3), and the fiesta auction.
"""
