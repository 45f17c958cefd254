-- Signed-in admins, kept across restarts: the session key's hash, its CSRF token, its end.
CREATE TABLE admin_sessions (
    key_hash TEXT PRIMARY KEY,
    csrf TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
