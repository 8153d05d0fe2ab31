package io.slotted.internal.names;

import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.statements.NameStatements;
import io.slotted.internal.sql.TableName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The name dictionary's rows: recording names under numbers and reading them back.
 *
 * <p>How a new name gets its number, the same in every process without any coordination but the
 * dictionary's two unique keys. Each name has a sequence of candidate numbers: the first from the
 * first 64 bits of the SHA-256 of its UTF-8 bytes, folded into its range (the ids below −2^62, or
 * the type numbers from 2^30), then each next number up, wrapping. A claim proposes every new name
 * of a batch under its current candidate in one statement that inserts only rows whose name and
 * number are both free. Afterwards each name is in one of three states: recorded by this claim,
 * recorded before (by any process), or still missing because its candidate belongs to another
 * name; those try their next candidate in the next round. Two processes claiming the same name
 * propose the same first candidate; one insert wins, and the other finds the winner's row. The
 * primary key on the name is what makes the number one for everybody; the hash only makes the
 * first proposal usually succeed.
 *
 * <p>Statements run in auto-commit: a name recorded for an increment that then fails is harmless,
 * and the next use finds it.
 */
final class NameRows {
    /** Rounds of claims before a batch gives up: each round moves every unlucky name on. */
    private static final int MAX_ROUNDS = 64;
    /** Names per statement: 4 parameters each stays far under every driver's limit. */
    static final int BATCH = 500;

    private final TableName table;
    private final Clock clock;

    NameRows(TableName table, Clock clock) {
        this.table = table;
        this.clock = clock;
    }

