"""The club's migration files: every .sql file is picked up, and their numbers run 1, 2, 3 ...
with none repeated (two branches that each add the next number must be renumbered at the merge,
or one of them would never be applied on a club that already has the other)."""

from __future__ import annotations

from importlib import resources

from club.db import migrations


def test_every_sql_file_is_a_numbered_migration():
    sql_files = {
        entry.name
        for entry in resources.files("club.migrations").iterdir()
        if entry.name.endswith(".sql")
    }
    assert sql_files == {name for _, name, _ in migrations()}


def test_migration_numbers_are_consecutive_and_unique():
    versions = [version for version, _, _ in migrations()]
    assert versions == list(range(1, len(versions) + 1))
