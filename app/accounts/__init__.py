"""Accounts: users and their roles, API tokens, the throttle on guesses; who may do what, the
login, the first director, a user's own page and the directors' list of accounts."""
