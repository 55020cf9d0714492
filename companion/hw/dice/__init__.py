"""The camera dice reader: finds ordinary six-sided pip dice in a frame and counts their pips."""
