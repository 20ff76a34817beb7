"""Benchmarks against the performance budgets of DESIGN.md §6 (results in docs/benchmarks.md)."""
