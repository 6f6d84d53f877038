"""Events (issue 25): club nights and tournaments of rounds, their draws, changes, standings and
pages."""
