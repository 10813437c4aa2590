package dev.ferry.server.auth;

/** The spelling RocketMQ's tools and files use for an enum constant, read in any case. */
final class Named {
    private Named() {
    }

    static <E extends Enum<E>> E parse(Class<E> type, String text, java.util.function.Function<E, String> name) {
        if (text == null) {
            return null;
        }
        for (E constant : type.getEnumConstants()) {
            if (name.apply(constant).equalsIgnoreCase(text.trim())) {
                return constant;
            }
        }
        return null;
    }
}
