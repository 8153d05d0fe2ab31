package io.slotted.server.doctor.dialect;

import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Dialects;
import io.slotted.internal.dialect.H2Dialect;
import io.slotted.internal.dialect.MariaDbDialect;
import io.slotted.internal.dialect.MySqlDialect;
import io.slotted.internal.dialect.PostgresDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Picks the doctor's dialect for a database: the one place the server tells databases apart.
 *
 * <p>The database is identified by core ({@link Dialects#detect}), as the counters identify it, and
 * each of core's dialects maps to the doctor's by its exact class: MySQL's dialect extends
 * MariaDB's in core, and the doctor's MySQL is not MariaDB's. Adding a database to the doctor is a
 * {@link DoctorDialect} and an entry here.
 */
public final class DoctorDialects {
    private static final Map<Class<? extends Dialect>, Supplier<DoctorDialect>> BY_CORE_DIALECT = Map.of(
            H2Dialect.class, H2DoctorDialect::new,
            MariaDbDialect.class, MariaDbDoctorDialect::new,
            MySqlDialect.class, MySqlDoctorDialect::new,
            PostgresDialect.class, PostgresDoctorDialect::new);

    private DoctorDialects() {
    }

    /**
     * The doctor's dialect for the database behind a connection.
     *
     * @param connection an open connection
     * @return the doctor's dialect
     * @throws SQLException if the database cannot be asked what it is
     * @throws io.slotted.SlottedException if the database is not one Slotted supports
     * @throws IllegalStateException if the doctor has no dialect for one that Slotted supports
     */
    public static DoctorDialect detect(Connection connection) throws SQLException {
        return of(Dialects.detect(connection));
    }

    /**
     * The doctor's dialect for one of core's.
     *
     * @param dialect core's dialect of the database
     * @return the doctor's dialect
     * @throws IllegalStateException if the doctor has none for it
     */
    public static DoctorDialect of(Dialect dialect) {
        Supplier<DoctorDialect> doctor = BY_CORE_DIALECT.get(dialect.getClass());
        if (doctor == null) {
            throw new IllegalStateException("the doctor has no checks for " + dialect.name() + " ("
                    + dialect.getClass().getName() + "); it knows " + BY_CORE_DIALECT.keySet().stream()
                            .map(Class::getSimpleName).sorted().toList());
        }
        return doctor.get();
    }
}
