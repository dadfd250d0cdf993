"""Players, clubs, tournaments, rounds, pairings, standings, crosstables and TRF."""
