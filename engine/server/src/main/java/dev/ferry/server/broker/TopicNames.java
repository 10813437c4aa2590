package dev.ferry.server.broker;

import java.util.Set;
import java.util.regex.Pattern;

/** Rules for topic names and the topics the broker reserves for itself. */
final class TopicNames {
    /** The topic whose route producers use for a topic that does not exist yet. */
    static final String AUTO_CREATE_TOPIC = "TBW102";
    static final String RETRY_PREFIX = "%RETRY%";
    static final String DLQ_PREFIX = "%DLQ%";
    static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";
    static final String TRANSACTION_HALF_TOPIC = "RMQ_SYS_TRANS_HALF_TOPIC";
    static final String TRANSACTION_OP_TOPIC = "RMQ_SYS_TRANS_OP_HALF_TOPIC";
    static final int MAX_LENGTH = 127;

    private static final Pattern LEGAL = Pattern.compile("^[%|a-zA-Z0-9_-]+$");
    private static final Set<String> NOT_FOR_SENDING = Set.of(AUTO_CREATE_TOPIC, SCHEDULE_TOPIC,
            TRANSACTION_HALF_TOPIC, TRANSACTION_OP_TOPIC);

    private TopicNames() {
    }

    /** Why {@code topic} is not a valid topic name, or {@code null} when it is. */
    static String problem(String topic) {
        if (topic == null || topic.isBlank()) {
            return "the topic name is blank";
        }
        if (topic.length() > MAX_LENGTH) {
            return "the topic name is " + topic.length() + " characters long; at most " + MAX_LENGTH + " are allowed";
        }
        if (!LEGAL.matcher(topic).matches()) {
            return "the topic name '" + topic + "' contains characters other than letters, digits, '%', '|', '_' "
                    + "and '-'";
        }
        return null;
    }

    /** Why producers may not send to {@code topic}, or {@code null} when they may. */
    static String sendProblem(String topic) {
        String problem = problem(topic);
        if (problem != null) {
            return problem;
        }
        return NOT_FOR_SENDING.contains(topic) ? "the topic " + topic + " is reserved for the broker" : null;
    }

    static String retryTopic(String group) {
        return RETRY_PREFIX + group;
    }

    static String deadLetterTopic(String group) {
        return DLQ_PREFIX + group;
    }

    static boolean isDeadLetterTopic(String topic) {
        return topic.startsWith(DLQ_PREFIX);
    }

    static boolean isRetryTopic(String topic) {
        return topic.startsWith(RETRY_PREFIX);
    }
}
