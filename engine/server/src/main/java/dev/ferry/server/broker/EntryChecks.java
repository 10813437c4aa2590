package dev.ferry.server.broker;

import dev.ferry.format.NameRules;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.ResponseCode;

/**
 * The checks every request's fields pass where they enter the broker, before anything changes. A failed check throws
 * a {@link BadRequestException} carrying the response code Apache's broker gives for the same request (or
 * INVALID_PARAMETER where Apache checks nothing and would have created state) and a remark naming the field.
 */
final class EntryChecks {
    private EntryChecks() {
    }

    /** The topic, if valid. */
    static String topic(String field, String value, int code) {
        String problem = NameRules.topicProblem(field, value);
        if (problem != null) {
            throw new BadRequestException(code, problem);
        }
        return value;
    }

    /** The group, if valid. */
    static String group(String field, String value, int code) {
        String problem = NameRules.groupProblem(field, value);
        if (problem != null) {
            throw new BadRequestException(code, problem);
        }
        return value;
    }

    /** The topic, if valid, else INVALID_PARAMETER. */
    static String topic(String field, String value) {
        return topic(field, value, ResponseCode.INVALID_PARAMETER);
    }

    /** The group, if valid, else INVALID_PARAMETER. */
    static String group(String field, String value) {
        return group(field, value, ResponseCode.INVALID_PARAMETER);
    }

    /** A field the request must carry. */
    static <T> T present(String field, T value) {
        if (value == null) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "the request lacks the field " + field);
        }
        return value;
    }

    /** Client ids are {@code ip@instance} strings; anything longer than this is no client's. */
    static final int MAX_CLIENT_ID_LENGTH = 512;

    /** A client id: present, 1 to {@value #MAX_CLIENT_ID_LENGTH} printable characters. */
    static String clientId(String field, String value) {
        present(field, value);
        if (value.isEmpty() || value.length() > MAX_CLIENT_ID_LENGTH
                || value.chars().anyMatch(Character::isISOControl)) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, field + " " + NameRules.shown(value)
                    + " is not a client id: 1 to " + MAX_CLIENT_ID_LENGTH + " printable characters");
        }
        return value;
    }

    /** A queue id within a topic's {@code queues}. */
    static int queueId(String field, int value, int queues, String topic) {
        if (value < 0 || value >= queues) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, field + " " + value + " is illegal: topic "
                    + topic + " has " + queues + " queues");
        }
        return value;
    }
}
