"""The compiled ground: numba options, calls by address, bit tricks, the deal state's layout, the
kernel RNG and the samplers of hidden hands. Imports nothing compiled from a floor above."""
