"""``python -m whist_sim``: the ``whist-sim`` command line."""

from whist_sim.cli import main

if __name__ == "__main__":
    main(prog_name="whist-sim")
