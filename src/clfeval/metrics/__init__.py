"""Metrics: the registry and the functions built on it."""
