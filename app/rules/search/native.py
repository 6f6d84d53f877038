"""Which search the analysis runs: the compiled core (``_core.c``) when it was built, else
:class:`app.rules.search.solver.Search`, the reference it ports move for move.

Issue 40 allows a compiled core only where a benchmark shows the Python search cannot meet
ANALYSIS.md's 10 s: ``bench/solver.py --games 16`` found a plus-eralash hand led at trick 0
that it had not solved after 30 s. ``pip install -e .`` builds the core (pyproject.toml,
``ext-modules``); where no C compiler is present the install still succeeds without it and
every search is the Python one, with the same values, only slower.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, TypeAlias

from app.rules.search import solver
from app.rules.search.search_table import Table
from app.rules.search.solver import OutOfTime
from app.rules.search.solver import Search as PythonSearch

if TYPE_CHECKING:
    from app.rules.search._core import Search as CoreSearch

try:
    from app.rules.search import _core
except ImportError:  # pragma: no cover - built by every install with a C compiler
    _core = None  # type: ignore[assignment]
else:
    _core.set_out_of_time(OutOfTime)

#: Whether the compiled core was built (``make install`` builds it).
BUILT = _core is not None
#: Whether searches use it; tests turn it off to run the Python search on the same positions.
ENABLED = BUILT


#: A search of either kind (the same methods: value_after, child, settled, cut, nodes).
Searcher: TypeAlias = "PythonSearch | CoreSearch"


def new_search(table: Table, possible: bool, horizon: int, deadline: float) -> Searcher:
    """A search of one mode over ``table`` (solver.Search's arguments): the compiled one when
    built and enabled, else the Python one. ``deadline`` is a ``time.perf_counter()`` value."""
    if ENABLED and _core is not None:
        try:
            return _core.Search(packed(table), possible, horizon, deadline - time.perf_counter(),
                                solver.CLOCK_MASK)
        except ValueError:
            pass  # a table the core does not take (over 16 classes of cards): Python's search
    return PythonSearch(table, possible, horizon, deadline)


def packed(table: Table) -> tuple[object, ...]:
    """The table as the core reads it (``read_table`` in _core.c, in this order)."""
    rules, referee = table.rules, table.referee
    return (table.deck, table.trump, table.n_tricks, table.seat, table.card_values,
            table.same_class, table.trick_value, table.last_value, int(table.ends_early),
            table.scoring_mask, table.owner, table.buyer, table.per_trick, table.most,
            int(rules.hearts_lead), int(rules.hearts_breakable), int(rules.kh_lead),
            int(rules.trump_lead), rules.kh_discard_from, int(rules.kh_first_trick),
            int(rules.hearts_first_trick), rules.trump_mode, rules.penalty_mask,
            int(rules.penalty_heart), int(rules.penalty_drop), int(rules.must_overtake),
            referee.lead_mask, referee.follow_by_suit, referee.void_by_suit)


__all__ = ["BUILT", "ENABLED", "Searcher", "new_search", "packed"]
