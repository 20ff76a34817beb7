"""Public information pages."""
