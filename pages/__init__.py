"""Web pages for people (standings, players, live tables, game records): data in, HTML out.

Shared by the club server and the table's own read-only page; imports only engines.
"""
