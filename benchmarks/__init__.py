"""Benchmarks against the performance budgets of docs/architecture.md#performance-budgets (results in
docs/benchmarks.md)."""
