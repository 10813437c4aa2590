package dev.ferry.store;

/**
 * What opening the store found and repaired.
 *
 * @param cleanShutdown       the previous run closed the store (no abort marker was left)
 * @param validEndOffset      commit-log offset just past the last verified entry
 * @param truncatedBytes      bytes of torn or damaged tail cut off the commit log
 * @param redispatchedMessages messages re-dispatched to consume queues and index
 * @param problem             why the scan stopped before the end of the data, empty when it did not
 */
public record RecoveryReport(boolean cleanShutdown, long validEndOffset, long truncatedBytes,
                             int redispatchedMessages, String problem) {
}
