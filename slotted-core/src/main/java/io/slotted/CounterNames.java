package io.slotted;

import io.slotted.internal.names.IdText;
import java.util.Collection;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * Names for counters whose natural keys are strings: a type named {@code "downloads"} rather
 * than numbered, and an id such as {@code "alice"}, {@code "post:8f3a"} or
 * {@code "/blog/hello-world"} rather than a number. Get it from {@link SlottedCounters#names()}.
 *
 * <pre>{@code
 * CounterNames names = counters.names();
 * int views = names.type("views");
 * counters.add(views, names.id(views, "/blog/hello-world"), 1);
 * }</pre>
 *
 * <p>Each name is mapped once to the number the counter table stores, through the name
 * dictionary ({@code <table>_names}, made by {@link SlottedCounters#migrate()}): the same number in
 * every process that uses the database, and after restarts. Two processes meeting the same new
 * name at once get the same number, since the dictionary's primary key admits one row per name.
 * Each process caches what it has mapped, so only the first use of a name in a process costs a
 * round trip to the database; lookups waiting at the same moment share it.
 *
 * <p>The rules, the same for the library, the HTTP API and the Redis protocol:
 * <ul>
 *   <li>An id that is a decimal signed 64-bit integer (leading zeros allowed: {@code "007"} is
 *       7) is that {@code record_id}, unchanged; the dictionary is not involved.</li>
 *   <li>Any other id, 1 to {@value #MAX_ID_BYTES} bytes of UTF-8 without NUL, maps to a
 *       {@code record_id} below {@link #MAPPED_IDS_END} (−2^62). Numeric ids in that range are
 *       refused, so a mapped id never coincides with a numeric one.</li>
 *   <li>A type name matches {@code [a-z][a-z0-9_]{0,62}} and maps to a {@code record_type} of
 *       {@link #FIRST_NAMED_TYPE} (2^30) or more unless {@linkplain #pin pinned} to another number.</li>
 *   <li>A mapped number is chosen from the first 64 bits of the SHA-256 of the name's UTF-8
 *       bytes, the next one up when another name has it.</li>
 * </ul>
 *
 * <p>SQL reads counts by name with a join:
 * {@code SELECT n.name, SUM(c.count) FROM counters c JOIN counters_names n ON n.record_type =
 * c.record_type AND n.record_id = c.record_id WHERE c.record_type = ? GROUP BY n.name}. Type names
 * are rows of {@code record_type} {@link SlottedCounters#RESERVED_RECORD_TYPE}, their number in
 * {@code record_id}.
 *
 * <p>Bounds: a process records at most {@link SlottedCountersBuilder#newNamesPerSecond} new names
 * per second and keeps at most {@link SlottedCountersBuilder#maxTypeNames} type names; a name
 * over a bound fails with {@link NameLimitException} and records nothing. Names already recorded
 * are always answered.
 */
public interface CounterNames {
    /** The longest string id, in bytes of UTF-8. */
    int MAX_ID_BYTES = IdText.MAX_ID_BYTES;
    /** Every mapped id is below this, −2^62; numeric ids below it are refused. */
    long MAPPED_IDS_END = IdText.MAPPED_IDS_END;
    /** Type names created on first use get numbers from this one up, 2^30. */
    int FIRST_NAMED_TYPE = 1 << 30;
    /** What a type name looks like: lowercase, starting with a letter, at most 63 characters. */
    Pattern TYPE_NAME = IdText.TYPE_NAME;

    /**
     * The {@code record_type} of a type name, recording it on its first use.
     *
     * @param name the type name
     * @return its number
     * @throws IllegalArgumentException if the name is malformed
     * @throws NameLimitException if the name is new and a bound refuses it
     * @throws SlottedException if the database failed
     */
    int type(String name);

    /**
     * The {@code record_type} of a type name, without recording it.
     *
     * @param name the type name
     * @return its number, or empty when no process has recorded the name
     * @throws IllegalArgumentException if the name is malformed
     * @throws SlottedException if the database failed
     */
    OptionalInt findType(String name);

    /**
     * The {@code record_id} of an id, recording it on its first use.
     *
     * @param recordType the counter type the id belongs to
     * @param id the id: a decimal number, which is itself, or any other string
     * @return its number
     * @throws IllegalArgumentException if the id is empty, too long, holds NUL, or is a number
     *     below {@link #MAPPED_IDS_END}
     * @throws NameLimitException if the id is new and a bound refuses it
     * @throws SlottedException if the database failed
     */
    long id(int recordType, String id);

    /**
     * The {@code record_id} of an id, without recording it.
     *
     * @param recordType the counter type the id belongs to
     * @param id the id
     * @return its number, or empty when no process has recorded the id (its counter reads 0)
     * @throws IllegalArgumentException as {@link #id} does
     * @throws SlottedException if the database failed
     */
    OptionalLong findId(int recordType, String id);

    /**
     * {@link #type} for callers that must not wait: completed at once when the name is cached.
     *
     * @param name the type name
     * @return its number, or a failure as {@link #type} throws it
     * @throws IllegalArgumentException if the name is malformed
     */
    CompletableFuture<Integer> typeAsync(String name);

    /**
     * {@link #findType} for callers that must not wait.
     *
     * @param name the type name
     * @return its number or empty, or a failure as {@link #findType} throws it
     * @throws IllegalArgumentException if the name is malformed
     */
    CompletableFuture<OptionalInt> findTypeAsync(String name);

    /**
     * {@link #id} for callers that must not wait: completed at once for a number or a cached id.
     *
     * @param recordType the counter type
     * @param id the id
     * @return its number, or a failure as {@link #id} throws it
     * @throws IllegalArgumentException if the id is malformed
     */
    CompletableFuture<Long> idAsync(int recordType, String id);

    /**
     * {@link #findId} for callers that must not wait.
     *
     * @param recordType the counter type
     * @param id the id
     * @return its number or empty, or a failure as {@link #findId} throws it
     * @throws IllegalArgumentException if the id is malformed
     */
    CompletableFuture<OptionalLong> findIdAsync(int recordType, String id);

    /**
     * The string ids of mapped numbers, for showing counters found by number (a top-N) by name.
     *
     * @param recordType the counter type
     * @param recordIds numbers, mapped or not
     * @return the id of each mapped number recorded in the dictionary; other numbers are absent
     * @throws SlottedException if the database failed
     */
    Map<Long, String> idsOf(int recordType, Collection<Long> recordIds);

    /**
     * Records a type name with a number of the caller's choosing, for names that must keep a
     * number given before they were recorded (an existing table's {@code record_type}).
     *
     * @param name the type name
     * @param recordType its number, 0 or more
     * @throws IllegalArgumentException if the name is malformed or the number negative
     * @throws IllegalStateException if the dictionary maps the name to another number, or the
     *     number to another name
     * @throws SlottedException if the database failed
     */
    void pin(String name, int recordType);

    /**
     * Whether a {@code record_id} is one the dictionary maps strings to.
     *
     * @param recordId a record id
     * @return true below {@link #MAPPED_IDS_END}
     */
    static boolean isMapped(long recordId) {
        return recordId < MAPPED_IDS_END;
    }

    /**
     * The {@code record_id} an id is by itself, when it is a decimal number: the rule that tells
     * numeric ids from string ids, checked without the database.
     *
     * @param id the id as given
     * @return the number, or empty when the id is a string that the dictionary maps
     * @throws IllegalArgumentException if the id is empty, longer than {@value #MAX_ID_BYTES}
     *     bytes of UTF-8, holds NUL or a lone surrogate, or is a number below
     *     {@link #MAPPED_IDS_END}
     */
    static OptionalLong numberOf(String id) {
        return IdText.numberOf(id);
    }
}
