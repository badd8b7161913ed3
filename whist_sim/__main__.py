"""``python -m whist_sim``: the ``whist-sim`` command line."""

from whist_sim.interfaces.cli import run

if __name__ == "__main__":
    run()
