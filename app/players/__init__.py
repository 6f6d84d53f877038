"""The roster: each player's page, and a director renaming or merging players."""
