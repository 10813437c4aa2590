package dev.ferry.remoting.internal;

import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.TlsConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.File;
import java.nio.file.Path;
import javax.net.ssl.SSLException;

/**
 * Builds Netty TLS contexts from the PEM files a {@link TlsConfig} names: with the JDK's TLS, or with BoringSSL where
 * an application has put netty-tcnative on the class path and its native library loads. Ferry carries no native
 * library: BoringSSL saved its broker no CPU it could measure (docs/benchmarks.md, "BoringSSL for the broker's TLS").
 */
public final class TlsContexts {
    private TlsContexts() {
    }

    /** Netty's own choice, made here so that the log names what really encrypts. */
    public static SslProvider provider() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /** What encrypts, for the logs: "BoringSSL" (the library's own name) or "the JDK". */
    public static String providerName() {
        return provider() == SslProvider.OPENSSL ? OpenSsl.versionString() : "the JDK";
    }

    /**
     * @throws IllegalArgumentException naming the config key and the file of a missing or bad certificate or key
     */
    public static SslContext forServer(TlsConfig tls) {
        PemFiles.checkServer(tls);
        try {
            SslContextBuilder builder = SslContextBuilder.forServer(file(tls.certificateChain()),
                    file(tls.privateKey())).sslProvider(provider());
            if (tls.needClientAuth()) {
                builder.trustManager(file(tls.trustCertificates())).clientAuth(ClientAuth.REQUIRE);
            }
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new RemotingException("cannot set up TLS from certificate " + tls.certificateChain() + " and key "
                    + tls.privateKey() + ": " + e.getMessage(), e);
        }
    }

    public static SslContext forClient(TlsConfig tls) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(provider());
            if (tls.verifyHostname()) {
                builder.endpointIdentificationAlgorithm("HTTPS");
            }
            if (tls.trustCertificates() != null) {
                builder.trustManager(file(tls.trustCertificates()));
            }
            if (tls.certificateChain() != null) {
                builder.keyManager(file(tls.certificateChain()), file(tls.privateKey()));
            }
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new RemotingException("cannot set up TLS from trusted certificates " + tls.trustCertificates()
                    + ": " + e.getMessage(), e);
        }
    }

    private static File file(Path path) {
        if (!path.toFile().canRead()) {
            throw new IllegalArgumentException("cannot read " + path);
        }
        return path.toFile();
    }
}
