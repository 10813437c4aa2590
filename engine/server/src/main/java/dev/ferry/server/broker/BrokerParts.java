package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.store.MessageArrivalListener;
import dev.ferry.store.MessageStore;
import dev.ferry.store.StoreConfig;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * What a broker is built from that stands apart from its own wiring: how its store opens and how it registers with
 * name servers. The broker's public constructor uses {@link #standard()}; a test hands in its own.
 */
record BrokerParts(StoreOpener store, RegistrationFactory registration) {
    /** Opens the broker's store, telling {@code arrivals} of every message dispatched. */
    @FunctionalInterface
    interface StoreOpener {
        MessageStore open(StoreConfig config, Clock clock, ThreadFactory threads, MessageArrivalListener arrivals);
    }

    /** Makes what registers the broker and {@code topics} with its name servers through {@code client}. */
    @FunctionalInterface
    interface RegistrationFactory {
        NameServerRegistration create(BrokerConfig config, TopicConfigTable topics, RemotingClient client,
                                      BodyCodec json);
    }

    BrokerParts {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(registration, "registration");
    }

    /** The store on disk as {@link StoreConfig} says, and registration by the remoting protocol. */
    static BrokerParts standard() {
        return new BrokerParts((config, clock, threads, arrivals) -> MessageStore.builder(config).clock(clock)
                .threadFactory(threads).arrivalListener(arrivals).open(), BrokerRegistration::new);
    }
}