    /**
     * Records the names that are missing and answers every name's number.
     *
     * @param connection a connection in auto-commit
     * @param dialect its dialect
     * @param space the range the numbers come from
     * @param recordType the type the names belong to
     * @param names distinct names, at most {@link #BATCH}
     * @return the number of every name
     * @throws SQLException if the database fails, or no free number was found in
     *     {@value #MAX_ROUNDS} rounds
     */
    Map<String, Long> claim(Connection connection, Dialect dialect, NumberSpace space, int recordType,
            Collection<String> names) throws SQLException {
        Map<String, Long> found = new HashMap<>();
        Map<String, Integer> tries = new HashMap<>();
        // Sorted, so that every process and thread inserts names in one order: two claims of the
        // same names then wait for each other instead of deadlocking (on PostgreSQL a deadlock
        // costs the deadlock_timeout, a second, before one of them is retried).
        Set<String> missing = new TreeSet<>(names);
        for (int round = 0; round < MAX_ROUNDS && !missing.isEmpty(); round++) {
            Map<String, Long> proposed = proposals(space, missing, tries);
            found.putAll(insert(connection, dialect, recordType, proposed));
            missing.removeAll(found.keySet());
            if (!missing.isEmpty()) {
                found.putAll(lookUp(connection, dialect, recordType, missing));
                missing.removeAll(found.keySet());
            }
            for (String name : missing) {
                if (proposed.containsKey(name)) {
                    tries.merge(name, 1, Integer::sum);
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new SQLException("no free number found for " + missing.size() + " names in "
                    + MAX_ROUNDS + " rounds, in " + table);
        }
        return found;
    }

    /**
     * Each missing name's current candidate, leaving for a later round a name whose candidate
     * another name of the batch proposes: one statement never proposes a number twice.
     */
    private static Map<String, Long> proposals(NumberSpace space, Set<String> missing,
            Map<String, Integer> tries) {
        Map<String, Long> proposed = new LinkedHashMap<>();
        Set<Long> numbers = new HashSet<>();
        for (String name : missing) {
            long number = space.candidate(hash(name), tries.getOrDefault(name, 0));
            if (numbers.add(number)) {
                proposed.put(name, number);
            }
        }
        return proposed;
    }

    private Map<String, Long> insert(Connection connection, Dialect dialect, int recordType,
            Map<String, Long> proposed) throws SQLException {
        long now = clock.millis();
        NameStatements statements = dialect.nameStatements(table);
        try (PreparedStatement claim = connection.prepareStatement(statements.claim(proposed.size()))) {
            int parameter = 1;
            for (Map.Entry<String, Long> entry : proposed.entrySet()) {
                claim.setInt(parameter++, recordType);
                claim.setString(parameter++, entry.getKey());
                claim.setLong(parameter++, entry.getValue());
                claim.setLong(parameter++, now);
            }
            if (!statements.claimAnswers()) {
                claim.executeUpdate();
                return Map.of();
            }
            try (ResultSet rows = claim.executeQuery()) {
                return nameToNumber(rows);
            }
        }
    }

    /**
     * The recorded numbers of names.
     *
     * @param connection any connection
     * @param dialect its dialect
     * @param recordType the type the names belong to
     * @param names distinct names, at most {@link #BATCH}
     * @return the number of each recorded name; names not recorded are absent
     * @throws SQLException if the database fails
     */
    Map<String, Long> lookUp(Connection connection, Dialect dialect, int recordType,
            Collection<String> names) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                dialect.nameStatements(table).lookUp(names.size()))) {
            select.setInt(1, recordType);
            int parameter = 2;
            for (String name : names) {
                select.setString(parameter++, name);
            }
            try (ResultSet rows = select.executeQuery()) {
                return nameToNumber(rows);
            }
        }
    }

    /**
     * The names recorded for numbers.
     *
     * @param connection any connection
     * @param dialect its dialect
     * @param recordType the type the numbers belong to
     * @param numbers distinct numbers, at most {@link #BATCH}
     * @return the name of each recorded number
     * @throws SQLException if the database fails
     */
    Map<Long, String> namesOf(Connection connection, Dialect dialect, int recordType,
            List<Long> numbers) throws SQLException {
        Map<Long, String> names = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(
                dialect.nameStatements(table).namesOfNumbers(numbers.size()))) {
            select.setInt(1, recordType);
            for (int i = 0; i < numbers.size(); i++) {
                select.setLong(i + 2, numbers.get(i));
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    names.put(rows.getLong(1), rows.getString(2));
                }
            }
        }
        return names;
    }

    /**
     * How many names a type has recorded.
     *
     * @param connection any connection
     * @param dialect its dialect
     * @param recordType the type
     * @return the count
     * @throws SQLException if the database fails
     */
    long count(Connection connection, Dialect dialect, int recordType) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(dialect.nameStatements(table).count())) {
            select.setInt(1, recordType);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        }
    }

    /**
     * Records one name under exactly one number, or finds what the dictionary holds instead.
     *
     * @param connection a connection in auto-commit
     * @param dialect its dialect
     * @param recordType the type the name belongs to
     * @param name the name
     * @param number the number it must have
     * @return the number the name has (its own if it was free), or empty when the name is not
     *     recorded because another name has the number
     * @throws SQLException if the database fails
     */
    OptionalLong claimExactly(Connection connection, Dialect dialect, int recordType,
            String name, long number) throws SQLException {
        Long mine = insert(connection, dialect, recordType, Map.of(name, number)).get(name);
        if (mine == null) {
            mine = lookUp(connection, dialect, recordType, List.of(name)).get(name);
        }
        return mine == null ? OptionalLong.empty() : OptionalLong.of(mine);
    }

    private static Map<String, Long> nameToNumber(ResultSet rows) throws SQLException {
        Map<String, Long> numbers = new HashMap<>();
        while (rows.next()) {
            numbers.put(rows.getString(1), rows.getLong(2));
        }
        return numbers;
    }

    /** The first 64 bits of the SHA-256 of the name's UTF-8 bytes. */
    static long hash(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            long hash = 0;
            for (int i = 0; i < 8; i++) {
                hash = (hash << 8) | (digest[i] & 0xff);
            }
            return hash;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
