"""The sheet: its page, the game list and new game, the live version check, the change log, the
share link."""
