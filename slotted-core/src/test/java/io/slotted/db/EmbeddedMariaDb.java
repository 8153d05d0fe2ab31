package io.slotted.db;

/** Placeholder until the embedded server is wired. */
public final class EmbeddedMariaDb {
    public static EmbeddedMariaDb shared() {
        throw new IllegalStateException("set SLOTTED_TEST_MARIADB_URL");
    }

    public String jdbcUrl(String database) {
        throw new IllegalStateException();
    }
}
