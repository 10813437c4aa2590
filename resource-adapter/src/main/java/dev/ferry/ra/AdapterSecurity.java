package dev.ferry.ra;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.TlsConfig;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * The adapter's security properties, checked together: in embedded mode the engine's ACL and TLS switches (passed
 * on as ferry-server's keys of the same names), in both modes the user the adapter's clients sign as and, in remote
 * mode, whether they speak TLS. A problem never shows a secret's value.
 */
record AdapterSecurity(Boolean authenticationEnabled, Boolean authorizationEnabled, String initAuthenticationUser,
                       String tlsMode, String tlsCertPath, String tlsKeyPath, String tlsTrustCertPath,
                       Boolean tlsNeedClientAuth, Boolean useTls, String accessKey, String secretKey) {

    @Override
    public String toString() {
        return "AdapterSecurity[authenticationEnabled=" + authenticationEnabled + ", authorizationEnabled="
                + authorizationEnabled + ", tlsMode=" + tlsMode + ", accessKey=" + accessKey + "]";
    }

    /** Puts the engine's switches into {@code settings} (ferry-server's keys), refusing those set twice. */
    void addEngineSettings(Properties settings, PropertyProblems problems) {
        put(settings, problems, "authenticationEnabled", Boolean.TRUE.equals(authenticationEnabled) ? "true" : null);
        put(settings, problems, "authorizationEnabled", Boolean.TRUE.equals(authorizationEnabled) ? "true" : null);
        put(settings, problems, "initAuthenticationUser", blank(initAuthenticationUser) ? null
                : initAuthenticationUser.trim());
        Optional<TlsConfig.Mode> parsed = blank(tlsMode) ? Optional.of(TlsConfig.Mode.DISABLED)
                : problems.parse("tlsMode", tlsMode, TlsConfig.Mode::parse,
                        "must be disabled, permissive or enforcing");
        if (parsed.isEmpty()) {
            return;
        }
        String mode = parsed.get().name().toLowerCase(Locale.ROOT);
        put(settings, problems, "tlsMode", parsed.get() == TlsConfig.Mode.DISABLED ? null : mode);
        if (parsed.get() != TlsConfig.Mode.DISABLED) {
            problems.require(readable(tlsCertPath), "tlsCertPath", tlsCertPath,
                    "must be a readable PEM certificate when tlsMode is " + mode);
            problems.require(readable(tlsKeyPath), "tlsKeyPath", tlsKeyPath,
                    "must be a readable PEM key (unencrypted PKCS#8) when tlsMode is " + mode);
        }
        put(settings, problems, "tlsCertPath", blank(tlsCertPath) ? null : tlsCertPath.trim());
        put(settings, problems, "tlsKeyPath", blank(tlsKeyPath) ? null : tlsKeyPath.trim());
        put(settings, problems, "tlsTrustCertPath", blank(tlsTrustCertPath) ? null : tlsTrustCertPath.trim());
        put(settings, problems, "tlsNeedClientAuth", Boolean.TRUE.equals(tlsNeedClientAuth) ? "true" : null);
    }

    private static void put(Properties settings, PropertyProblems problems, String key, String value) {
        if (value == null) {
            return;
        }
        if (settings.containsKey(key)) {
            problems.addAlso("engineConfig", "(file)", "sets " + key + ", which is the adapter property " + key
                    + ": set it there");
            return;
        }
        settings.setProperty(key, value);
    }

    /** The adapter's own credentials, when both halves are given. */
    Optional<Credentials> credentials(PropertyProblems problems) {
        return problems.credentials("accessKey", accessKey, "secretKey", secretKey);
    }

    /** Remote mode: TLS when {@code useTls}, trusting {@code tlsTrustCertPath} (else the JDK's authorities). */
    TlsConfig clientTls(AdapterConfig.Mode mode, PropertyProblems problems) {
        if (mode != AdapterConfig.Mode.REMOTE || !Boolean.TRUE.equals(useTls)) {
            return TlsConfig.DISABLED;
        }
        if (blank(tlsTrustCertPath)) {
            return TlsConfig.client(null);
        }
        problems.require(readable(tlsTrustCertPath), "tlsTrustCertPath", tlsTrustCertPath,
                "must be a readable file of PEM certificates");
        return TlsConfig.client(Path.of(tlsTrustCertPath.trim()));
    }

    private static boolean readable(String path) {
        if (blank(path)) {
            return false;
        }
        try {
            return Files.isReadable(Path.of(path.trim()));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
