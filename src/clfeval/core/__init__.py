"""Core states: label spaces and count summaries."""
