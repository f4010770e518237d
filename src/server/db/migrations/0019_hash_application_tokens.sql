-- Custom migration (docs/security.md "Tokens"): applications.token held the plain resume token of
-- each application; from now on it holds the token's sha256 in hex, the value the server looks up.
-- Hash the rows written before, once; a value that is already 64 hex digits is a hash (plain
-- tokens are 32 base64url characters) and is left alone, so running this twice changes nothing.
-- sha256() is built into PostgreSQL 11+ and PGlite.
UPDATE "applications"
SET "token" = encode(sha256(convert_to("token", 'UTF8')), 'hex')
WHERE "token" !~ '^[0-9a-f]{64}$';
