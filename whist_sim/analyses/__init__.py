"""The analyses built on runs of the engines: the reports (``reports``), the hand advisor and bid
charts (``advisor``), duplicate tournaments (``tournament``), the check of an answer under a
searching play (``answer_check``) and the benchmarks (``bench``)."""
