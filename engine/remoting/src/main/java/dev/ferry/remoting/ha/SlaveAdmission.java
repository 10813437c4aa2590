package dev.ferry.remoting.ha;

import dev.ferry.remoting.Credentials;
import java.util.Optional;

/**
 * Whether a hello comes from a slave of this master: with credentials (authentication on) it must be signed with
 * them over this connection's nonce, checked first so that a peer without them learns nothing else; then it must name
 * the master's broker group and a slave's id.
 */
final class SlaveAdmission {
    private final String brokerName;
    private final Optional<Credentials> credentials;

    SlaveAdmission(HaIdentity master) {
        this.brokerName = master.brokerName();
        this.credentials = master.credentials();
    }

    boolean credentialsRequired() {
        return credentials.isPresent();
    }

    /** Why {@code hello}, answering {@code nonce}, is refused; empty when it is a slave's. */
    Optional<HaRefusal> check(HaHello hello, byte[] nonce) {
        if (credentials.isPresent()) {
            if (hello.signature().length == 0) {
                return Optional.of(HaRefusal.CREDENTIALS_REQUIRED);
            }
            if (!hello.signedBy(credentials.get(), nonce)) {
                return Optional.of(HaRefusal.BAD_CREDENTIALS);
            }
        }
        if (!hello.brokerName().equals(brokerName)) {
            return Optional.of(HaRefusal.WRONG_BROKER_NAME);
        }
        if (hello.brokerId() <= 0) {
            return Optional.of(HaRefusal.BAD_BROKER_ID);
        }
        return Optional.empty();
    }
}
