"""What the tournaments app announces to the apps above it, which it does not import: a
penalty whose effect falls on a battle's clock (the games app keeps the clocks), and a
pairing that asks them for warnings."""

from django.dispatch import Signal

# Sent inside the penalty's transaction with `penalty` (the Penalty imposed or revoked),
# `sign` (1 imposed, -1 revoked), `user` and `from_ply` (the ply of the game's record it
# applies from, None: from the moment imposed); a receiver that fails undoes the penalty.
penalty_clock_effect = Signal()

# Sent when a round is paired (or its pairings edited) with `tournament`; each receiver
# returns a list of warnings for the arbiter, kept on the round with the pairing's own (the
# games app: results that contradict a signed record). A warning never refuses the pairing.
pairing_warnings_wanted = Signal()

# Sent inside round_publish's transaction with `round` (locked, just published) and `user`:
# the games app opens each battle of an event played online; a receiver that refuses (the
# site key missing, a player without an account) raises and the round stays a proposal.
round_published = Signal()

# Sent inside round_unpublish's transaction with `round` before it goes back to a proposal:
# the games app refuses (Conflict) while a battle of it is under way, else closes the
# battles nobody has played yet.
round_unpublishing = Signal()
