package io.slotted.internal.dialect.schema;

import io.slotted.internal.sql.TableName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of a database's schema files in the core jar, {@code io/slotted/schema/<database>/}: the DDL
 * of the counter table and its companions for the default table name ({@code 1-create.sql}), and
 * what upgrades a schema made before versions were recorded ({@code 0-to-1.sql}); the one source
 * that {@code migrate()} runs and that Flyway, Liquibase or a person runs instead (docs/schema.md).
 *
 * <p>The file is written for {@value #DEFAULT_TABLE}; for another table every name beginning with
 * it is rewritten: a table, wherever it is referred to, as the configured (possibly schema-qualified)
 * name plus the companion's suffix, and an index or constraint, which takes no schema, as the bare
 * table name plus its suffix. A statement belongs to the table it creates, alters or inserts
 * into, so that {@code migrate()} can create one missing table at a time.
 */
public final class SchemaScript {
    /** The schema version the files create, recorded in the schema table. */
    public static final int VERSION = 1;
    /** The counter table the files are written for. */
    public static final String DEFAULT_TABLE = "slotted_counters";
    /** The databases with a schema file, as their folders are named. */
    public static final List<String> DATABASES = List.of("mariadb", "mysql", "postgresql", "h2");

    /** A name of the default table or a companion, the index or constraint keyword before it when there is one. */
    private static final Pattern NAME = Pattern.compile(
            "(?i)\\b(?:(INDEX(?: IF NOT EXISTS)?|CONSTRAINT)\\s+)?" + DEFAULT_TABLE + "(\\w*)");
    /** The table a statement belongs to: the one it creates, indexes, alters or inserts into. */
    private static final Pattern SUBJECT = Pattern.compile(
            "(?i)(?:CREATE TABLE IF NOT EXISTS|\\bON|\\bINTO|ALTER TABLE)\\s+" + DEFAULT_TABLE + "(\\w*)\\b");
    /** The storage parameters at the end of a {@code CREATE TABLE}. */
    private static final Pattern PARAMETERS = Pattern.compile("\\)\\s*WITH\\s*\\(([^)]*)\\)\\s*$");

    /** The files read so far, by resource: they never change, and a migration asks for them table by table. */
    private static final Map<String, SchemaScript> LOADED = new ConcurrentHashMap<>();

    private final String resource;
    private final String text;

    private SchemaScript(String resource, String text) {
        this.resource = resource;
        this.text = text;
    }

    /**
     * Loads a database's schema file.
     *
     * @param database one of {@link #DATABASES}
     * @return the file
     * @throws IllegalArgumentException if Slotted has no schema file for it
     */
    public static SchemaScript of(String database) {
        return load(database, "1-create.sql");
    }

    /**
     * Loads a database's file that upgrades a schema made before versions were recorded to
     * version 1: the columns added since, and on MariaDB and MySQL the key column made exact.
     *
     * @param database one of {@link #DATABASES}
     * @return the file
     * @throws IllegalArgumentException if Slotted has no schema file for it
     */
    public static SchemaScript fromUnversioned(String database) {
        return load(database, "0-to-1.sql");
    }

    private static SchemaScript load(String database, String file) {
        if (!DATABASES.contains(database)) {
            throw new IllegalArgumentException("no schema file for database '" + database + "'; there are files"
                    + " for " + String.join(", ", DATABASES));
        }
        return LOADED.computeIfAbsent("io/slotted/schema/" + database + "/" + file, SchemaScript::read);
    }

    private static SchemaScript read(String resource) {
        try (InputStream in = SchemaScript.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the Slotted jar");
            }
            return new SchemaScript(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /**
     * Where the file is in the jar, as a class path resource.
     *
     * @return the resource path, without a leading slash
     */
    public String resource() {
        return resource;
    }

    /**
     * The whole file, comments included, for a counter table: as is for {@value #DEFAULT_TABLE}.
     *
     * @param table the counter table
     * @return the script
     */
    public String text(TableName table) {
        StringBuilder script = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            script.append(line.startsWith("--") ? line : rename(line, table)).append('\n');
        }
        return script.substring(0, script.length() - 1);
    }

    /**
     * The statements that make one table, in order: its {@code CREATE TABLE}, indexes, and rows.
     *
     * @param table the counter table
     * @param suffix the companion's suffix, empty for the counter table itself
     * @return the statements, without their semicolons
     */
    public List<String> statements(TableName table, String suffix) {
        List<String> statements = new ArrayList<>();
        for (String statement : statements()) {
            Matcher subject = SUBJECT.matcher(statement);
            if (subject.find() && subject.group(1).equalsIgnoreCase(suffix)) {
                statements.add(rename(statement, table));
            }
        }
        if (statements.isEmpty()) {
            throw new IllegalStateException(resource + " makes no table " + DEFAULT_TABLE + suffix);
        }
        return statements;
    }

    /**
     * The statement that adds or changes one column of a table, if the file has one.
     *
     * @param table the counter table
     * @param suffix the companion's suffix, empty for the counter table itself
     * @param column the column's name
     * @return the statement, without its semicolon
     */
    public Optional<String> alteringColumn(TableName table, String suffix, String column) {
        Pattern altering = Pattern.compile("(?i)\\b(?:ADD(?: IF NOT EXISTS)?|MODIFY)\\s+" + Pattern.quote(column) + "\\b");
        for (String statement : statements()) {
            Matcher subject = SUBJECT.matcher(statement);
            if (subject.find() && subject.group(1).equalsIgnoreCase(suffix) && altering.matcher(statement).find()) {
                return Optional.of(rename(statement, table));
            }
        }
        return Optional.empty();
    }

    /**
     * The storage parameters the file gives a table, each {@code name=value}.
     *
     * @param suffix the companion's suffix, empty for the counter table itself
     * @return the parameters; empty where the file sets none
     */
    public List<String> storageParameters(String suffix) {
        String create = statements(TableName.parse(DEFAULT_TABLE), suffix).get(0);
        Matcher parameters = PARAMETERS.matcher(create);
        return parameters.find() ? List.of(parameters.group(1).trim().split("\\s*,\\s*")) : List.of();
    }

    /**
     * The columns the file gives a table, in its order.
     *
     * @param suffix the companion's suffix, empty for the counter table itself
     * @return the column names, in lower case
     */
    public List<String> columns(String suffix) {
        String create = statements(TableName.parse(DEFAULT_TABLE), suffix).get(0);
        String body = create.substring(create.indexOf('(') + 1, create.lastIndexOf(')'));
        body = PARAMETERS.matcher(create).find() ? body.substring(0, body.lastIndexOf(") WITH")) : body;
        List<String> columns = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= body.length(); i++) {
            char c = i < body.length() ? body.charAt(i) : ',';
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                String element = body.substring(start, i).strip();
                String first = element.split("\\s+")[0].toLowerCase(Locale.ROOT);
                if (!List.of("primary", "constraint", "index", "unique", "key").contains(first)) {
                    columns.add(first);
                }
                start = i + 1;
            }
        }
        return columns;
    }

    /** The file's statements for the default table, comments left out. */
    private List<String> statements() {
        List<String> statements = new ArrayList<>();
        StringBuilder statement = new StringBuilder();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            statement.append(statement.length() == 0 ? "" : " ").append(trimmed);
            if (trimmed.endsWith(";")) {
                statements.add(statement.substring(0, statement.length() - 1).replace("( ", "(").replace(" )", ")"));
                statement.setLength(0);
            }
        }
        return statements;
    }

    private static String rename(String sql, TableName table) {
        return NAME.matcher(sql).replaceAll(name -> {
            String suffix = name.group(2);
            return Matcher.quoteReplacement(Optional.ofNullable(name.group(1))
                    .map(keyword -> keyword + " " + table.table() + suffix)
                    .orElse(table.withSuffix(suffix).toString()));
        });
    }
}
