"""Cloister's benchmark: ``python -m bench`` from the repository root. Not a test."""
