package dev.ferry.remoting.internal;

import dev.ferry.remoting.FileErrors;
import dev.ferry.remoting.TlsConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Checks a server's TLS files before Netty reads them, so that a bad one is refused with its config key, its path and
 * what is wrong with it, instead of a parser's stack trace. What it says never holds a byte of the key.
 */
public final class PemFiles {
    /** Far beyond any certificate chain or key: a bigger file is not one. */
    private static final long MAX_BYTES = 1 << 20;
    private static final String BEGIN_CERTIFICATE = "-----BEGIN CERTIFICATE-----";
    private static final String BEGIN_KEY = "-----BEGIN PRIVATE KEY-----";
    private static final String END_KEY = "-----END PRIVATE KEY-----";
    private static final String TO_PKCS8 = "convert it with openssl pkcs8 -topk8 -nocrypt -in OLD -out NEW";
    private static final byte[] PROBE = "ferry".getBytes(StandardCharsets.US_ASCII);

    private PemFiles() {
    }

    /**
     * @throws IllegalArgumentException naming the key ({@code tlsCertPath}, {@code tlsKeyPath},
     *                                  {@code tlsTrustCertPath}) and the file of the first bad one
     */
    public static void checkServer(TlsConfig tls) {
        X509Certificate leaf = certificates("tlsCertPath", tls.certificateChain()).get(0);
        PrivateKey key = privateKey("tlsKeyPath", tls.privateKey(), leaf);
        requirePair(tls, leaf.getPublicKey(), key);
        if (tls.trustCertificates() != null) {
            certificates("tlsTrustCertPath", tls.trustCertificates());
        }
    }

    private static List<X509Certificate> certificates(String key, Path path) {
        String text = text(key, path);
        if (!text.contains(BEGIN_CERTIFICATE)) {
            throw new IllegalArgumentException(key + ": " + path + " is not a PEM certificate (no " + BEGIN_CERTIFICATE
                    + " line)");
        }
        try {
            Collection<? extends Certificate> read = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)));
            List<X509Certificate> certificates = read.stream().map(X509Certificate.class::cast).toList();
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException(key + ": " + path + " holds no certificate");
            }
            return certificates;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(key + ": " + path + " is not a PEM certificate (" + e.getMessage()
                    + ")", e);
        }
    }

    private static PrivateKey privateKey(String key, Path path, X509Certificate certificate) {
        String text = text(key, path);
        int begin = text.indexOf(BEGIN_KEY);
        int end = text.indexOf(END_KEY);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException(key + ": " + path + " is not an unencrypted PKCS#8 PEM key ("
                    + BEGIN_KEY + "): " + otherForm(text).orElse("it holds none") + "; " + TO_PKCS8);
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(text.substring(begin + BEGIN_KEY.length(), end));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + path + " is not valid PEM (bad base64)");
        }
        String algorithm = certificate.getPublicKey().getAlgorithm();
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            // the cause is left out: a parser's message may quote the key's bytes
            throw new IllegalArgumentException(key + ": " + path + " is not an " + algorithm + " PKCS#8 key, "
                    + "which the certificate in tlsCertPath needs");
        }
    }

    /** What a key file holds when it is not PKCS#8, in the words of its PEM header. */
    private static Optional<String> otherForm(String text) {
        if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
            return Optional.of("it is encrypted");
        }
        if (text.contains("-----BEGIN RSA PRIVATE KEY-----")) {
            return Optional.of("it is a PKCS#1 RSA key");
        }
        if (text.contains("-----BEGIN EC PRIVATE KEY-----")) {
            return Optional.of("it is a SEC 1 EC key");
        }
        if (text.contains(BEGIN_CERTIFICATE)) {
            return Optional.of("it is a certificate");
        }
        return Optional.empty();
    }

    /** The key signs what the certificate's public key verifies, where the JDK names a signature for the type. */
    private static void requirePair(TlsConfig tls, PublicKey certified, PrivateKey key) {
        String signature = switch (certified.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "EdDSA", "Ed25519", "Ed448" -> "EdDSA";
            case "DSA" -> "SHA256withDSA";
            default -> null;
        };
        if (signature == null) {
            return;
        }
        try {
            Signature signer = Signature.getInstance(signature);
            signer.initSign(key);
            signer.update(PROBE);
            byte[] signed = signer.sign();
            Signature verifier = Signature.getInstance(signature);
            verifier.initVerify(certified);
            verifier.update(PROBE);
            if (verifier.verify(signed)) {
                return;
            }
        } catch (GeneralSecurityException e) {
            // a key that cannot sign for the certificate is not its key: said below
        }
        throw new IllegalArgumentException("tlsKeyPath: " + tls.privateKey() + " is not the key of the certificate in "
                + "tlsCertPath " + tls.certificateChain());
    }

    private static String text(String key, Path path) {
        try {
            if (Files.size(path) > MAX_BYTES) {
                throw new IllegalArgumentException(key + ": " + path + " is larger than " + MAX_BYTES
                        + " bytes: not a PEM file");
            }
            return new String(Files.readAllBytes(path), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalArgumentException(key + ": cannot read " + path + " (" + FileErrors.reason(e) + ")", e);
        }
    }
}
