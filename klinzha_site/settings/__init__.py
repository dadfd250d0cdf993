"""Settings split by environment: base, local (development), production, test."""
