-- Players are the names the tables gave them: case and accents kept ("ann" is not "Ann").
DROP INDEX players_name_key;
CREATE UNIQUE INDEX players_name_key ON players (name) WHERE merged_into IS NULL;

-- The name each seat was given at its table: what an undone merge gives back.
ALTER TABLE seats ADD COLUMN name TEXT;
UPDATE seats s SET name = p.name FROM players p WHERE p.id = s.player_id;
ALTER TABLE seats ALTER COLUMN name SET NOT NULL;

-- Every merge, so that it can be undone: the identities it pointed at the target.
CREATE TABLE merges (
    id SERIAL PRIMARY KEY,
    source INTEGER NOT NULL REFERENCES players(id),
    target INTEGER NOT NULL REFERENCES players(id),
    moved INTEGER[] NOT NULL,
    merged_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    undone_at TIMESTAMPTZ
);
