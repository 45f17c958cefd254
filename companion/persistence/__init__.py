"""What the table keeps: the SQLite store of games, actions and scores (`store`), opening and
repairing its file (`store_open`, `dbfile`), its rolling backups, starting whatever the state
directory holds (`recovery`), the scorebook's queries and the outbox of games for the club."""
