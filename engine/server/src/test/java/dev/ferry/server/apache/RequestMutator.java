package dev.ferry.server.apache;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.SerializeType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Turns recorded requests into hostile ones, deterministically from a seed: fields dropped, replaced by the values
 * that break naive servers (negative numbers, huge ones, names with '/', newlines, megabytes), added; bodies cut,
 * flipped, spliced, and JSON string values swapped; requests sent under another code, or a code nobody serves.
 */
final class RequestMutator {
    /** Every code the broker or the name server serves, and a few nobody does. */
    static final int[] CODES = {10, 310, 320, 11, 361, 34, 35, 38, 46, 14, 15, 30, 31, 29, 32, 36, 37, 41, 42, 33, 12,
        9000, 103, 104, 105, 106, 100, 101, 102, 219, 0, 1, 999, 4242, -1};
    /** The codes only the name server serves: registrations, routes, cluster info, the key-value configuration. */
    private static final java.util.Set<Integer> NAME_SERVER_CODES = java.util.Set.of(100, 101, 102, 103, 104, 105,
            106, 219);
    private static final String[] VALUES = {"", "0", "1", "-1", "-5", "2147483647", "-2147483648",
        "9223372036854775807", "-9223372036854775808", "99999999999999999999", "abc", "true", "false", "null", "1.5",
        "1e309", "\u0000", "a\nb", "../../../tmp/pwn", "a/b", "%RETRY%", "%RETRY%CG_FUZZ", "%DLQ%CG_FUZZ", "TBW102",
        "SCHEDULE_TOPIC_XXXX", "RMQ_SYS_TRANS_HALF_TOPIC", "RMQ_SYS_TRANS_OP_HALF_TOPIC", "*", "TagA || TagB",
        "a = 1", "a > ", "a IN ('x','y') AND b IS NOT NULL", "TAG", "SQL92", "NOPE", "CLUSTERING", "BROADCASTING",
        "x".repeat(128), "g".repeat(256), "127.0.0.1:1", "broker-a", "DefaultCluster", "{}", "[]", "\"", "\\"};

    private final Random random;
    private final List<ApacheTraffic.Request> seeds;

    RequestMutator(long seed, List<ApacheTraffic.Request> seeds) {
        this.random = new Random(seed);
        this.seeds = seeds;
    }

    /** A mutated request, and whether it goes to the name server. */
    record Mutated(RemotingCommand command, boolean toNameServer) {
    }

    Mutated next() {
        ApacheTraffic.Request seed = seeds.get(random.nextInt(seeds.size()));
        int code = seed.code();
        Map<String, String> fields = new HashMap<>(seed.fields());
        byte[] body = seed.body();
        boolean oneway = seed.oneway();
        int mutations = 1 + random.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            switch (random.nextInt(10)) {
                case 0 -> code = CODES[random.nextInt(CODES.length)];
                case 1 -> removeField(fields);
                case 2, 3 -> replaceField(fields);
                case 4 -> fields.put(value(), value());
                case 5, 6 -> body = mutateBody(body);
                case 7 -> body = spliceBody(body);
                case 8 -> oneway = !oneway;
                default -> replaceField(fields);
            }
        }
        boundHolds(code, fields);
        RemotingCommand.Builder command = RemotingCommand.request(code).extFields(fields).oneway(oneway)
                .serializeType(random.nextInt(4) == 0 ? SerializeType.ROCKETMQ : SerializeType.JSON);
        if (body != null) {
            command.body(body);
        }
        boolean toNameServer = NAME_SERVER_CODES.contains(code);
        return new Mutated(command.build(), toNameServer);
    }

    /** A held pull would hold the fuzzer's in-flight slot for seconds; a short hold is exercised all the same. */
    private static void boundHolds(int code, Map<String, String> fields) {
        if (code == 11 || code == 361) {
            String suspend = fields.get("suspendTimeoutMillis");
            try {
                if (suspend != null && Long.parseLong(suspend) > 100) {
                    fields.put("suspendTimeoutMillis", "100");
                }
            } catch (NumberFormatException e) {
                // an unparsable value is refused by the header codec: keep it
            }
        }
    }

    private String value() {
        int pick = random.nextInt(VALUES.length + 4);
        if (pick < VALUES.length) {
            return VALUES[pick];
        }
        return switch (pick - VALUES.length) {
            case 0 -> Long.toString(random.nextLong());
            case 1 -> Integer.toString(random.nextInt(64) - 8);
            case 2 -> randomText(1 + random.nextInt(40));
            default -> random.nextInt(50) == 0 ? "y".repeat(70_000) : randomText(random.nextInt(8));
        };
    }

    private String randomText(int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) (random.nextInt(3) == 0 ? random.nextInt(0x3000) : 32 + random.nextInt(95)));
        }
        return text.toString();
    }

    private void removeField(Map<String, String> fields) {
        if (!fields.isEmpty()) {
            List<String> names = new ArrayList<>(fields.keySet());
            fields.remove(names.get(random.nextInt(names.size())));
        }
    }

    private void replaceField(Map<String, String> fields) {
        if (!fields.isEmpty()) {
            List<String> names = new ArrayList<>(fields.keySet());
            fields.put(names.get(random.nextInt(names.size())), value());
        }
    }

    private byte[] mutateBody(byte[] body) {
        if (body == null || body.length == 0) {
            return random.nextBoolean() ? null : randomText(random.nextInt(64)).getBytes(StandardCharsets.UTF_8);
        }
        byte[] out = body.clone();
        switch (random.nextInt(5)) {
            case 0 -> {
                for (int i = 0; i < 1 + random.nextInt(8); i++) {
                    out[random.nextInt(out.length)] = (byte) random.nextInt(256);
                }
            }
            case 1 -> out = Arrays.copyOf(out, random.nextInt(out.length));
            case 2 -> {
                out = Arrays.copyOf(out, out.length + 1 + random.nextInt(256));
                for (int i = body.length; i < out.length; i++) {
                    out[i] = (byte) random.nextInt(256);
                }
            }
            case 3 -> out = replaceJsonString(new String(body, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
            default -> out = new byte[0];
        }
        return out;
    }

    /** Swaps one quoted string of a JSON body for a hostile value (escaped, so the JSON stays well formed). */
    private String replaceJsonString(String json) {
        List<int[]> strings = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                if (start < 0) {
                    start = i;
                } else {
                    strings.add(new int[] {start, i});
                    start = -1;
                }
            }
        }
        if (strings.isEmpty()) {
            return json;
        }
        int[] chosen = strings.get(random.nextInt(strings.size()));
        String replacement = value().replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")
                .replace("\u0000", "\\u0000");
        return json.substring(0, chosen[0] + 1) + replacement + json.substring(chosen[1]);
    }

    private byte[] spliceBody(byte[] body) {
        byte[] other = seeds.get(random.nextInt(seeds.size())).body();
        if (other == null || body == null || body.length == 0) {
            return other;
        }
        int cut = random.nextInt(body.length);
        int from = random.nextInt(other.length + 1);
        byte[] out = Arrays.copyOf(body, cut + other.length - from);
        System.arraycopy(other, from, out, cut, other.length - from);
        return out;
    }
}
