package dev.ferry.bench.faults;

import java.io.IOException;

/**
 * One thing the harness does to a process it did not write, a consumer's kill or restart, an external consumer's
 * start, a client's stop: such code may throw anything.
 */
@FunctionalInterface
interface Step {
    void run() throws Exception;

    /**
     * Runs it, passing on what the harness handles and telling any other failure as an IOException that begins with
     * {@code what}.
     */
    default void perform(String what) throws IOException, InterruptedException {
        try {
            run();
        } catch (IOException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(what + ": " + e.getMessage(), e);
        }
    }
}
