package io.slotted.server.doctor.locks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code SHOW ENGINE INNODB STATUS} says about row locks: the transactions waiting for one
 * now, and the latest deadlock InnoDB detected.
 *
 * <p>The text is InnoDB's own report, meant for people: sections headed by lines of dashes, one
 * block per transaction ({@code ---TRANSACTION 79853106, ACTIVE 5 sec …}), the statement on the
 * lines after {@code MySQL thread id …}, and for a waiting transaction the lock it waits for
 * ({@code RECORD LOCKS … index PRIMARY of table `github`.`downloads` …}) with the locked record's
 * fields in hex. A record's first fields are its key: on a clustered index they are followed by
 * the row's hidden transaction id (6 bytes) and roll pointer (7 bytes), which is how the key's
 * length is found. Integer key fields are decoded as InnoDB stores signed integers, with the sign
 * bit flipped ({@code 80000001} is 1); any other field is shown in hex.
 *
 * @param waits the transactions waiting for a record lock
 * @param latestDeadlock the latest detected deadlock, if the server has seen one since it started
 */
record InnoDbStatus(List<LockWait> waits, Optional<Deadlock> latestDeadlock) {
    private static final Pattern TRANSACTION = Pattern.compile("^-*\\s*TRANSACTION (\\d+), ACTIVE (\\d+) sec");
    private static final Pattern WAITING = Pattern.compile("TRX HAS BEEN WAITING (\\d+) SEC FOR THIS LOCK");
    private static final Pattern THREAD = Pattern.compile("^(?:MySQL|MariaDB) thread id (\\d+),");
    private static final Pattern RECORD_LOCK = Pattern.compile(
            "^RECORD LOCKS .* index (\\S+) of table `([^`]*)`\\.`([^`]*)`");
    private static final Pattern FIELD = Pattern.compile("^\\s*(\\d+): len (\\d+); hex ([0-9a-f]*);");
    private static final Pattern DEADLOCK_TIME = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d)");
    /** The line of dashes around each section's heading. */
    private static final Pattern SECTION_RULE = Pattern.compile("-{8,}");
    private static final Pattern ROLLED_BACK = Pattern.compile("WE ROLL BACK TRANSACTION \\((\\d+)\\)");

    /**
     * A transaction waiting for a record lock.
     *
     * @param transactionId InnoDB's transaction id
     * @param threadId the waiting session's connection id, or -1 when not shown
     * @param waitedSeconds how long it has waited
     * @param statement the statement it runs, as shown
     * @param lock the record it waits for
     */
    record LockWait(long transactionId, long threadId, long waitedSeconds, String statement,
            LockedRecord lock) {
    }

    /**
     * A record lock: the table, the index, and the key of the record.
     *
     * @param schema the table's database
     * @param table the table
     * @param index the index, {@code PRIMARY} for the clustered one
     * @param key the record's key fields, decoded
     */
    record LockedRecord(String schema, String table, String index, List<String> key) {
    }

    /**
     * The latest deadlock InnoDB detected.
     *
     * @param detectedAt when, as the server's local time
     * @param statements each transaction's statement, in InnoDB's order
     * @param locks the records they waited for
     * @param rolledBack which transaction (1-based) InnoDB rolled back, or 0 when not shown
     */
    record Deadlock(String detectedAt, List<String> statements, List<LockedRecord> locks, int rolledBack) {
    }

    /**
     * Reads the parts of the report about row locks; the rest is ignored.
     *
     * @param text the {@code Status} column of {@code SHOW ENGINE INNODB STATUS}
     * @return what it says
     */
    static InnoDbStatus parse(String text) {
        List<String> lines = text.lines().toList();
        return new InnoDbStatus(waits(lines), deadlock(lines));
    }

    private static List<LockWait> waits(List<String> lines) {
        List<LockWait> waits = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher transaction = TRANSACTION.matcher(lines.get(i));
            if (!transaction.find() || lines.get(i).contains("DEADLOCK")) {
                continue;
            }
            int end = nextTransaction(lines, i + 1);
            findWait(lines, i, end, Long.parseLong(transaction.group(1))).ifPresent(waits::add);
            i = end - 1;
        }
        return waits;
    }

    private static int nextTransaction(List<String> lines, int from) {
        for (int i = from; i < lines.size(); i++) {
            String line = lines.get(i);
            if (TRANSACTION.matcher(line).find() || SECTION_RULE.matcher(line).matches()) {
                return i;
            }
        }
        return lines.size();
    }

    private static Optional<LockWait> findWait(List<String> lines, int from, int to, long trx) {
        long thread = -1;
        StringBuilder statement = new StringBuilder();
        for (int i = from + 1; i < to; i++) {
            Matcher threadLine = THREAD.matcher(lines.get(i));
            if (threadLine.find()) {
                thread = Long.parseLong(threadLine.group(1));
                for (int j = i + 1; j < to && !lines.get(j).contains("TRX HAS BEEN WAITING")
                        && !lines.get(j).startsWith("Trx read view") && !lines.get(j).isBlank(); j++) {
                    statement.append(statement.length() == 0 ? "" : " ").append(lines.get(j).strip());
                }
            }
            Matcher waiting = WAITING.matcher(lines.get(i));
            if (waiting.find()) {
                Optional<LockedRecord> lock = lockedRecord(lines, i + 1, to);
                if (lock.isPresent()) {
                    return Optional.of(new LockWait(trx, thread, Long.parseLong(waiting.group(1)),
                            statement.toString(), lock.get()));
                }
            }
        }
        return Optional.empty();
    }

    /** The first record lock described from {@code from} on, with its key. */
    private static Optional<LockedRecord> lockedRecord(List<String> lines, int from, int to) {
        for (int i = from; i < to; i++) {
            Matcher lock = RECORD_LOCK.matcher(lines.get(i));
            if (lock.find()) {
                return Optional.of(new LockedRecord(lock.group(2), lock.group(3), lock.group(1),
                        key(lines, i + 1, to, lock.group(1).equals("PRIMARY"))));
            }
        }
        return Optional.empty();
    }

    /**
     * The key of the record whose fields follow: on the clustered index, the fields before the
     * hidden transaction id and roll pointer; on a secondary index, every field (its key and the
     * primary key it points to).
     */
    private static List<String> key(List<String> lines, int from, int to, boolean clustered) {
        List<String[]> fields = new ArrayList<>();
        for (int i = from; i < to; i++) {
            Matcher field = FIELD.matcher(lines.get(i));
            if (field.find()) {
                fields.add(new String[] {field.group(2), field.group(3)});
            } else if (!fields.isEmpty()) {
                break;
            }
        }
        int keyFields = fields.size();
        for (int f = 0; clustered && f + 1 < fields.size(); f++) {
            if (fields.get(f)[0].equals("6") && fields.get(f + 1)[0].equals("7")) {
                keyFields = f;
                break;
            }
        }
        List<String> key = new ArrayList<>();
        for (String[] field : fields.subList(0, keyFields)) {
            key.add(decode(Integer.parseInt(field[0]), field[1]));
        }
        return key;
    }

    /**
     * An integer field of 1, 2, 3, 4 or 8 bytes as InnoDB stores a signed integer: big-endian,
     * with the sign bit flipped, so the value is the unsigned number less the sign bit's weight.
     * Anything else is shown in hex.
     */
    static String decode(int length, String hex) {
        if (hex.length() != length * 2 || length == 0 || (length > 4 && length != 8)) {
            return "0x" + hex;
        }
        long stored = Long.parseUnsignedLong(hex, 16);
        return Long.toString(length == 8 ? stored ^ Long.MIN_VALUE : stored - (1L << (length * 8 - 1)));
    }

    private static Optional<Deadlock> deadlock(List<String> lines) {
        int start = indexOf(lines, "LATEST DETECTED DEADLOCK", 0);
        if (start < 0) {
            return Optional.empty();
        }
        int end = indexOf(lines, "TRANSACTIONS", start + 2);
        end = end < 0 ? lines.size() : end;
        String when = "";
        List<String> statements = new ArrayList<>();
        List<LockedRecord> locks = new ArrayList<>();
        int rolledBack = 0;
        for (int i = start + 1; i < end; i++) {
            String line = lines.get(i);
            Matcher time = DEADLOCK_TIME.matcher(line);
            if (when.isEmpty() && time.find()) {
                when = time.group(1);
            }
            Matcher thread = THREAD.matcher(line);
            if (thread.find() && i + 1 < end) {
                statements.add(lines.get(i + 1).strip());
            }
            if (line.contains("WAITING FOR THIS LOCK TO BE GRANTED")) {
                lockedRecord(lines, i + 1, end).ifPresent(locks::add);
            }
            Matcher rolled = ROLLED_BACK.matcher(line);
            if (rolled.find()) {
                rolledBack = Integer.parseInt(rolled.group(1));
            }
        }
        return Optional.of(new Deadlock(when, statements, locks, rolledBack));
    }

    private static int indexOf(List<String> lines, String heading, int from) {
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(heading)) {
                return i;
            }
        }
        return -1;
    }
}
