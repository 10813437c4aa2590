package dev.ferry.strategies.filter.sql;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * A seeded generator of SQL92 selectors shaped by the grammar (many valid, some rejected by the
 * compile-time checks), of malformed variants, and of property sets that exercise type conversion.
 */
final class SqlCorpus {

    private static final List<String> PROPERTIES = List.of("a", "b", "c", "TAGS", "price");
    private static final List<String> VALUES = List.of("1", "0", "-5", "42", "2.5", "-0.5", "1e3", "abc", "", "true",
            "false", "TRUE", " 7", "3000000000", "NaN", "x'y", "hello world", "hz", "9223372036854775808", "+3");
    private static final List<String> STRINGS = List.of("", "a", "abc", "1", "2.5", "true", "x'y", "hello", "hz", "42");
    private static final List<String> NOISE = List.of("(", ")", "AND", "OR", "NOT", "=", "<>", "'", "!", "==", ",",
            "IN", "BETWEEN", "IS", "NULL", "-", "+", "1", "x", "/*", "--\n", "&&", "#");

    private final Random random;

    SqlCorpus(long seed) {
        this.random = new Random(seed);
    }

    String condition(int depth) {
        int choice = random.nextInt(depth <= 0 ? 9 : 13);
        return switch (choice) {
            case 0, 1 -> operand(depth) + " " + pick("=", "<>", ">", ">=", "<", "<=") + " " + operand(depth);
            case 2 -> property() + not() + keyword("between") + " " + operand(0) + " " + keyword("and") + " " + operand(0);
            case 3 -> property() + not() + keyword("in") + " (" + inList() + ")";
            case 4 -> operand(depth) + " " + keyword("is") + not() + " " + keyword("null");
            case 5 -> operand(depth) + not() + keyword(pick("contains", "startswith", "endswith")) + " " + string();
            case 6 -> pick(keyword("true"), keyword("false"), property(), keyword("null"));
            case 7 -> property() + " = " + string();
            case 8 -> property() + " " + pick(">", "<", ">=", "<=") + " " + number();
            case 9 -> keyword("not") + " " + condition(depth - 1);
            case 10 -> "(" + condition(depth - 1) + ") " + keyword(pick("and", "or")) + " (" + condition(depth - 1) + ")";
            case 11 -> condition(depth - 1) + " " + keyword(pick("and", "or")) + " " + condition(depth - 1);
            default -> "(" + condition(depth - 1) + ")" + (random.nextBoolean() ? " -- note\n" : " /* note */");
        };
    }

    /** A variant that is likely, not certain, to be malformed: a token dropped or added, or the text cut. */
    String malformed(String valid) {
        String[] words = valid.split(" ");
        int at = random.nextInt(words.length);
        return switch (random.nextInt(3)) {
            case 0 -> {
                words[at] = "";
                yield String.join(" ", words);
            }
            case 1 -> {
                words[at] = random.nextBoolean() ? pick(NOISE) + " " + words[at] : words[at] + pick(NOISE);
                yield String.join(" ", words);
            }
            default -> valid.substring(0, random.nextInt(valid.length() + 1));
        };
    }

    Map<String, String> properties() {
        Map<String, String> properties = new HashMap<>();
        for (String name : PROPERTIES) {
            if (random.nextInt(4) != 0) {
                properties.put(name, pick(VALUES));
            }
        }
        return properties;
    }

    private String operand(int depth) {
        return switch (random.nextInt(depth <= 0 ? 7 : 8)) {
            case 0, 1, 2 -> property();
            case 3 -> number();
            case 4 -> string();
            case 5 -> random.nextInt(4) == 0 ? keyword(pick("true", "false")) : number();
            case 6 -> "- " + pick(property(), number());
            default -> "(" + operand(depth - 1) + ")";
        };
    }

    private String number() {
        return switch (random.nextInt(6)) {
            case 0 -> String.valueOf(random.nextInt(10));
            case 1 -> String.valueOf(random.nextInt(100) - 20).replace("-", "- ");
            case 2 -> pick("3000000000", "2147483648", "9223372036854775807", "5L", "42l");
            case 3 -> (1 + random.nextInt(9)) + "." + random.nextInt(100);
            case 4 -> pick("2.5e3", "1E-2", "7.", "3e2", "1.5E+1", "1e-400", "1e400");
            default -> String.valueOf(1 + random.nextInt(50));
        };
    }

    private String string() {
        String value = pick(STRINGS);
        return "'" + value.replace("'", "''") + "'";
    }

    private String inList() {
        StringBuilder list = new StringBuilder(string());
        for (int i = random.nextInt(4); i > 0; i--) {
            list.append(", ").append(string());
        }
        return list.toString();
    }

    private String property() {
        return pick(PROPERTIES);
    }

    private String not() {
        return random.nextInt(3) == 0 ? " " + keyword("not") + " " : " ";
    }

    /** Keywords in random case: they are case-insensitive. */
    private String keyword(String word) {
        return switch (random.nextInt(3)) {
            case 0 -> word.toUpperCase(Locale.ROOT);
            case 1 -> word;
            default -> Character.toUpperCase(word.charAt(0)) + word.substring(1);
        };
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }

    private String pick(List<String> options) {
        return options.get(random.nextInt(options.size()));
    }
}
