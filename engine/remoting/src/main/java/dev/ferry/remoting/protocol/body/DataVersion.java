package dev.ferry.remoting.protocol.body;

/**
 * A version stamp of a broker's metadata: name servers compare it to skip re-reading topic
 * configs that did not change.
 */
public record DataVersion(long stateVersion, long timestamp, long counter) {

    /** The next version after a change made at {@code now}. */
    public DataVersion next(long now) {
        return new DataVersion(stateVersion, now, counter + 1);
    }
}
