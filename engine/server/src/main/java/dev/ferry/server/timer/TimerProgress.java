package dev.ferry.server.timer;

/**
 * How far firing has durably come ({@code timer/progress.json}), written by the timer thread before and after each
 * batch of deliveries.
 *
 * @param cursorMs        every slot before it has fired and its deliveries are durable
 * @param resumeAt        where the cursor slot's chain is to be walked on from, or -1 to walk it from its head
 * @param scanFrom        where in the commit log deliveries may be that this record does not count yet (a batch in
 *                        flight, or on a slave the master's cursor slot), or -1: recovery finds them there and does not
 *                        deliver them again
 * @param slotStartOffset the commit-log end when the cursor slot began to fire (or when this was written, if it has
 *                        not): a slave's {@code scanFrom} once promoted
 */
public record TimerProgress(long cursorMs, long resumeAt, long scanFrom, long slotStartOffset) {
    TimerProgress withScanFrom(long value) {
        return new TimerProgress(cursorMs, resumeAt, value, slotStartOffset);
    }
}
