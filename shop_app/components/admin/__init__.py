"""Building blocks of the back office: the layout with its sidebar, and shared widgets."""
