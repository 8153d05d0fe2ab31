package io.slotted;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source whose prepared statements run a test's action once, before or after the first
 * statement whose text matches: to make something happen at one exact point of a write's
 * transaction, as another process or a slow lock would make it happen there by chance.
 */
final class HookedDataSource implements DataSource {
    private final DataSource target;
    private final Predicate<String> before;
    private final Hook beforeAction;
    private final Predicate<String> after;
    private final Hook afterAction;
    private final AtomicInteger beforeRan = new AtomicInteger();
    private final AtomicInteger afterRan = new AtomicInteger();

    /** What a hook does: it may fail, failing the statement it is hooked to. */
    @FunctionalInterface
    interface Hook {
        void run() throws Exception;
    }

    /**
     * @param target the real data source
     * @param before which statement to run {@code beforeAction} before, once, by its text
     * @param after which statement to run {@code afterAction} after, once, by its text; only in a
     *     transaction (auto-commit off)
     */
    HookedDataSource(DataSource target, Predicate<String> before, Hook beforeAction, Predicate<String> after,
            Hook afterAction) {
        this.target = target;
        this.before = before;
        this.beforeAction = beforeAction;
        this.after = after;
        this.afterAction = afterAction;
    }

    /** How many times each hook ran: 0 or 1 each. */
    int ran() {
        return beforeRan.get() + afterRan.get();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return hooked(target.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return hooked(target.getConnection(username, password));
    }

    private Connection hooked(Connection connection) {
        return proxy(Connection.class, connection, (method, args) -> {
            Object result = method.invoke(connection, args);
            if (method.getName().equals("prepareStatement") && result instanceof PreparedStatement statement) {
                return hooked(connection, statement, (String) args[0]);
            }
            return result;
        });
    }

    private PreparedStatement hooked(Connection connection, PreparedStatement statement, String sql) {
        return proxy(PreparedStatement.class, statement, (method, args) -> {
            boolean executes = method.getName().startsWith("execute");
            if (executes && before.test(sql) && beforeRan.compareAndSet(0, 1)) {
                beforeAction.run();
            }
            Object result = method.invoke(statement, args);
            if (executes && after.test(sql) && !connection.getAutoCommit() && afterRan.compareAndSet(0, 1)) {
                afterAction.run();
            }
            return result;
        });
    }

    /** A call passed on to the real object, which may run a hook around it. */
    @FunctionalInterface
    private interface Call {
        Object invoke(Method method, Object[] args) throws Exception;
    }

    private static <T> T proxy(Class<T> type, T target, Call call) {
        InvocationHandler handler = (proxy, method, args) -> {
            try {
                return call.invoke(method, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return type.cast(Proxy.newProxyInstance(HookedDataSource.class.getClassLoader(), new Class<?>[] {type},
                handler));
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return target.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return target.isWrapperFor(type);
    }
}
