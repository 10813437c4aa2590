package dev.ferry.remoting.internal;

import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.TlsConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/** Builds Netty TLS contexts from {@link TlsConfig} key stores. */
public final class TlsContexts {
    private TlsContexts() {
    }

    public static SslContext forServer(TlsConfig tls) {
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(tls.keyStore(), tls.keyStorePassword()), password(tls.keyStorePassword()));
            return SslContextBuilder.forServer(kmf).build();
        } catch (GeneralSecurityException | IOException e) {
            throw new RemotingException("cannot set up TLS from key store " + tls.keyStore() + ": " + e.getMessage(), e);
        }
    }

    public static SslContext forClient(TlsConfig tls) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient().endpointIdentificationAlgorithm("HTTPS");
            if (tls.trustStore() != null) {
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(load(tls.trustStore(), tls.trustStorePassword()));
                builder.trustManager(tmf);
            }
            return builder.build();
        } catch (GeneralSecurityException | IOException e) {
            throw new RemotingException("cannot set up TLS from trust store " + tls.trustStore() + ": "
                    + e.getMessage(), e);
        }
    }

    private static KeyStore load(Path path, String password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        try (InputStream in = Files.newInputStream(path)) {
            store.load(in, password(password));
        }
        return store;
    }

    private static char[] password(String password) {
        return password == null ? new char[0] : password.toCharArray();
    }
}
