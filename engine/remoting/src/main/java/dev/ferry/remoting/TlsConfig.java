package dev.ferry.remoting;

import java.nio.file.Path;
import java.util.Objects;

/**
 * TLS settings for a server or a client. Key and trust material come from PKCS#12 (or JKS)
 * key stores, which the JDK's {@code keytool} creates.
 *
 * @param mode       whether TLS is off, offered, or required
 * @param keyStore   the server's key and certificate; unused by clients unless they present one
 * @param keyStorePassword password of {@code keyStore}
 * @param trustStore certificates a client trusts; {@code null} means the JDK's default trust
 * @param trustStorePassword password of {@code trustStore}
 */
public record TlsConfig(Mode mode, Path keyStore, String keyStorePassword, Path trustStore,
                        String trustStorePassword) {

    /** How a server treats TLS; a client uses TLS unless the mode is {@link #DISABLED}. */
    public enum Mode {
        /** Plain TCP only. */
        DISABLED,
        /** A server accepts both TLS and plain connections, told apart by their first byte. */
        PERMISSIVE,
        /** TLS only. */
        ENFORCING
    }

    public static final TlsConfig DISABLED = new TlsConfig(Mode.DISABLED, null, null, null, null);

    public TlsConfig {
        Objects.requireNonNull(mode, "mode");
    }

    /** A server that requires TLS and presents the key in {@code keyStore}. */
    public static TlsConfig server(Mode mode, Path keyStore, String password) {
        if (mode != Mode.DISABLED) {
            Objects.requireNonNull(keyStore, "a TLS server needs a key store");
        }
        return new TlsConfig(mode, keyStore, password, null, null);
    }

    /** A client that trusts the certificates in {@code trustStore} ({@code null}: JDK default). */
    public static TlsConfig client(Path trustStore, String password) {
        return new TlsConfig(Mode.ENFORCING, null, null, trustStore, password);
    }

    public boolean enabled() {
        return mode != Mode.DISABLED;
    }
}
