"""Imports every variant, each of which registers itself with rules.registry."""

from rules import italian, kinta, reflective, trilevel, trilevel_svg

VARIANT_MODULES = (trilevel, trilevel_svg, reflective, kinta, italian)
