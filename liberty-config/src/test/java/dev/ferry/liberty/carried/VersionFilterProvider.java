package dev.ferry.liberty.carried;

import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import dev.ferry.spi.MessageFilterProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;

/**
 * A filter plugin that an application carries in its own WEB-INF/lib: {@code CARRIED_VERSION} keeps the messages
 * whose tag starts with the version written in the plugin jar ({@code v1-}, {@code v2-}), so a changed jar
 * visibly changes what the bean receives.
 */
public final class VersionFilterProvider implements MessageFilterProvider {
    public static final String TYPE = "CARRIED_VERSION";
    /** The resource inside the plugin jar that holds its version. */
    public static final String VERSION_RESOURCE = "dev/ferry/liberty/carried/version.txt";

    @Override
    public String name() {
        return TYPE;
    }

    /** The version of the jar this class came from. */
    public static String version() {
        URL resource = VersionFilterProvider.class.getClassLoader().getResource(VERSION_RESOURCE);
        if (resource == null) {
            throw new IllegalStateException(VERSION_RESOURCE + " is missing from the plugin jar");
        }
        try {
            URLConnection connection = resource.openConnection();
            // A redeployed application's jar may lie where the old one lay: never read it from a cached copy.
            connection.setUseCaches(false);
            try (InputStream in = connection.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public MessageFilter compile(String expression) {
        return new VersionFilter(expression, version() + "-");
    }

    private record VersionFilter(String expression, String prefix) implements MessageFilter {
        @Override
        public String expressionType() {
            return TYPE;
        }

        @Override
        public boolean mayMatchTagsCode(long tagsCode) {
            return true;
        }

        @Override
        public boolean matches(FilterableMessage message) {
            return message.tags().filter(tags -> tags.startsWith(prefix)).isPresent();
        }
    }
}
