"""Strategies that run the loop: ``montecarlo`` bidding, ``rollout`` play, and the inference of
hidden hands from the bids that both read."""
