"""The one deal loop (:mod:`.phases`): the phase machine that plays or resumes a deal, asking the
strategies through :mod:`whist_sim.compiled.strategies.dispatch`, and a compiled loop called
through its address (:mod:`.shared`)."""
