package dev.ferry.remoting.ha;

import java.time.Duration;
import java.util.Objects;

/**
 * What a master's HA port allows peers that have not yet proved they are slaves: each must complete the handshake
 * within {@code handshakeTimeout}, and at most {@code maxPendingHandshakes} may be at it at once (a new one closes the
 * oldest), so peers that never say hello hold no slave slot and cannot keep the real slave out.
 *
 * @param handshakeTimeout     how long a connection may take to send its hello ({@code haHandshakeTimeout})
 * @param maxPendingHandshakes connections still to say hello at once ({@code haMaxPendingHandshakes})
 */
public record HaLimits(Duration handshakeTimeout, int maxPendingHandshakes) {
    public static final Duration MIN_TIMEOUT = Duration.ofMillis(100);
    public static final Duration MAX_TIMEOUT = Duration.ofSeconds(60);
    public static final int MAX_PENDING = 1024;
    public static final HaLimits DEFAULTS = new HaLimits(Duration.ofSeconds(5), 64);

    public HaLimits {
        Objects.requireNonNull(handshakeTimeout, "haHandshakeTimeout");
        if (handshakeTimeout.compareTo(MIN_TIMEOUT) < 0 || handshakeTimeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException("haHandshakeTimeout = " + handshakeTimeout + ": must be within "
                    + MIN_TIMEOUT.toMillis() + "ms.." + MAX_TIMEOUT.toSeconds() + "s");
        }
        if (maxPendingHandshakes < 1 || maxPendingHandshakes > MAX_PENDING) {
            throw new IllegalArgumentException("haMaxPendingHandshakes = " + maxPendingHandshakes
                    + ": must be within 1.." + MAX_PENDING);
        }
    }
}
