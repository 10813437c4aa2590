package dev.ferry.remoting.ha;

import java.util.Optional;

/** Why a master refused a connection on its HA port: sent to the peer as one code, then the connection is closed. */
enum HaRefusal {
    /** The bytes were not a hello of this version (an Apache slave's offset report, or anything else). */
    NOT_A_HELLO(1, "what it sent is not a Ferry slave's hello"),
    WRONG_BROKER_NAME(2, "this slave's brokerName is not the master's"),
    BAD_BROKER_ID(3, "a slave's brokerId must be 1 or more"),
    CREDENTIALS_REQUIRED(4, "the master has authentication on and this slave sent no credentials: give it the "
            + "master's innerClientAuthenticationCredentials (or initAuthenticationUser) and authenticationEnabled"),
    BAD_CREDENTIALS(5, "this slave's credentials are not the master's (a different access key or secret)"),
    NO_SLOT(6, "the master serves " + HaStreamServer.MAX_SLAVES + " slaves already"),
    ALREADY_CONNECTED(7, "a slave of this brokerId is connected and reporting, and without authentication a newer "
            + "connection does not replace it: check that no two slaves share a brokerId");

    private final int code;
    private final String reason;

    HaRefusal(int code, String reason) {
        this.code = code;
        this.reason = reason;
    }

    int code() {
        return code;
    }

    /** What a refused slave logs. */
    String reason() {
        return reason;
    }

    static Optional<HaRefusal> of(int code) {
        for (HaRefusal refusal : values()) {
            if (refusal.code == code) {
                return Optional.of(refusal);
            }
        }
        return Optional.empty();
    }
}
