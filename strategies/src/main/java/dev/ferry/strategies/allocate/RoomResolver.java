package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells which machine room a broker or a consumer is in, by the first group of a regular expression
 * found in the broker name or the client id. Configuration instead of code, so the nearby strategy can
 * be set up from a properties file.
 *
 * @param brokerRoom applied to broker names; group 1 is the room
 * @param clientRoom applied to client ids; group 1 is the room
 */
record RoomResolver(Pattern brokerRoom, Pattern clientRoom) {

    /**
     * @param queue the queue
     * @return the room of the queue's broker
     * @throws IllegalArgumentException if the pattern does not find a room
     */
    String roomOf(MessageQueue queue) {
        return room(brokerRoom, queue.brokerName())
                .orElseThrow(() -> new IllegalArgumentException("Machine room unknown for " + queue
                        + ": broker name does not match " + brokerRoom));
    }

    /**
     * @param clientId the client id
     * @return the room of the client
     * @throws IllegalArgumentException if the pattern does not find a room
     */
    String roomOf(String clientId) {
        return room(clientRoom, clientId)
                .orElseThrow(() -> new IllegalArgumentException("Machine room unknown for consumer " + clientId
                        + ": client id does not match " + clientRoom));
    }

    private static Optional<String> room(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find() || matcher.groupCount() < 1) {
            return Optional.empty();
        }
        return Optional.ofNullable(matcher.group(1)).filter(room -> !room.isEmpty());
    }
}
