"""The compiled play policies, one module per policy (docs/ENGINE.md §4-5)."""
