package dev.ferry.server.broker;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** A broker's part in its broker group, under Apache's {@code brokerRole} names. */
public enum BrokerRole {
    /** Acknowledges a send once it is stored here; slaves catch up afterwards. */
    ASYNC_MASTER,
    /** Acknowledges a send once a slave has it too. */
    SYNC_MASTER,
    /** Copies its master (brokerId 1 and up). */
    SLAVE;

    /** The role named {@code value} (any case); a clear error naming the choices otherwise. */
    public static BrokerRole parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("brokerRole = " + value + ": expected one of "
                    + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", ")));
        }
    }

    public boolean isMaster() {
        return this != SLAVE;
    }
}
