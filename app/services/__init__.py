"""Use cases, verb first. Each takes plain values and a session, asks the engine, writes and
commits once. Reads live in services/queries.py."""
