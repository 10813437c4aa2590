package dev.ferry.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginJarsTest {
    private static final String SERVICE_FILE = "META-INF/services/" + AllocateStrategyProvider.class.getName();

    @TempDir
    Path directory;

    @Test
    void shouldServeTheProvidersTheDirectorysJarsDeclare() throws IOException {
        jar("third.jar", ThirdProvider.class);

        try (URLClassLoader loader = PluginJars.open(directory, getClass().getClassLoader())) {
            assertThat(PluginRegistry.load(AllocateStrategyProvider.KIND, loader).names())
                    .containsExactly("first", "Second", "third");
        }
        assertThat(PluginRegistry.load(AllocateStrategyProvider.KIND, getClass().getClassLoader()).names())
                .doesNotContain("third");
    }

    @Test
    void shouldIgnoreFilesThatAreNotJars() throws IOException {
        jar("third.jar.disabled", ThirdProvider.class);
        Files.writeString(directory.resolve("README"), "not a jar");

        try (URLClassLoader loader = PluginJars.open(directory, getClass().getClassLoader())) {
            assertThat(loader.getURLs()).isEmpty();
            assertThat(PluginRegistry.load(AllocateStrategyProvider.KIND, loader).names())
                    .containsExactly("first", "Second");
        }
    }

    @Test
    void shouldCountAProviderClassThatSeveralLoadersSeeOnce() throws IOException {
        jar("third.jar", ThirdProvider.class);

        try (URLClassLoader loader = PluginJars.open(directory, getClass().getClassLoader())) {
            PluginRegistry<AllocateStrategyProvider> registry = PluginRegistry.load(AllocateStrategyProvider.KIND,
                    List.of(getClass().getClassLoader(), loader, getClass().getClassLoader()));

            assertThat(registry.names()).containsExactly("first", "Second", "third");
        }
    }

    @Test
    void shouldRefuseTwoClassesClaimingOneNameThroughDifferentLoaders() throws IOException {
        jar("clash.jar", PluginRegistryTest.AnotherFirstProvider.class);

        try (URLClassLoader loader = PluginJars.open(directory, getClass().getClassLoader())) {
            assertThatThrownBy(() -> PluginRegistry.load(AllocateStrategyProvider.KIND,
                    List.of(getClass().getClassLoader(), loader)))
                    .isInstanceOf(DuplicatePluginException.class)
                    .hasMessageContaining(PluginRegistryTest.AnotherFirstProvider.class.getName());
        }
    }

    @Test
    void shouldRefuseAProviderWhoseClassCannotBeLinkedAsAPluginProblem() throws IOException {
        // The provider's class is in the jar, but its superclass is not visible to the jar's loader.
        jar("unlinkable.jar", ThirdProvider.class);
        addClass(directory.resolve("unlinkable.jar"), ThirdProvider.class);

        try (URLClassLoader loader = PluginJars.open(directory, ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> PluginRegistry.load(AllocateStrategyProvider.KIND, List.of(loader)))
                    .isInstanceOf(PluginException.class)
                    .hasMessageContaining("Could not load allocate strategy plugins")
                    .hasMessageContaining(PluginRegistryTest.FirstProvider.class.getName().replace('.', '/'));
        }
    }

    @Test
    void shouldRefuseAMissingDirectoryNamingIt() {
        Path missing = directory.resolve("missing");

        assertThatThrownBy(() -> PluginJars.open(missing, getClass().getClassLoader()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist or is not a directory");
    }

    @Test
    void shouldRefuseNoLoaderAtAll() {
        assertThatThrownBy(() -> PluginRegistry.load(AllocateStrategyProvider.KIND, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allocate strategy");
    }

    /** A jar that declares {@code provider} in its service file; the class itself comes from the parent. */
    private void jar(String name, Class<?> provider) throws IOException {
        try (OutputStream file = Files.newOutputStream(directory.resolve(name));
             JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new JarEntry(SERVICE_FILE));
            jar.write((provider.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
    }

    /** Rewrites {@code jar} with the class file of {@code type} added. */
    private static void addClass(Path jar, Class<?> type) throws IOException {
        String entry = type.getName().replace('.', '/') + ".class";
        byte[] bytes;
        try (var in = type.getClassLoader().getResourceAsStream(entry)) {
            bytes = in.readAllBytes();
        }
        Path copy = jar.resolveSibling(jar.getFileName() + ".tmp");
        try (var zip = new java.util.zip.ZipFile(jar.toFile());
             JarOutputStream out = new JarOutputStream(Files.newOutputStream(copy))) {
            for (var e : java.util.Collections.list(zip.entries())) {
                out.putNextEntry(new JarEntry(e.getName()));
                try (var in = zip.getInputStream(e)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry(entry));
            out.write(bytes);
            out.closeEntry();
        }
        Files.move(copy, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Declared only by the jars the tests make. */
    public static class ThirdProvider extends PluginRegistryTest.FirstProvider {
        @Override
        public String name() {
            return "third";
        }
    }
}
