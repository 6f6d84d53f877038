"""The rule book of each profile, read from the engine, and the rules pages."""
