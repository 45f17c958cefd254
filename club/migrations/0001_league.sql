-- The league: tables (each with its own token), players shared by every table, games as pushed.
CREATE TABLE club_tables (
    id SERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    revoked_at TIMESTAMPTZ,
    last_push_at TIMESTAMPTZ
);

CREATE TABLE players (
    id SERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    merged_into INTEGER REFERENCES players(id),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX players_name_key ON players (lower(name)) WHERE merged_into IS NULL;

CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES club_tables(id),
    local_id BIGINT NOT NULL,
    revision INTEGER NOT NULL,
    game TEXT NOT NULL,
    options JSONB NOT NULL,
    seed BIGINT NOT NULL,
    mode TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'over', 'abandoned')),
    history JSONB NOT NULL,
    actor TEXT NOT NULL DEFAULT '',
    started TIMESTAMPTZ NOT NULL,
    ended TIMESTAMPTZ,
    updated TIMESTAMPTZ NOT NULL,
    voided BOOLEAN NOT NULL DEFAULT false,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (table_id, local_id)
);
CREATE INDEX games_ended ON games (game, ended, id) WHERE status = 'over' AND NOT voided;
CREATE INDEX games_live ON games (table_id, updated) WHERE status = 'playing';

CREATE TABLE seats (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    team INTEGER,
    score INTEGER NOT NULL,
    winner BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_player ON seats (player_id);

-- Every (table, game, revision) received once: a push seen again is acknowledged, not applied.
CREATE TABLE pushes (
    table_id INTEGER NOT NULL REFERENCES club_tables(id),
    local_id BIGINT NOT NULL,
    revision INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, local_id, revision)
);

CREATE TABLE club_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
