"""The compiled bidding strategies, one module per family (docs/STRATEGIES.md)."""
