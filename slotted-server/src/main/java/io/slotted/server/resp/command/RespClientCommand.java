package io.slotted.server.resp.command;

import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code CLIENT SETNAME|GETNAME|SETINFO|ID}: what client libraries send when they connect. The
 * name is kept for the connection; library names and versions are accepted and not kept.
 */
final class RespClientCommand {
    /** Redis's rule for names: printable ASCII without spaces. */
    private static final Pattern NAME = Pattern.compile("[!-~]*");
    private static final int MAX_NAME_LENGTH = 128;

    private RespClientCommand() {
    }

    static RedisMessage run(ClientState client, List<String> args) {
        String subcommand = args.get(0).toUpperCase(Locale.ROOT);
        int arity = switch (subcommand) {
            case "SETNAME" -> 2;
            case "GETNAME", "ID" -> 1;
            case "SETINFO" -> 3;
            default -> throw new RespError("ERR unknown subcommand '" + RespText.excerpt(args.get(0))
                    + "'. Try SETNAME, GETNAME, SETINFO or ID.");
        };
        if (args.size() != arity) {
            throw new RespError("ERR wrong number of arguments for 'client|"
                    + subcommand.toLowerCase(Locale.ROOT) + "' command");
        }
        return switch (subcommand) {
            case "SETNAME" -> {
                setName(client, args.get(1));
                yield new SimpleStringRedisMessage("OK");
            }
            case "GETNAME" -> client.name() == null ? FullBulkStringRedisMessage.NULL_INSTANCE
                    : RespText.bulk(client.name());
            case "ID" -> new IntegerRedisMessage(client.id());
            default -> new SimpleStringRedisMessage("OK");
        };
    }

    static void setName(ClientState client, String name) {
        if (!NAME.matcher(name).matches() || name.length() > MAX_NAME_LENGTH) {
            throw new RespError("ERR Client names cannot contain spaces, newlines or special"
                    + " characters, and are at most " + MAX_NAME_LENGTH + " characters.");
        }
        client.name(name.isEmpty() ? null : name);
    }
}
