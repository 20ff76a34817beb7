"""Back-office services."""
