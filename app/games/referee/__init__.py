"""The referee: a hand entered trick by trick with every play checked, the hand's record page with
its deal viewer and the analysis of each violation, and the director's rulings."""
