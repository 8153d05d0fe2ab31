package io.slotted.db;

/** Placeholder until the embedded server is wired. */
public final class EmbeddedPostgres {
    public static EmbeddedPostgres shared() {
        throw new IllegalStateException("set SLOTTED_TEST_POSTGRES_URL");
    }

    public String jdbcUrl() {
        throw new IllegalStateException();
    }
}
