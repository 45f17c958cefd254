"""The club server: many tables, one league, kept in PostgreSQL and shown on web pages."""
