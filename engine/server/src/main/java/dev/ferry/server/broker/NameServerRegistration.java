package dev.ferry.server.broker;

import java.util.function.BiConsumer;

/** The broker's registration with its name servers, as the broker's lifecycle and duties use it. */
interface NameServerRegistration {
    /** {@code listener} gets the master's address and HA address from each answer that names them (slaves). */
    void whenMasterNamed(BiConsumer<String, String> listener);

    /** Where clients reach the broker, and where slaves would replicate from (empty when nowhere). */
    void addresses(String address, String haAddress);

    /** Registers the broker and its topics with every name server; returns how many accepted. */
    int registerAll();

    /** Tells every name server the broker is gone. */
    void unregisterAll();
}
