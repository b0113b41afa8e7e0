"""The web front end of mscsp: ``mscsp serve``.

Two pages, served by a small Starlette application under uvicorn, with the same
library behind a JSON API:

- the analysis page (``/``): copy a position in and see, after every change, the
  cells proven safe or mined, the mine chance of the others, the suggested click,
  why the certain cells are certain, and what cannot be true on an impossible board;
- the play page (``/play``): a full game whose layout stays on the server, with a
  hint button that shows the same analysis for the current position, and replays.

Modules, one job each:

=============  =======================================================================
``settings``   limits and time budgets of a server
``validate``   reading and checking JSON requests; errors carry an HTTP status
``workers``    worker processes that run analyses and generation under a hard deadline,
               slow jobs moved to workers of their own after a first slice
``jobs``       the functions those workers run
``games``      games kept on the server, keyed by random ids, and what a player may see
``replays``    loading saved replays into games that can be continued
``app``        the Starlette application: routes, error answers, static pages
``command``    the ``serve`` subcommand of the command line
=============  =======================================================================

Nothing here is imported by ``import mscsp``: the web dependencies are needed only
by ``mscsp serve`` and the modules that run it.
"""
