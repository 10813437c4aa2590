package dev.ferry.remoting.ha;

import dev.ferry.remoting.Credentials;
import java.util.Objects;
import java.util.Optional;

/**
 * Who a broker is on the HA port: a slave names itself with these in its hello; a master admits only slaves of its
 * own broker name and, when it has credentials (authentication on), only those proving they hold the same ones.
 * {@link #toString()} never shows the secret.
 *
 * @param brokerName  the broker group's name, which master and slaves share
 * @param brokerId    the broker's id in its group: 0 for the master, 1 and up for slaves
 * @param credentials the broker's own credentials (the ones it signs its requests with), or empty when
 *                    authentication is off
 */
public record HaIdentity(String brokerName, long brokerId, Optional<Credentials> credentials) {

    public HaIdentity {
        Objects.requireNonNull(brokerName, "brokerName");
        Objects.requireNonNull(credentials, "credentials");
        if (brokerName.isEmpty() || HaHello.utf8(brokerName).length > HaHello.MAX_NAME_BYTES) {
            throw new IllegalArgumentException("brokerName = " + brokerName + ": must be 1.." + HaHello.MAX_NAME_BYTES
                    + " bytes");
        }
        credentials.ifPresent(c -> {
            if (HaHello.utf8(c.accessKey()).length > HaHello.MAX_KEY_BYTES) {
                throw new IllegalArgumentException("accessKey = " + c.accessKey() + ": at most "
                        + HaHello.MAX_KEY_BYTES + " bytes on the HA port");
            }
        });
    }
}
