package dev.ferry.remoting.codec;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.LanguageCode;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the JSON header in the shape RocketMQ peers write it: one flat object with quoted
 * names, numbers, strings and a string-to-string {@code extFields} object. Anything else
 * (unquoted names, other value types, unknown fields, malformed input) makes it give up and
 * return {@code null}, and the general parser takes over, so leniency and error messages stay
 * those of the general parser while the common case avoids its overhead.
 *
 * <p>Single-use: one instance reads one header.
 */
final class JsonHeaderReader {
    private final byte[] in;
    private final FieldNames names;
    private int pos;

    JsonHeaderReader(byte[] in, FieldNames names) {
        this.in = in;
        this.names = names;
    }

    /** The decoded header, or {@code null} when it is not in the common shape. */
    RemotingCommand.Builder read() {
        RemotingCommand.Builder b = RemotingCommand.Builder.blank();
        skipWhitespace();
        if (!consume('{')) {
            return null;
        }
        skipWhitespace();
        if (consume('}')) {
            return atEnd() ? b : null;
        }
        while (true) {
            String name = quotedName();
            if (name == null || !colon()) {
                return null;
            }
            if (!field(name, b)) {
                return null;
            }
            skipWhitespace();
            if (consume(',')) {
                skipWhitespace();
                continue;
            }
            if (consume('}')) {
                return atEnd() ? b : null;
            }
            return null;
        }
    }

    private boolean field(String name, RemotingCommand.Builder b) {
        switch (name) {
            case "code", "flag", "opaque", "version" -> {
                long value = integer();
                if (value == Long.MIN_VALUE) {
                    return false;
                }
                switch (name) {
                    case "code" -> b.code((int) value);
                    case "flag" -> b.flag((int) value);
                    case "opaque" -> b.opaque((int) value);
                    default -> b.version((int) value);
                }
                return true;
            }
            case "language" -> {
                String value = string();
                if (value == null) {
                    return false;
                }
                b.language(LanguageCode.ofName(value));
                return true;
            }
            case "remark" -> {
                if (literal("null")) {
                    b.remark(null);
                    return true;
                }
                String value = string();
                b.remark(value);
                return value != null;
            }
            case "serializeTypeCurrentRPC" -> {
                return string() != null;
            }
            case "extFields" -> {
                Map<String, String> fields = extFields();
                if (fields == null) {
                    return false;
                }
                b.extFields(fields);
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private Map<String, String> extFields() {
        if (!consume('{')) {
            return null;
        }
        Map<String, String> fields = new HashMap<>(32);
        skipWhitespace();
        if (consume('}')) {
            return fields;
        }
        while (true) {
            String key = quotedName();
            if (key == null || !colon()) {
                return null;
            }
            String value = string();
            if (value == null) {
                return null;
            }
            fields.put(key, value);
            skipWhitespace();
            if (consume(',')) {
                skipWhitespace();
                continue;
            }
            return consume('}') ? fields : null;
        }
    }

    /** A quoted name without escapes, through the name cache; {@code null} otherwise. */
    private String quotedName() {
        if (!consume('"')) {
            return null;
        }
        int start = pos;
        while (pos < in.length) {
            byte c = in[pos];
            if (c == '"') {
                String name = names.get(in, start, pos - start);
                pos++;
                return name;
            }
            if (c == '\\') {
                return null;
            }
            pos++;
        }
        return null;
    }

    private boolean colon() {
        skipWhitespace();
        if (!consume(':')) {
            return false;
        }
        skipWhitespace();
        return true;
    }

    /** A quoted string value, escapes decoded; {@code null} when the value is not a string. */
    private String string() {
        if (!consume('"')) {
            return null;
        }
        int start = pos;
        while (pos < in.length) {
            byte c = in[pos];
            if (c == '"') {
                String s = new String(in, start, pos - start, StandardCharsets.UTF_8);
                pos++;
                return s;
            }
            if (c == '\\') {
                return escapedString(start);
            }
            pos++;
        }
        return null;
    }

    private String escapedString(int start) {
        StringBuilder s = new StringBuilder(pos - start + 16);
        int run = start;
        while (pos < in.length) {
            byte c = in[pos];
            if (c == '"') {
                s.append(new String(in, run, pos - run, StandardCharsets.UTF_8));
                pos++;
                return s.toString();
            }
            if (c != '\\') {
                pos++;
                continue;
            }
            s.append(new String(in, run, pos - run, StandardCharsets.UTF_8));
            if (pos + 1 >= in.length) {
                return null;
            }
            byte e = in[pos + 1];
            pos += 2;
            switch (e) {
                case '"', '\\', '/' -> s.append((char) e);
                case 'b' -> s.append('\b');
                case 'f' -> s.append('\f');
                case 'n' -> s.append('\n');
                case 'r' -> s.append('\r');
                case 't' -> s.append('\t');
                case 'u' -> {
                    if (pos + 4 > in.length) {
                        return null;
                    }
                    int value = 0;
                    for (int i = 0; i < 4; i++) {
                        int digit = Character.digit(in[pos + i], 16);
                        if (digit < 0) {
                            return null;
                        }
                        value = value * 16 + digit;
                    }
                    pos += 4;
                    s.append((char) value);
                }
                default -> {
                    return null;
                }
            }
            run = pos;
        }
        return null;
    }

    /** An int-range integer literal; {@code Long.MIN_VALUE} when there is none. */
    private long integer() {
        boolean negative = consume('-');
        int start = pos;
        long value = 0;
        while (pos < in.length && in[pos] >= '0' && in[pos] <= '9') {
            value = value * 10 + (in[pos] - '0');
            if (value > Integer.MAX_VALUE + 1L) {
                return Long.MIN_VALUE;
            }
            pos++;
        }
        if (pos == start || (pos < in.length && (in[pos] == '.' || in[pos] == 'e' || in[pos] == 'E'))) {
            return Long.MIN_VALUE;
        }
        long result = negative ? -value : value;
        return result < Integer.MIN_VALUE || result > Integer.MAX_VALUE ? Long.MIN_VALUE : result;
    }

    private boolean literal(String word) {
        int length = word.length();
        if (pos + length > in.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (in[pos + i] != word.charAt(i)) {
                return false;
            }
        }
        pos += length;
        return true;
    }

    private boolean consume(char c) {
        if (pos < in.length && in[pos] == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void skipWhitespace() {
        while (pos < in.length) {
            byte c = in[pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            pos++;
        }
    }

    private boolean atEnd() {
        skipWhitespace();
        return pos == in.length;
    }
}
