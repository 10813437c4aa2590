package dev.ferry.remoting.ha;

/**
 * What a master's HA port tells the broker about its slaves, from the HA event loop. A slave counts once it has
 * reported; {@code link} tells the connections apart.
 */
public interface HaSlaveListener {
    /**
     * The slave on {@code link} has the commit log up to {@code offset} (never beyond what was sent to it: a report
     * past that proves nothing).
     */
    void acknowledged(Object link, long offset);

    /** The slave on {@code link} is gone (or never reported). */
    void slaveGone(Object link);
}
