package dev.ferry.liberty.apps;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.concurrent.Semaphore;

/**
 * How many messages {@link OnceMdb} may still process, granted by the test: each delivery takes a permit inside
 * its transaction (after its offset was claimed) and gives it back if that transaction does not commit, so the
 * permits granted are exactly the rows the application may commit. A delivery without a permit waits inside its
 * transaction, which is where the test kills the server. Nothing is granted when the application starts, so a
 * restarted server processes nothing the test has not seen. When the application stops, the consumer interrupts
 * the deliveries still waiting, and their transactions roll back.
 */
public final class OnceAllowance {
    private static final Semaphore PERMITS = new Semaphore(0);

    private OnceAllowance() {
    }

    static void grant(int messages) {
        PERMITS.release(messages);
    }

    /** Waits for a permit inside the caller's transaction; the permit comes back if the transaction rolls back. */
    static void take(TransactionSynchronizationRegistry transaction) throws InterruptedException {
        PERMITS.acquire();
        returnedUnlessCommitted(transaction);
    }

    /** Takes a permit if one is free now, as {@link #take} does; {@code false} when none is. */
    static boolean tryTake(TransactionSynchronizationRegistry transaction) {
        if (!PERMITS.tryAcquire()) {
            return false;
        }
        returnedUnlessCommitted(transaction);
        return true;
    }

    private static void returnedUnlessCommitted(TransactionSynchronizationRegistry transaction) {
        transaction.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status != Status.STATUS_COMMITTED) {
                    PERMITS.release();
                }
            }
        });
    }
}
