package dev.ferry.server.broker;

/**
 * The bounds a pull is served within.
 *
 * @param maxPullMessages    the most messages one pull returns, whatever the consumer asks for
 * @param defaultMaxBytes    the most bytes one pull returns when the consumer names no limit
 * @param maxSuspendMillis   the longest a pull is held waiting for messages, whatever the consumer asks for
 */
record PullSettings(int maxPullMessages, int defaultMaxBytes, long maxSuspendMillis) {
    /** Apache's client's default byte budget of a pull. */
    static final int DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
    /** A held pull is answered within this, as the consumer's own timeout allows. */
    static final long MAX_SUSPEND_MILLIS = 30_000;

    PullSettings {
        if (maxPullMessages <= 0 || defaultMaxBytes <= 0 || maxSuspendMillis < 0) {
            throw new IllegalArgumentException("pull settings: maxPullMessages and defaultMaxBytes must be positive, "
                    + "maxSuspendMillis not negative: maxPullMessages=" + maxPullMessages
                    + ", defaultMaxBytes=" + defaultMaxBytes + ", maxSuspendMillis=" + maxSuspendMillis);
        }
    }

    static PullSettings of(BrokerConfig config) {
        return new PullSettings(config.maxPullMessages(), DEFAULT_MAX_BYTES, MAX_SUSPEND_MILLIS);
    }
}
