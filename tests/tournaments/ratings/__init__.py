"""Tests of the ratings: the Glicko-2 maths, pools, periods, their services and interfaces."""
