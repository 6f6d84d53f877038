"""What the engine knows of a club's people: names that look alike (Unicode's confusables), and
seating a round of an event."""
