package dev.ferry.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Hashtable;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.Version;

class BundlePluginsTest {
    private static final PluginKind<AllocateStrategyProvider> STRATEGIES =
            new PluginKind<>(AllocateStrategyProvider.class, "allocate strategy");

    @TempDir
    Path dir;

    /** A bundle whose state is {@code state} until {@code getEntry} is called, and {@code after} from then on. */
    private static Bundle bundle(int state, int after, URL declaration, RuntimeException onEntry) {
        AtomicInteger current = new AtomicInteger(state);
        return (Bundle) Proxy.newProxyInstance(Bundle.class.getClassLoader(), new Class<?>[] {Bundle.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getState" -> current.get();
                    case "getHeaders" -> new Hashtable<String, String>();
                    case "getSymbolicName" -> "com.example.plugins";
                    case "getVersion" -> new Version(1, 0, 0);
                    case "getEntry" -> {
                        current.set(after);
                        if (onEntry != null) {
                            throw onEntry;
                        }
                        yield declaration;
                    }
                    case "loadClass" -> {
                        if (current.get() == Bundle.UNINSTALLED) {
                            throw new IllegalStateException("Bundle is uninstalled");
                        }
                        yield Class.forName((String) args[0]);
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "fake bundle";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private URL declaring(String... classNames) throws Exception {
        Path file = dir.resolve("services");
        Files.writeString(file, String.join("\n", classNames) + "\n", StandardCharsets.UTF_8);
        return file.toUri().toURL();
    }

    @Test
    void shouldReadTheProvidersAResolvedBundleDeclares() throws Exception {
        Bundle bundle = bundle(Bundle.ACTIVE, Bundle.ACTIVE,
                declaring(PluginRegistryTest.FirstProvider.class.getName()), null);

        assertThat(BundlePlugins.declaredBy(bundle, STRATEGIES)).singleElement()
                .isInstanceOf(PluginRegistryTest.FirstProvider.class);
    }

    @Test
    void shouldSkipABundleUninstalledWhileItsDeclarationIsRead() throws Exception {
        // as when a plugin's watcher looks for a fallback while the framework still lists the leaving bundle
        Bundle leaving = bundle(Bundle.ACTIVE, Bundle.UNINSTALLED, null,
                new IllegalStateException("Bundle is uninstalled"));

        assertThat(BundlePlugins.declaredBy(leaving, STRATEGIES)).isEmpty();
    }

    @Test
    void shouldSkipABundleUninstalledBeforeItsProviderClassLoads() throws Exception {
        Bundle leaving = bundle(Bundle.ACTIVE, Bundle.UNINSTALLED,
                declaring(PluginRegistryTest.FirstProvider.class.getName()), null);

        assertThat(BundlePlugins.declaredBy(leaving, STRATEGIES)).isEmpty();
    }

    @Test
    void shouldStillRefuseABadDeclarationOfABundleThatStays() throws Exception {
        Bundle staying = bundle(Bundle.ACTIVE, Bundle.ACTIVE, declaring("com.example.NoSuchProvider"), null);

        assertThatThrownBy(() -> BundlePlugins.declaredBy(staying, STRATEGIES)).isInstanceOf(PluginException.class)
                .hasMessageContaining("com.example.NoSuchProvider is declared but cannot be loaded")
                .hasMessageContaining("com.example.plugins 1.0.0");
    }

    @Test
    void shouldReadNothingOfABundleThatIsNotResolved() throws Exception {
        Bundle installed = bundle(Bundle.INSTALLED, Bundle.INSTALLED,
                declaring(PluginRegistryTest.FirstProvider.class.getName()), null);

        assertThat(BundlePlugins.declaredBy(installed, STRATEGIES)).isEmpty();
    }
}
