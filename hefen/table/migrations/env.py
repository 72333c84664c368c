"""Alembic environment of the table storage, run programmatically by
:func:`hefen.table.storage.migrate` (no alembic.ini needed).

The caller passes an open SQLAlchemy connection in
``config.attributes["connection"]``; the migrations run inside its
transaction. The version table is ``hefen_table_alembic_version`` so that the
table storage can share a database with other Alembic-managed schemas.
"""

from __future__ import annotations

from alembic import context

from hefen.table.storage import VERSION_TABLE, metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only reachable from the alembic CLI
    raise RuntimeError("Run the table migrations through hefen.table.storage.migrate().")

context.configure(
    connection=connection,
    target_metadata=metadata,
    version_table=VERSION_TABLE,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
