package io.slotted.server.doctor;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.SlottedException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A database that core does not know is refused with its name, before any check is asked of it in
 * another database's SQL. No such server can be started here, so real H2 connections stand in for
 * one, with only the product name their metadata report changed.
 */
class UnsupportedDatabaseDoctorTest {
    @Test
    void aDatabaseCoreDoesNotKnow_isRefusedWithItsName() {
        DataSource oracle = renamed("jdbc:h2:mem:doctor-unknown", "Oracle");

        assertThatThrownBy(() -> new Doctor(oracle, DoctorSettings.watching(Duration.ZERO, ""), Clock.systemUTC())
                .examine()).isInstanceOf(SlottedException.class)
                .hasMessage("database 'Oracle' is not supported; Slotted works with MariaDB, MySQL, PostgreSQL and H2");
    }

    private static DataSource renamed(String url, String product) {
        return proxy(DataSource.class, (self, method, args) -> method.getName().equals("getConnection")
                ? renamed(DriverManager.getConnection(url), product) : null);
    }

    private static Connection renamed(Connection real, String product) {
        return proxy(Connection.class, (self, method, args) -> method.getName().equals("getMetaData")
                ? renamed(real.getMetaData(), product) : invoke(method, real, args));
    }

    private static DatabaseMetaData renamed(DatabaseMetaData real, String product) {
        return proxy(DatabaseMetaData.class, (self, method, args) -> method.getName().equals("getDatabaseProductName")
                ? product : invoke(method, real, args));
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
