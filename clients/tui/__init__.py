"""The terminal client: one full-screen UI (Textual) for ``play``, ``watch`` and ``replay``.

* ``frame`` — what is drawn: a game at one version as one viewer sees it;
* ``source`` — where frames come from (the live client, or the replay API);
* ``games/`` — one module per game: its board in text, the sentence of whose turn it is,
  its moves in the rulebook's words and their short typed forms;
* ``moves`` — labelled moves and what a typed line means;
* ``app`` / ``widgets`` / ``cloister.tcss`` — the Textual app;
* ``plain`` — the same board and words line by line, for pipes and scripts;
* ``run`` — the entry points the ``cloister`` command calls.
"""

from . import plain, run

__all__ = ["plain", "run"]
