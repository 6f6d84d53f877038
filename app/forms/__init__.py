"""WTForms classes: shape only (types, ranges, choices). Legality comes from the engine."""
