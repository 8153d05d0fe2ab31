package io.slotted.server;

/** JDBC URLs of the {@code jdbc:…://host:port/db?user=…} kind, rewritten for tests. */
final class JdbcUrls {
    private JdbcUrls() {
    }

    /** The URL with its user and password parameters replaced. */
    static String withLogin(String url, String user, String password) {
        String rest = url.replaceAll("(?i)([?&])(user|password)=[^&]*&?", "$1").replaceAll("[?&]$", "");
        return rest + (rest.contains("?") ? "&" : "?") + "user=" + user + "&password=" + password;
    }
}
