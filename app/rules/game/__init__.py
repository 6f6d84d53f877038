"""A game record read and replayed.

The record and its header, each hand's entry, the builder, what a replay gives, rulings,
the score report, what may come next, and random legal games.
"""
