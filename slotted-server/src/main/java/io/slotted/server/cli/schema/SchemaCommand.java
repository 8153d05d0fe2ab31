package io.slotted.server.cli.schema;

import io.slotted.SlottedSchema;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code slotted schema}: prints the DDL {@code migrate} runs, for a database and a table name, so
 * that it can go through the team's migrations (Flyway, Liquibase, review) instead. It connects
 * to nothing.
 */
@Command(name = "schema", mixinStandardHelpOptions = true,
        description = {"Prints the DDL that migrate runs, for a database kind and table name, to run with"
                + " Flyway, Liquibase or by hand; connects to nothing.",
            "The same file is in the Slotted jar as io/slotted/schema/<kind>/1-create.sql, for the default table."})
public final class SchemaCommand implements Callable<Integer> {
    @Option(names = "--db-kind", paramLabel = "KIND",
            description = "mariadb, mysql, postgresql or h2. Default: the kind of --db, else h2 (the embedded default).")
    String kind;

    @Option(names = "--db", paramLabel = "JDBC_URL", defaultValue = "${env:SLOTTED_DB_URL}",
            description = "Only its kind is read (jdbc:mariadb:, jdbc:mysql:, jdbc:postgresql:, jdbc:h2:)."
                    + " Env: SLOTTED_DB_URL.")
    String url;

    @Option(names = "--table", paramLabel = "NAME", defaultValue = SlottedSchema.DEFAULT_TABLE,
            description = "The counter table, table or schema.table; its companions are named after it."
                    + " Default: ${DEFAULT-VALUE}.")
    String table;

    @Option(names = "--from", paramLabel = "VERSION",
            description = "Print only what upgrades a schema recorded at VERSION (its _schema table; 0 where"
                    + " there is none) to this release's.")
    Integer from;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        String database = database();
        String script;
        try {
            script = SlottedSchema.createScript(database, table);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--table: " + e.getMessage());
        }
        if (from == null) {
            spec.commandLine().getOut().println(script);
            return 0;
        }
        if (from > SlottedSchema.VERSION) {
            throw new ParameterException(spec.commandLine(), "--from " + from + ": this release knows schema versions"
                    + " up to " + SlottedSchema.VERSION + "; a newer schema needs the release that made it");
        }
        if (from < 0) {
            throw new ParameterException(spec.commandLine(), "--from " + from + ": give the version recorded in "
                    + table + "_schema, or 0 where there is no such table (a schema made before versions were"
                    + " recorded)");
        }
        String upgrade = SlottedSchema.upgradeScript(database, table, from);
        spec.commandLine().getOut().println(upgrade.isEmpty() ? "-- " + table + " is at schema version " + from
                + ", the latest this release knows: nothing to run." : upgrade);
        return 0;
    }

    private String database() {
        if (kind != null) {
            String chosen = kind.toLowerCase(Locale.ROOT);
            if (!SlottedSchema.DATABASES.contains(chosen)) {
                throw new ParameterException(spec.commandLine(), "--db-kind must be one of "
                        + String.join(", ", SlottedSchema.DATABASES) + ", not '" + kind + "'");
            }
            return chosen;
        }
        if (url == null || url.isBlank()) {
            return "h2";
        }
        for (String database : SlottedSchema.DATABASES) {
            if (url.startsWith("jdbc:" + database + ":")) {
                return database;
            }
        }
        int kindEnd = url.indexOf(':', url.indexOf(':') + 1);
        String prefix = kindEnd < 0 ? "" : url.substring(0, kindEnd + 1); // not the rest, which may hold a password
        throw new ParameterException(spec.commandLine(), "--db: cannot tell the database kind of a URL beginning '"
                + prefix + "'; give --db-kind (" + String.join(", ", SlottedSchema.DATABASES) + ")");
    }
}
