"""HTML blueprints: games, hands, players, prefs (language and scorer name)."""
