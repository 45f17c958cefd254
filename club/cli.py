"""`tabletop club serve|add-table|revoke-table|new-token|set-password|migrate`: the club server
and its admin.

Imports of psycopg and the web stack stay inside `run`, so `tabletop --help` works on a table
where the club extra is not installed.
"""

from __future__ import annotations

import argparse
import getpass
import os
import signal
import sys

DB_ENV = "TABLETOP_CLUB_DB"
PASSWORD_ENV = "TABLETOP_CLUB_PASSWORD"
DEFAULT_PORT = 8300
ADDRESS_RATE = 50.0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("club", help="the club server: many tables, one league")
    club_sub = parser.add_subparsers(dest="club_command", metavar="ACTION", required=True)
    serve = club_sub.add_parser("serve", help="serve the league's pages and the tables' pushes")
    env = os.environ
    serve.add_argument(
        "--host",
        default=env.get("TABLETOP_CLUB_HOST", "127.0.0.1"),
        help="address to listen on (or $TABLETOP_CLUB_HOST; LAN: 0.0.0.0)",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=int(env.get("TABLETOP_CLUB_PORT", DEFAULT_PORT)),
        help="TCP port (or $TABLETOP_CLUB_PORT)",
    )
    serve.add_argument("--name", default=env.get("TABLETOP_CLUB_NAME", "Club"),
                       help="the club's name on its pages (or $TABLETOP_CLUB_NAME)")  # fmt: skip
    serve.add_argument(
        "--replay-workers", type=int, default=os.cpu_count() or 1,
        help="processes replaying pushed games (default: one per CPU)",
    )  # fmt: skip
    serve.add_argument(
        "--address-rate", type=float, default=ADDRESS_RATE,
        help=f"requests a second allowed from one address, bursts of 4 s (default {ADDRESS_RATE:g};"
        " tables behind one NAT or a bench on loopback need more)",
    )  # fmt: skip
    add = club_sub.add_parser("add-table", help="register a table and print its token")
    add.add_argument("name", help="the table's name, as the pages show it")
    revoke = club_sub.add_parser("revoke-table", help="stop a table's token from working")
    revoke.add_argument("name", help="the table's name")
    renew = club_sub.add_parser(
        "new-token", help="give a table a new token (the old one stops at once) and print it"
    )
    renew.add_argument("name", help="the table's name")
    club_sub.add_parser(
        "set-password", help=f"set the admin password (prompted, or ${PASSWORD_ENV})"
    )
    club_sub.add_parser("migrate", help="bring the database's schema up to date and stop")
    for sub in club_sub.choices.values():
        if not any(a.dest == "db" for a in sub._actions):
            sub.add_argument(
                "--db", default=os.environ.get(DB_ENV, ""),
                help=f"PostgreSQL URL, postgresql://user:password@host/dbname (or ${DB_ENV})",
            )  # fmt: skip
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        from club.db import DatabaseError, open_pool
    except ModuleNotFoundError as error:
        return missing_extra("tabletop club", error)
    if not args.db:
        print(f"tabletop club: give the database with --db postgresql://... (or ${DB_ENV})")
        return 2
    if not args.db.startswith(("postgresql://", "postgres://")):
        print("tabletop club: --db must be a postgresql:// URL")
        return 2
    try:
        pool = open_pool(args.db)
    except DatabaseError as error:
        print(f"tabletop club: {error}")
        return 2
    try:
        return ACTIONS[args.club_command](pool, args)
    finally:
        pool.close()


def missing_extra(prog: str, error: ModuleNotFoundError) -> int:
    print(f"{prog}: {error.name} is missing: pip install 'tabletop-companion[club]'")
    return 2


class Stopped(Exception):
    """SIGTERM arrived: unwind so that the replay workers and the database are closed."""


def _stop(signum: int, frame: object) -> None:
    raise Stopped


def _serve(pool, args: argparse.Namespace) -> int:
    import uvicorn

    from club.app import Club, create_app
    from club.security import RateLimiter

    # uvicorn shuts down gracefully on SIGTERM or SIGINT, then raises the signal again once its
    # own handlers are gone: ours turns it into an exception, so the finally clause below runs
    # (by default SIGTERM would end the process there and orphan the replay workers).
    previous = signal.signal(signal.SIGTERM, _stop)
    club = None
    try:
        club = Club(pool, site=args.name, replay_workers=max(0, args.replay_workers))
        rate = max(1.0, args.address_rate)
        club.address_limit = RateLimiter(rate=rate, burst=round(4 * rate))
        print(f"tabletop club: serving {args.name!r} on http://{args.host}:{args.port}/",
              flush=True)  # fmt: skip
        uvicorn.run(create_app(club), host=args.host, port=args.port, log_level="warning")
    except (Stopped, KeyboardInterrupt):
        pass
    finally:
        if club is not None:
            club.close()
        signal.signal(signal.SIGTERM, previous)
    print("tabletop club: stopped", flush=True)
    return 0


def _add_table(pool, args: argparse.Namespace) -> int:
    from club import league

    try:
        with pool.connection() as conn:
            token = league.add_table(conn, args.name)
    except league.LeagueError as error:
        print(f"tabletop club: {error}")
        return 1
    _print_token(f"table {args.name!r} added", token)
    return 0


def _new_token(pool, args: argparse.Namespace) -> int:
    from club import league

    with pool.connection() as conn:
        found = _table_named(conn, args.name)
        if found is None:
            return 1
        token = league.new_token(conn, found)
    _print_token(f"table {args.name!r} has a new token; the old one no longer works", token)
    return 0


def _print_token(said: str, token: str) -> None:
    print(f"{said}. In its tabletop.toml:\n\n[club]\nurl = \"http://SERVER:{DEFAULT_PORT}\"\n"
          f"token = \"{token}\"")  # fmt: skip


def _table_named(conn, name: str) -> int | None:
    """The id of the table named `name`; None (said) when there is none."""
    from club import league

    found = [t.id for t in league.tables(conn) if t.name == name]
    if not found:
        print(f"tabletop club: no table named {name!r}")
    return found[0] if found else None


def _revoke_table(pool, args: argparse.Namespace) -> int:
    from club import league

    with pool.connection() as conn:
        found = _table_named(conn, args.name)
        if found is None:
            return 1
        try:
            league.revoke_table(conn, found)
        except league.LeagueError as error:
            print(f"tabletop club: {error}")
            return 1
    print(f"table {args.name!r}: its token no longer works")
    return 0


def _set_password(pool, args: argparse.Namespace) -> int:
    from club import league
    from club.admin import PASSWORD_KEY
    from club.security import hash_password

    password = os.environ.get(PASSWORD_ENV) or _prompt()
    if len(password) < 10:
        print("tabletop club: the admin password needs at least 10 characters")
        return 1
    with pool.connection() as conn:
        league.set_setting(conn, PASSWORD_KEY, hash_password(password))
    print("admin password set")
    return 0


def _prompt() -> str:
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("admin password: ")
    if getpass.getpass("again: ") != first:
        return ""
    return first


def _migrate(pool, args: argparse.Namespace) -> int:
    print("schema up to date")
    return 0


ACTIONS = {
    "serve": _serve,
    "add-table": _add_table,
    "revoke-table": _revoke_table,
    "new-token": _new_token,
    "set-password": _set_password,
    "migrate": _migrate,
}
