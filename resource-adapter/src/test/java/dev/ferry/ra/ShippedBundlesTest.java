package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;

/**
 * The adapter ships Ferry's library jars; each must be an OSGi bundle that exports its public
 * API only and names its automatic module. Reads the manifests bnd wrote, from the jars (or
 * the classes directories when the reactor has not packaged them).
 */
class ShippedBundlesTest {

    private static final Map<String, Set<String>> EXPECTED_EXPORTS = Map.of(
            "dev.ferry.api", Set.of("dev.ferry.api"),
            "dev.ferry.format", Set.of("dev.ferry.format"),
            "dev.ferry.spi", Set.of("dev.ferry.spi"),
            "dev.ferry.remoting", Set.of("dev.ferry.remoting", "dev.ferry.remoting.endpoint",
                    "dev.ferry.remoting.protocol", "dev.ferry.remoting.protocol.header",
                    "dev.ferry.remoting.protocol.body", "dev.ferry.remoting.codec", "dev.ferry.remoting.ha"),
            "dev.ferry.store", Set.of("dev.ferry.store"),
            "dev.ferry.server", Set.of("dev.ferry.server", "dev.ferry.server.broker", "dev.ferry.server.namesrv",
                    "dev.ferry.server.embedded", "dev.ferry.server.timer", "dev.ferry.server.auth",
                    "dev.ferry.server.metrics"),
            "dev.ferry.client", Set.of("dev.ferry.client"),
            "dev.ferry.strategies", Set.of());

    @Test
    void shouldShipEveryLibraryAsABundleExportingOnlyItsPublicPackages() throws IOException {
        Map<String, Attributes> bundles = new TreeMap<>();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String entry : classpath.split(File.pathSeparator)) {
            Manifest manifest = manifestOf(Path.of(entry));
            if (manifest == null) {
                continue;
            }
            String bsn = manifest.getMainAttributes().getValue("Bundle-SymbolicName");
            if (bsn != null && bsn.startsWith("dev.ferry.")) {
                bundles.put(bsn, manifest.getMainAttributes());
            }
        }
        assertThat(bundles.keySet()).containsAll(EXPECTED_EXPORTS.keySet());
        EXPECTED_EXPORTS.forEach((bsn, exports) -> {
            Attributes attributes = bundles.get(bsn);
            assertThat(attributes.getValue("Bundle-ManifestVersion")).as(bsn).isEqualTo("2");
            assertThat(attributes.getValue("Automatic-Module-Name")).as(bsn).isEqualTo(bsn);
            assertThat(exportedPackages(attributes.getValue("Export-Package"))).as(bsn).isEqualTo(exports);
        });
    }

    private static Set<String> exportedPackages(String header) {
        Set<String> packages = new TreeSet<>();
        if (header == null || header.isBlank()) {
            return packages;
        }
        // Export-Package: a;version="1",b;uses:="x,y" — split on commas outside quotes.
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (char c : (header + ",").toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == ',' && !quoted) {
                packages.add(current.toString().split(";")[0].trim());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        packages.removeIf(String::isEmpty);
        return packages;
    }

    private static Manifest manifestOf(Path entry) throws IOException {
        if (Files.isDirectory(entry)) {
            Path file = entry.resolve("META-INF/MANIFEST.MF");
            if (!Files.exists(file)) {
                return null;
            }
            try (InputStream in = Files.newInputStream(file)) {
                return new Manifest(in);
            }
        }
        String name = entry.getFileName() == null ? "" : entry.getFileName().toString();
        if (Files.isRegularFile(entry) && name.startsWith("ferry-") && name.endsWith(".jar")) {
            try (JarFile jar = new JarFile(entry.toFile())) {
                return jar.getManifest();
            }
        }
        return null;
    }
}
