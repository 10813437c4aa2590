package dev.ferry.remoting.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made by the JDK's keytool, written as PEM files the way TLS
 * settings take them: the certificate, and its key as unencrypted PKCS#8.
 *
 * @param certificate the certificate's PEM file (also what a peer trusts)
 * @param privateKey  the key's PEM file
 */
public record TestCertificates(Path certificate, Path privateKey) {
    private static final String PASSWORD = "changeit";

    /** Makes a certificate named {@code name} (its subject's common name) in {@code dir}. */
    public static TestCertificates create(Path dir, String name) throws IOException, InterruptedException {
        Path store = dir.resolve(name + ".p12");
        Path certificate = dir.resolve(name + ".crt.pem");
        Path key = dir.resolve(name + ".key.pem");
        keytool("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=" + name, "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", name, "-keystore", store.toString(), "-storepass", PASSWORD,
                "-file", certificate.toString());
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, PASSWORD.toCharArray());
            Key privateKey = keys.getKey(name, PASSWORD.toCharArray()); // getEncoded() is PKCS#8
            String pem = "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                            .encodeToString(privateKey.getEncoded())
                    + "\n-----END PRIVATE KEY-----\n";
            Files.writeString(key, pem, StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the key keytool made: " + e, e);
        }
        return new TestCertificates(certificate, key);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new ArrayList<>(List.of(keytool.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }
}
