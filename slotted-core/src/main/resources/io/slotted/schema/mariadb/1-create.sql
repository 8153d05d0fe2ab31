-- Slotted's schema, version 1, for MariaDB: the counter table and its companions.
--
-- This is the file `migrate()` runs (table by table, each only when it is missing), and the one to
-- run with Flyway, Liquibase or by hand when the application's user may not create tables. It is
-- written for the default table, slotted_counters; `slotted schema --db-kind mariadb --table NAME`
-- prints it for another. Every statement may be run again: it leaves what exists alone. A released
-- version's file is never changed, since the migration tools check the files they ran; a later
-- version adds a file of its own that upgrades this one.
-- docs/schema.md says what each table holds and which grants the application's user needs.

-- InnoDB: text keys and names as bytes, so that they compare exactly (every text collation both
-- MariaDB and MySQL have ignores trailing spaces).

-- The counters: a row per counter and slot. A composite primary key and no surrogate id, so an upsert
-- consumes nothing and finds its row by its key.
CREATE TABLE IF NOT EXISTS slotted_counters (
    record_type INT NOT NULL,
    record_id BIGINT NOT NULL,
    slot INT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (record_type, record_id, slot)
) ENGINE=InnoDB;

-- The flush ledger: a row per flusher, the number of its last committed flush (exactly-once group commit).
CREATE TABLE IF NOT EXISTS slotted_counters_ledger (
    flusher_id VARCHAR(64) NOT NULL,
    flush_seq BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (flusher_id)
) ENGINE=InnoDB;

-- Callers' idempotency keys, compared exactly, and the index pruning by age reads.
CREATE TABLE IF NOT EXISTS slotted_counters_keys (
    idempotency_key VARBINARY(128) NOT NULL,
    fingerprint VARCHAR(200) NOT NULL,
    flush_ref VARCHAR(100) NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (idempotency_key),
    INDEX slotted_counters_keys_created (created_ms)
) ENGINE=InnoDB;

-- The type registry: a row per counter type whose owner column, slot count or limits every process follows.
CREATE TABLE IF NOT EXISTS slotted_counters_types (
    record_type INT NOT NULL,
    owner_table VARCHAR(130),
    key_column VARCHAR(64),
    count_column VARCHAR(64),
    owner_mode VARCHAR(8),
    slots INT NOT NULL,
    bound_ms BIGINT NOT NULL,
    rolled_up_ms BIGINT NOT NULL,
    lower_bound BIGINT,
    upper_bound BIGINT,
    limit_window VARCHAR(64),
    expiring SMALLINT,
    PRIMARY KEY (record_type)
) ENGINE=InnoDB;

-- Counts per time bucket. The primary key begins with the bucket (a top-N of a window reads one range),
-- the index with the counter (a series reads one counter's rows); an increment updates neither.
CREATE TABLE IF NOT EXISTS slotted_counters_buckets (
    record_type INT NOT NULL,
    bucket_start BIGINT NOT NULL,
    record_id BIGINT NOT NULL,
    slot INT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (record_type, bucket_start, record_id, slot),
    INDEX slotted_counters_buckets_counter (record_type, record_id, bucket_start)
) ENGINE=InnoDB;

-- The name dictionary: the number of each type name and string id, one number per name and one name per
-- number. Names compare exactly: case, accents and trailing spaces all make another name.
CREATE TABLE IF NOT EXISTS slotted_counters_names (
    record_type INT NOT NULL,
    name VARBINARY(512) NOT NULL,
    record_id BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (record_type, name),
    CONSTRAINT slotted_counters_names_number UNIQUE (record_type, record_id)
) ENGINE=InnoDB;

-- When counters of the expiring types expire (epoch milliseconds; null for never), and the index the sweep
-- of expired counters reads.
CREATE TABLE IF NOT EXISTS slotted_counters_expiry (
    record_type INT NOT NULL,
    record_id BIGINT NOT NULL,
    expires_ms BIGINT,
    PRIMARY KEY (record_type, record_id),
    INDEX slotted_counters_expiry_due (expires_ms)
) ENGINE=InnoDB;

-- The schema's version, a row per version installed: a Slotted that finds a newer one than it knows
-- refuses to write, and one that finds an older one says which upgrade to run.
CREATE TABLE IF NOT EXISTS slotted_counters_schema (
    version INT NOT NULL,
    description VARCHAR(200) NOT NULL,
    PRIMARY KEY (version)
) ENGINE=InnoDB;

-- Schema version 1 is installed.
INSERT IGNORE INTO slotted_counters_schema (version, description)
    VALUES (1, 'the counter table, the flush ledger, keys, types, buckets, names and expiry');
