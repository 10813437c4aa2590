package dev.ferry.server.cli;

import dev.ferry.remoting.Credentials;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The credentials file of RocketMQ's tools, {@code conf/tools.yml}: {@code accessKey: USER} and
 * {@code secretKey: PASSWORD} lines, {@code #} comments and blank lines; other keys are ignored, as Apache's tools
 * ignore them. Only this flat form is read, not YAML at large. Errors name the file and the line, never a value.
 */
final class CredentialsFile {
    static final String ACCESS_KEY = "accessKey";
    static final String SECRET_KEY = "secretKey";
    /** Larger files are refused unread: a credentials file is two lines. */
    static final long MAX_SIZE = 64 * 1024;

    private CredentialsFile() {
    }

    /** @throws AdminCalls.BadSetup when the file cannot be read or lacks either key */
    static Credentials read(Path file) {
        List<String> lines;
        try {
            if (Files.size(file) > MAX_SIZE) {
                throw new AdminCalls.BadSetup("credentials file " + file + " is larger than " + MAX_SIZE
                        + " bytes: expected accessKey and secretKey lines");
            }
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AdminCalls.BadSetup("cannot read credentials file " + file + ": " + reason(e));
        }
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new AdminCalls.BadSetup("credentials file " + file + " line " + (i + 1)
                        + " is not 'key: value'");
            }
            values.put(line.substring(0, colon).strip(), unquoted(line.substring(colon + 1).strip()));
        }
        String accessKey = values.get(ACCESS_KEY);
        String secretKey = values.get(SECRET_KEY);
        if (accessKey == null || accessKey.isBlank() || secretKey == null || secretKey.isBlank()) {
            throw new AdminCalls.BadSetup("credentials file " + file + " needs both " + ACCESS_KEY + " and "
                    + SECRET_KEY);
        }
        return new Credentials(accessKey, secretKey);
    }

    private static String unquoted(String value) {
        if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                || value.startsWith("'") && value.endsWith("'"))) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }

    private static String reason(IOException e) {
        String kind = e.getClass().getSimpleName();
        return switch (kind) {
            case "NoSuchFileException" -> "no such file";
            case "AccessDeniedException" -> "permission denied";
            default -> e.getMessage() == null ? kind : e.getMessage();
        };
    }
}
