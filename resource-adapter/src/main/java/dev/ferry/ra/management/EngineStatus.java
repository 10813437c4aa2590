package dev.ferry.ra.management;

import dev.ferry.server.embedded.EmbeddedEngine;

/** The management view of the embedded engine, read from it when asked. */
public final class EngineStatus implements EngineStatusMBean {
    private final EmbeddedEngine engine;

    public EngineStatus(EmbeddedEngine engine) {
        this.engine = engine;
    }

    @Override
    public String getNameServerAddress() {
        return engine.nameServerAddress();
    }

    @Override
    public int getTopics() {
        return engine.status().topics();
    }

    @Override
    public int getConsumerGroups() {
        return engine.status().consumerGroups();
    }

    @Override
    public long getMessagesIn() {
        return engine.status().messagesIn();
    }

    @Override
    public long getMessagesOut() {
        return engine.status().messagesOut();
    }

    @Override
    public int getProducerConnections() {
        return engine.status().producerConnections();
    }

    @Override
    public int getConsumerConnections() {
        return engine.status().consumerConnections();
    }

    @Override
    public long getConsumerLag() {
        return engine.status().consumerLag();
    }

    @Override
    public long getConsumerInFlight() {
        return engine.status().consumerInFlight();
    }

    @Override
    public long getFlushBehindBytes() {
        return engine.status().flushBehindBytes();
    }

    @Override
    public long getDispatchBehindBytes() {
        return engine.status().dispatchBehindBytes();
    }
}
