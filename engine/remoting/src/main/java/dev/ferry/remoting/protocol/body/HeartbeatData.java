package dev.ferry.remoting.protocol.body;

import java.util.Set;

/** Body of HEART_BEAT: who the client is and which producer and consumer groups it has. */
public record HeartbeatData(String clientID, Set<ProducerData> producerDataSet, Set<ConsumerData> consumerDataSet,
                            int heartbeatFingerprint, boolean withoutSub) {

    public HeartbeatData {
        producerDataSet = producerDataSet == null ? Set.of() : Set.copyOf(producerDataSet);
        consumerDataSet = consumerDataSet == null ? Set.of() : Set.copyOf(consumerDataSet);
    }
}
