package dev.ferry.remoting.ha;

/** What a master's HA port tells the broker about its slaves, from the HA event loop. */
public interface HaSlaveListener {
    void slaveConnected();

    /** A slave reported that its commit log ends at {@code offset}. */
    void acknowledged(long offset);

    void slaveDisconnected();
}
