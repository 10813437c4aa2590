package dev.ferry.ra.inbound;

/** How an activation calls its endpoints. */
public enum ConsumeMode {
    /** Up to {@code maxConcurrency} deliveries at once, in any order. */
    CONCURRENTLY,
    /** Each queue's messages one at a time, in queue order (several queues in parallel). */
    ORDERLY
}
