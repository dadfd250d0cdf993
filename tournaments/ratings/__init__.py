"""Glicko-2 ratings on plain objects: the maths, the pools and periods, a pool's history."""
