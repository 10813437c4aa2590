package dev.ferry.remoting;

import dev.ferry.format.ConfigProblems;
import java.nio.file.Path;
import java.util.Objects;

/**
 * TLS settings of a server or a client, from PEM files: a certificate chain, its private key (unencrypted PKCS#8,
 * as {@code openssl pkcs8 -nocrypt} writes it) and trusted certificates.
 *
 * @param mode              whether TLS is off, offered or required (a client uses TLS unless {@link Mode#DISABLED})
 * @param certificateChain  the certificate (chain) this end presents; a server's is required, a client presents one
 *                          only for mutual TLS
 * @param privateKey        the key of {@code certificateChain}
 * @param trustCertificates certificates this end trusts: a client's for the server, a server's for clients'
 *                          certificates; {@code null} lets a client trust the JDK's authorities
 * @param needClientAuth    a server requires clients to present a certificate {@code trustCertificates} vouches for
 * @param verifyHostname    a client checks that the server's certificate names the host it connected to
 */
public record TlsConfig(Mode mode, Path certificateChain, Path privateKey, Path trustCertificates,
                        boolean needClientAuth, boolean verifyHostname) {
    private static final ConfigProblems CHECK = ConfigProblems.FAIL_FAST;

    /** How a server treats TLS (Apache's {@code tls.server.mode}). */
    public enum Mode {
        /** Plain TCP only. */
        DISABLED,
        /** A server accepts both TLS and plain connections, told apart by their first bytes. */
        PERMISSIVE,
        /** TLS only: a connection that does not start a TLS handshake is closed before anything of it is read. */
        ENFORCING;

        /** The mode named {@code text}, in any case. */
        public static Mode parse(String text) {
            for (Mode mode : values()) {
                if (mode.name().equalsIgnoreCase(text.trim())) {
                    return mode;
                }
            }
            throw new IllegalArgumentException("tlsMode = " + text + ": expected disabled, permissive or enforcing");
        }
    }

    public static final TlsConfig DISABLED = new TlsConfig(Mode.DISABLED, null, null, null, false, true);

    public TlsConfig {
        Objects.requireNonNull(mode, "mode");
        CHECK.require((certificateChain == null) == (privateKey == null), "tlsKeyPath", privateKey,
                "a certificate and its key are given together");
        CHECK.require(!needClientAuth || trustCertificates != null, "tlsTrustCertPath", trustCertificates,
                "requiring client certificates needs the certificates to trust");
    }

    /** A server in {@code mode} presenting {@code certificateChain}. */
    public static TlsConfig server(Mode mode, Path certificateChain, Path privateKey) {
        if (mode != Mode.DISABLED) {
            CHECK.require(certificateChain != null, "tlsCertPath", null, "a TLS server needs a certificate");
        }
        return new TlsConfig(mode, certificateChain, privateKey, null, false, true);
    }

    /** A client that trusts the certificates in {@code trustCertificates} ({@code null}: the JDK's authorities). */
    public static TlsConfig client(Path trustCertificates) {
        return new TlsConfig(Mode.ENFORCING, null, null, trustCertificates, false, true);
    }

    /** This server requiring a certificate from every client, one that {@code trusted} vouches for. */
    public TlsConfig requiringClientCertificates(Path trusted) {
        return new TlsConfig(mode, certificateChain, privateKey, trusted, true, verifyHostname);
    }

    /** This client presenting {@code chain} (mutual TLS). */
    public TlsConfig presenting(Path chain, Path key) {
        return new TlsConfig(mode, chain, key, trustCertificates, needClientAuth, verifyHostname);
    }

    /** This client without the host-name check (a certificate without the server's address as subject name). */
    public TlsConfig withoutHostnameVerification() {
        return new TlsConfig(mode, certificateChain, privateKey, trustCertificates, needClientAuth, false);
    }

    public boolean enabled() {
        return mode != Mode.DISABLED;
    }
}
