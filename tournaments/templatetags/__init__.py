"""Template tags of the tournaments' pages."""
