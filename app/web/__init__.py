"""HTML blueprints: accounts, games, hands, players, prefs (language), the table, share links."""
