package dev.ferry.liberty.support;

import org.jboss.arquillian.container.test.api.ContainerController;

/** Arquillian container chores of the tests that start and kill their own servers. */
public final class Containers {
    private Containers() {
    }

    /**
     * Stops {@code container}, if it runs. A server the test killed refuses its management connection, which counts
     * as stopped. A test that timed out is interrupted, which would cut the stop short and leave a running server
     * that the next test cannot start: the stop runs uninterrupted, and the interrupt is kept for the caller.
     */
    public static void stopQuietly(ContainerController controller, String container) {
        boolean interrupted = Thread.interrupted();
        try {
            controller.stop(container);
        } catch (Exception e) {
            // killed, or never started: nothing is left running
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
