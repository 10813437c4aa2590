package dev.ferry.server.broker;

/**
 * What a send is checked and stamped against, as the broker's settings are at the moment it arrives (an operator's
 * updateBrokerConfig changes the last three while the broker runs).
 *
 * @param clusterName           the cluster stamped on every message ({@code CLUSTER})
 * @param autoCreateTopicEnable whether a send may create its topic from the default topic
 * @param defaultTopicQueueNums the queues of a topic so created, unless the producer asks for fewer
 * @param maxMessageSize        the largest body a message may have, in bytes
 */
record SendSettings(String clusterName, boolean autoCreateTopicEnable, int defaultTopicQueueNums,
                    int maxMessageSize) {

    static SendSettings of(BrokerConfig config, BrokerSettings.Values now) {
        return new SendSettings(config.clusterName(), now.autoCreateTopicEnable(), now.defaultTopicQueueNums(),
                now.maxMessageSize());
    }
}
