package dev.ferry.api;

import java.io.Serializable;
import javax.naming.Referenceable;

/**
 * Where an application gets {@link FerryConnection}s. Inside an application server, inject it:
 * {@code @Resource(lookup = "java:app/ferry/cf") FerryConnectionFactory factory}; it is serializable and
 * referenceable so that it can be bound in JNDI. Thread-safe.
 */
public interface FerryConnectionFactory extends Serializable, Referenceable {

    /**
     * A connection; close it when done.
     *
     * @throws FerryException when no connection can be had (the adapter is stopped, the pool is exhausted)
     */
    FerryConnection getConnection();
}
