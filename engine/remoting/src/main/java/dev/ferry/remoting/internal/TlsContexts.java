package dev.ferry.remoting.internal;

import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.TlsConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.File;
import java.nio.file.Path;
import javax.net.ssl.SSLException;

/** Builds Netty TLS contexts from the PEM files a {@link TlsConfig} names. */
public final class TlsContexts {
    private TlsContexts() {
    }

    public static SslContext forServer(TlsConfig tls) {
        try {
            SslContextBuilder builder = SslContextBuilder.forServer(file(tls.certificateChain()),
                    file(tls.privateKey()));
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
            SslContextBuilder builder = SslContextBuilder.forClient();
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
