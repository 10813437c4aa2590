package dev.ferry.remoting;

/**
 * Learns of connections opening, closing, going idle and failing. Events arrive one at a time,
 * in order, on a housekeeping thread (never an event loop), so a listener may take its time.
 */
@FunctionalInterface
public interface ConnectionListener {

    void onEvent(ConnectionEvent event);
}
