"""The analysis of a disputed play (ANALYSIS.md): the solver, its tables, and the analysis built on it."""
