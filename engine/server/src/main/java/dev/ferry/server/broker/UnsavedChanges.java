package dev.ferry.server.broker;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether a table changed since it was last written. Writers record changes on any thread; the
 * broker's scheduler saves at most once per round. A save that fails leaves the changes recorded, so
 * the next round writes them again instead of losing them.
 */
final class UnsavedChanges {

    private final AtomicBoolean pending = new AtomicBoolean();

    void record() {
        pending.set(true);
    }

    /** Runs {@code save} if changes were recorded since the last successful save. */
    void saveIfAny(Runnable save) {
        if (pending.getAndSet(false)) {
            try {
                save.run();
            } catch (RuntimeException e) {
                pending.set(true);
                throw e;
            }
        }
    }
}
