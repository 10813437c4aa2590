package dev.ferry.spi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A directory of plugin jars, as {@code ferry-server --plugin-dir} and the resource adapter's {@code pluginDir}
 * take it: every {@code *.jar} directly in it, in name order, behind one class loader whose parent provides the
 * plugin contracts. The directory is read once, when the loader is made; jars added later need a new loader.
 */
public final class PluginJars {

    private PluginJars() {
    }

    /**
     * @param directory the directory
     * @param parent the loader that provides the spi and the API to the plugins
     * @return a new loader over the directory's jars; close it when no plugin of it is used any more
     * @throws IllegalArgumentException if {@code directory} is not a directory
     * @throws UncheckedIOException if it cannot be listed
     */
    public static URLClassLoader open(Path directory, ClassLoader parent) {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(parent, "parent");
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("plugin directory " + directory
                    + " does not exist or is not a directory");
        }
        List<URL> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                jars.add(file.toUri().toURL());
            }
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("bad plugin jar path in " + directory, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list plugin directory " + directory, e);
        }
        return new URLClassLoader("ferry-plugins", jars.toArray(URL[]::new), parent);
    }
}
