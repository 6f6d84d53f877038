"""JSON API, /api/v1."""
