"""The tournament store: the database (a SQLite file or PostgreSQL) and what it holds.

`store` opens it and upgrades it (Alembic, `migrations/`), `models` are its tables, `audit` writes
the entry every change carries. `games`, `players` and `seating` keep the game, its seats and its
rounds; `validation` and `freetext` check input against the game before anything is written.
Every other folder stands on this one; it imports none of them."""
