"""The web page at the table (``whist-sim serve``, docs/WEB.md): the hand advisor, the charts of
``results/`` and of user datasets, and a seat against the bots, in the browser.

Modules: :mod:`~whist_sim.interfaces.web.requests` (the JSON fields of a request, checked, turned
into the library's arguments), :mod:`~whist_sim.interfaces.web.jobs` (advice running off the event
loop, with progress and cancel), :mod:`~whist_sim.interfaces.web.tables` (tables of play in memory),
:mod:`~whist_sim.interfaces.web.reports` (the report files and a small Markdown renderer),
:mod:`~whist_sim.interfaces.web.app` (the Starlette app). Only :mod:`~whist_sim.interfaces.web.app`
imports the web stack (Starlette); the others are plain Python, so the library and the tests can use
them without it.
"""
