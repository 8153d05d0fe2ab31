-- Slotted's schema for MySQL: what upgrades a schema made by a release before schema versions were
-- recorded (no slotted_counters_schema table) to version 1.
--
-- `migrate()` runs, of these, the statements for what the schema lacks, then the tables and the
-- version record of 1-create.sql. By hand: run the statements for the columns the registry lacks
-- (MySQL has no ADD COLUMN IF NOT EXISTS) and the key column's conversion where it is not VARBINARY
-- already, then run 1-create.sql, whose statements leave what exists alone and end by recording
-- version 1. `slotted schema --from 0` prints this file for any table name. A released version's
-- file is never changed.

-- The type registry's columns added after its first release: the limits, the window of limits per
-- window, and whether a type's counters expire.
ALTER TABLE slotted_counters_types ADD lower_bound BIGINT;
ALTER TABLE slotted_counters_types ADD upper_bound BIGINT;
ALTER TABLE slotted_counters_types ADD limit_window VARCHAR(64);
ALTER TABLE slotted_counters_types ADD expiring SMALLINT;

-- The idempotency key column as bytes: earlier releases made it VARCHAR(128) CHARACTER SET ascii
-- COLLATE ascii_bin, which ignores trailing spaces, so that "k" and "k " were one key. Keys are
-- ASCII, so they keep their bytes, and keys that were distinct stay distinct.
ALTER TABLE slotted_counters_keys MODIFY idempotency_key VARBINARY(128) NOT NULL;
