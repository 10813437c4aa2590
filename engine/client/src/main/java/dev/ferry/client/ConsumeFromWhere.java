package dev.ferry.client;

/** Where a consumer group starts reading a queue it has no committed offset for. */
public enum ConsumeFromWhere {
    /** At the queue's end: only messages stored from now on. */
    LAST_OFFSET("CONSUME_FROM_LAST_OFFSET"),
    /** At the queue's first message still stored. */
    FIRST_OFFSET("CONSUME_FROM_FIRST_OFFSET"),
    /** At the first message stored at or after the consumer's configured timestamp. */
    TIMESTAMP("CONSUME_FROM_TIMESTAMP");

    private final String wireName;

    ConsumeFromWhere(String wireName) {
        this.wireName = wireName;
    }

    /** The name heartbeats carry. */
    String wireName() {
        return wireName;
    }
}
