"""Battles: records, their validation, clocks and signatures."""
