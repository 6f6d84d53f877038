"""Kept sums: rows that hold running totals, changed by adding differences.

``add_to_sums`` is ``INSERT … ON CONFLICT DO UPDATE SET col = col + excluded.col``: a row
missing is created, a row present gets the differences added, atomically on both
databases, so two saves adding to the same player's sums never lose one another's.

On PostgreSQL the rows go in one statement whatever their number (``INSERT … SELECT FROM
unnest(<one array per column>)``): a finished game adds to some 80 rows of its players'
counters, and sent one by one (psycopg's executemany) they were a third of its save's time.
SQLite, in the process, takes them one by one.

``replace_rows`` is its sibling for kept rows that are written whole (stored results,
ratings): ``INSERT … ON CONFLICT DO UPDATE SET col = excluded.col``.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import Table, TextClause, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

_PG = postgresql.dialect()  # type: ignore[no-untyped-call]


@cache
def _unnest(table: Table, keys: tuple[str, ...], columns: tuple[str, ...]) -> TextClause:
    """The statement for PostgreSQL, built once per table: a bound array per column."""
    names = (*keys, *columns)
    arrays = ", ".join(f"CAST(:{n} AS {table.c[n].type.compile(dialect=_PG)}[])" for n in names)
    adds = ", ".join(f"{c} = {table.name}.{c} + excluded.{c}" for c in columns)
    return text(f"INSERT INTO {table.name} ({', '.join(names)}) SELECT * FROM unnest({arrays}) "
                f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {adds}")


def add_to_sums(session: Session, table: Table, keys: Sequence[str], columns: Sequence[str],
                rows: Sequence[dict[str, Any]]) -> None:
    """Adds each row's ``columns`` to the row of ``table`` with the same ``keys`` (created
    when missing). The rows' keys must differ from each other."""
    if not rows:
        return
    if session.get_bind().dialect.name == "postgresql":
        stmt = _unnest(table, tuple(keys), tuple(columns))
        session.execute(stmt, {n: [r[n] for r in rows] for n in (*keys, *columns)})
        return
    insert = sqlite.insert(table)
    session.execute(insert.on_conflict_do_update(
        index_elements=list(keys), set_={c: table.c[c] + insert.excluded[c] for c in columns}), list(rows))


def insert_of(dialect: str, table: Any) -> Any:
    """``INSERT`` in PostgreSQL's or SQLite's dialect (their ``ON CONFLICT`` clauses)."""
    return (postgresql if dialect == "postgresql" else sqlite).insert(table)


@cache
def replacing(dialect: str, table: Table, keys: tuple[str, ...], columns: tuple[str, ...]) -> Any:
    """``INSERT … ON CONFLICT (keys) DO UPDATE`` setting ``columns`` from the new row: rows
    written whole over the stored rows with the same keys (created when missing), the
    statement built once per table (its ``excluded`` columns were a third of a save's
    write when built each time)."""
    stmt = insert_of(dialect, table)
    return stmt.on_conflict_do_update(index_elements=list(keys),
                                      set_={c: stmt.excluded[c] for c in columns if c not in keys})


def replace_rows(session: Session, table: Table, keys: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
    """Each row written whole over the stored row with the same ``keys``: one statement."""
    if rows:
        session.execute(replacing(session.get_bind().dialect.name, table, tuple(keys), tuple(rows[0])),
                        list(rows))
