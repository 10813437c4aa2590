package dev.ferry.server.broker;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.ResponseCode;
import java.util.HashMap;
import java.util.Map;

/**
 * A message a client sends to a retry topic itself (when CONSUMER_SEND_MSG_BACK failed): the client has already counted
 * this attempt, so only a count above the group's limit sends it to the group's dead-letter topic, without its delay
 * level; there it goes no further along the route.
 */
final class DeadLetterStep implements SendStep {
    private final RetryRouting retries;
    private final TopicCounters counters;

    DeadLetterStep(RetryRouting retries, TopicCounters counters) {
        this.retries = retries;
        this.counters = counters;
    }

    @Override
    public Routed apply(SendingMessage message) {
        if (!SystemTopics.isRetryTopic(message.topic())) {
            return Routed.next(message);
        }
        String group = SystemTopics.groupOf(message.topic());
        if (message.reconsumeTimes() <= retries.maxReconsumeTimes(message.maxReconsumeTimes(), group)) {
            return Routed.next(message);
        }
        String dlq = SystemTopics.deadLetterTopic(group);
        String topic = retries.deadLetterTopic(group).orElseThrow(() -> new BadRequestException(
                ResponseCode.SYSTEM_ERROR, "topic[" + dlq + "] not exist: " + retries.refusal(dlq)));
        counters.deadLettered(message.topic(), group);
        Map<String, String> withoutDelay = new HashMap<>();
        withoutDelay.put(MessageProperties.DELAY, null);
        return Routed.last(message.withProperties(withoutDelay).to(topic, 0));
    }
}
