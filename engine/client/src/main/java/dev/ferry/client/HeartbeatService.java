package dev.ferry.client;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.HeartbeatData;
import dev.ferry.remoting.protocol.body.ProducerData;
import dev.ferry.remoting.protocol.header.UnregisterClientRequestHeader;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Collectors;

/**
 * Tells every known broker which producer and consumer groups this client runs: HEART_BEAT every 30 s
 * (and at once when a group starts or its subscriptions change), UNREGISTER_CLIENT when a group stops.
 * Also the registry of the client's groups. Thread-safe; sends run on the caller's thread.
 */
final class HeartbeatService {
    private static final System.Logger LOG = System.getLogger(HeartbeatService.class.getName());

    private final String clientId;
    private final BrokerCalls calls;
    private final Routes routes;
    private final BodyCodec codec;
    private final Duration timeout;
    private final Set<String> producerGroups = ConcurrentHashMap.newKeySet();
    private final Map<String, GroupMember> consumers = new ConcurrentHashMap<>();
    /** Brokers that got at least one heartbeat (or are getting one now). */
    private final Set<String> greeted = ConcurrentHashMap.newKeySet();

    HeartbeatService(String clientId, BrokerCalls calls, Routes routes, BodyCodec codec, Duration timeout) {
        this.clientId = clientId;
        this.calls = calls;
        this.routes = routes;
        this.codec = codec;
        this.timeout = timeout;
    }

    void addProducer(String group) {
        if (!producerGroups.add(group)) {
            throw new IllegalStateException("producer group '" + group + "' already runs in client " + clientId);
        }
    }

    void addConsumer(GroupMember member) {
        if (consumers.putIfAbsent(member.group(), member) != null) {
            throw new IllegalStateException("consumer group '" + member.group() + "' already runs in client "
                    + clientId);
        }
    }

    /** The consumers of this client, as they are now. */
    java.util.Collection<GroupMember> consumers() {
        return java.util.List.copyOf(consumers.values());
    }

    Optional<GroupMember> consumer(String group) {
        return Optional.ofNullable(consumers.get(group));
    }

    /** Forgets a producer group and tells every broker. */
    void removeProducer(String group) {
        if (producerGroups.remove(group)) {
            unregister(new UnregisterClientRequestHeader(clientId, group, null));
        }
    }

    /** Forgets a consumer group and tells every broker. */
    void removeConsumer(String group) {
        if (consumers.remove(group) != null) {
            unregister(new UnregisterClientRequestHeader(clientId, null, group));
        }
    }

    /**
     * Makes sure {@code broker} knows this client's groups soon: a broker a producer just sent to gets a
     * heartbeat at once (on {@code executor}) instead of at the next period, so that it can check back the
     * producer's transactions.
     */
    void greet(String broker, Executor executor) {
        if (!greeted.contains(broker)) {
            try {
                executor.execute(this::sendToAllBrokers);
            } catch (RejectedExecutionException e) {
                // closing
            }
        }
    }

    /**
     * Completes once every one of {@code brokers} has had a heartbeat of this client: at once when each had one,
     * otherwise after a round to all brokers on {@code executor}. A requester waits for it, so that the broker a reply
     * reaches knows its connection.
     */
    CompletableFuture<Void> greeted(Collection<String> brokers, Executor executor) {
        if (greeted.containsAll(brokers)) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            return CompletableFuture.runAsync(this::sendToAllBrokers, executor);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Sends a heartbeat to every broker of every cached route; failures are logged. */
    void sendToAllBrokers() {
        if (producerGroups.isEmpty() && consumers.isEmpty()) {
            return;
        }
        Set<ProducerData> producers = producerGroups.stream().map(ProducerData::new).collect(Collectors.toSet());
        Set<ConsumerData> consumerData = consumers.values().stream().map(GroupMember::consumerData)
                .collect(Collectors.toSet());
        byte[] body = codec.encode(new HeartbeatData(clientId, producers, consumerData, 0, false));
        for (String broker : routes.brokerAddresses()) {
            try {
                RemotingCommand response = calls.call(broker,
                        RemotingCommand.request(RequestCode.HEART_BEAT).body(body).build(), timeout);
                greeted.add(broker);
                if (response.code() != ResponseCode.SUCCESS) {
                    LOG.log(Level.WARNING, "broker " + broker + " refused the heartbeat of " + clientId + ": "
                            + response.code() + " " + response.remark());
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "heartbeat of " + clientId + " to " + broker + " failed: " + e.getMessage());
            }
        }
    }

    private void unregister(UnregisterClientRequestHeader header) {
        for (String broker : routes.brokerAddresses()) {
            try {
                calls.call(broker, RemotingCommand.request(RequestCode.UNREGISTER_CLIENT, header).build(),
                        timeout);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "unregistering " + clientId + " from " + broker + " failed: " + e.getMessage());
            }
        }
    }
}
