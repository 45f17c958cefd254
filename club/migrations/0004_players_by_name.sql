-- A name typed at a table is looked up among every player, merged ones included (a merged name
-- stands for the player it was merged into): the unique index covers unmerged names only.
CREATE INDEX players_by_name ON players (name);
